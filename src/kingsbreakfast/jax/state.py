"""The JAX environment's state: pgx's six public fields and ``_step_count``, and the game
itself kept in one private field, ``_game``.

pgx's ``api_test`` holds a state to exactly those public names (anything else must start
with an underscore), so the rules' arrays live in :class:`Game`, a structure of their own:
code written for pgx sees only what every pgx game shows, and the rules read and write one
field. Both are JAX pytrees (``jax.tree_util.register_dataclass``), so a batch of states is
one state with a leading axis on every array.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import jax

from kingsbreakfast.tensor.illegal import JAX_ENV_ID

from .svg import draw

Array = jax.Array


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class Game:
    """The cards and the turn order of one game (R1–R10)."""

    to_move: Array
    """The seat whose turn it is by the rules, −1 once the game is over (R10)."""
    table: Array
    """int32 (8,): dish cards on the table by dish, then the dragons there."""
    king: Array
    """int32 (7,): the king's dishes."""
    takes: Array
    """int32 (players, 7): cards each seat took from the table (public)."""
    draws: Array
    """int32 (players, 7): dish cards each seat drew (hidden from the others)."""
    deck: Array
    """int32 (8,): cards of each kind still in the deck, dragon last; never their order."""
    removed_dishes: Array
    removed_dragons: Array
    removed_unseen: Array
    """Cards left in the deck when the game ended (R10)."""
    pending_dragon: Array
    """The seat to move drew a dragon and must use or place it (R7a)."""
    cook: Array
    round: Array
    turns_left: Array
    """Turns left this round, the current one included."""

    def replace(self, **changes: Any) -> Game:
        return dataclasses.replace(self, **changes)

    def fields(self) -> dict[str, Array]:
        """The arrays by the names the rules' functions read (``current_player`` for the
        seat to move by the rules)."""
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        out["current_player"] = out.pop("to_move")
        return out


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class State:
    """One game (or, under ``vmap``, a batch of them: every field gains a leading axis),
    field for field pgx's ``pgx.core.State``."""

    current_player: Array
    """The seat to move; once the game is over, the seat whose action ended it. pgx asks
    only that it is never negative (its games differ: tic-tac-toe moves on to the next
    seat); the last mover is kept here, whose reward a search backs up first."""
    observation: Array
    """The view tensor of ``current_player`` (docs/research.md's layout, float32)."""
    rewards: Array
    """float32 (players,): what the step just taken gave each seat."""
    terminated: Array
    truncated: Array
    """Always False: every game ends by R10 within 18 rounds."""
    legal_action_mask: Array
    """bool (38,), by action id (docs/engine.md); every entry True once over (pgx)."""
    _step_count: Array
    """Steps taken in this game (pgx's counter)."""
    _game: Game
    """The rules' arrays (private, as pgx wants every field beyond its own)."""

    @property
    def env_id(self) -> str:
        """pgx's environment id of this game."""
        return JAX_ENV_ID

    def replace(self, **changes: Any) -> State:
        return dataclasses.replace(self, **changes)

    def to_svg(self, *, color_theme: str | None = None, scale: float | None = None) -> str:
        """An SVG drawing of the table (of every game, for a batch), as pgx's ``to_svg``:
        what every seat may see, drawn cards only as their number (R7)."""
        return draw(_as_numpy(self), color_theme or "light", scale or 1.0)

    def save_svg(
        self, filename: str | Path, *, color_theme: str | None = None, scale: float | None = None
    ) -> None:
        """:meth:`to_svg` written to ``filename`` (pgx wants it to end in ``.svg``)."""
        if not str(filename).endswith(".svg"):
            raise ValueError(f"the file name must end with .svg, not {str(filename)!r}")
        Path(filename).write_text(self.to_svg(color_theme=color_theme, scale=scale))

    def _repr_html_(self) -> str:
        return self.to_svg()


def _as_numpy(state: State) -> dict[str, Any]:
    import numpy as np

    out = {name: np.asarray(value) for name, value in state._game.fields().items()}
    out["to_move"] = out.pop("current_player")
    for name in ("current_player", "rewards", "terminated"):
        out[name] = np.asarray(getattr(state, name))
    return out
