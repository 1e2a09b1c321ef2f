"""pgx's interface to the game: ``Env.init(key)``, ``Env.step(state, action, key)``,
``Env.observe(state, player)``, and a :class:`State` carrying ``current_player``,
``observation``, ``legal_action_mask``, ``rewards``, ``terminated`` and ``truncated``.

An ``Env`` is one table size and one pair of variant switches: array shapes depend on the
number of players, so each size compiles once. The conventions are pgx's, so code written
for pgx (PureJaxRL loops, mctx search) runs on this game as it is:

- ``rewards`` is every seat's reward for the step just taken: zero until the game ends,
  then the R12 rank utility (``kingsbreakfast.tensor``'s ``rank``: +1 for the sole winner,
  −1 for the sole last, summing to 0);
- a step on a finished game changes nothing and rewards nothing;
- an illegal action ends the game at once: −1 to the seat that took it, +1/(players − 1) to
  each other seat (pgx's penalty, kept zero-sum like the rank utility);
- once the game is over, ``current_player`` is −1, every entry of ``legal_action_mask`` is
  True (so a masked policy never sees an all-masked row) and ``observation`` is seat 0's.

Chance goes through the key: ``init`` draws the first cook (when the ``Env`` was not given
one) and the first table, ``step`` draws whatever its action turns up. ``init_with`` and
``step_with`` take those cards instead (a replay of a known deck).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from kingsbreakfast.engine import (
    DEFAULT_RULES,
    MUST_DRAW,
    NUM_ACTIONS,
    NUM_DISHES,
    Rules,
    SetupError,
)
from kingsbreakfast.engine import (
    MAX_PLAYERS as _MAX,
)
from kingsbreakfast.engine import (
    MIN_PLAYERS as _MIN,
)

from . import rules as _rules
from ._layout import SIZE
from .observe import observe_fields

Array = jax.Array

_GAME_FIELDS = (
    "table",
    "king",
    "takes",
    "draws",
    "deck",
    "removed_dishes",
    "removed_dragons",
    "removed_unseen",
    "pending_dragon",
    "cook",
    "round",
    "turns_left",
)


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class State:
    """One game (or, under ``vmap``, a batch of them: every field gains a leading axis)."""

    current_player: Array
    """The seat to move, −1 once the game is over."""
    observation: Array
    """The view tensor of the seat to move (docs/research.md's layout, float32)."""
    rewards: Array
    """float32 (players,): what the step just taken gave each seat."""
    terminated: Array
    truncated: Array
    """Always False: every game ends by R10 within 18 rounds."""
    legal_action_mask: Array
    """bool (38,), by action id (docs/engine.md)."""
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
    step_count: Array

    def replace(self, **changes: Any) -> State:
        return dataclasses.replace(self, **changes)

    def game_fields(self) -> dict[str, Array]:
        names = ("current_player", *_GAME_FIELDS)
        return {name: getattr(self, name) for name in names}


class Env:
    """The game for ``num_players`` seats under ``rules`` (pgx's ``Env``)."""

    id = "kingsbreakfast"
    version = "v0"
    """Bumped when a game's behaviour or the observation changes (docs/research.md)."""
    num_actions = NUM_ACTIONS
    observation_shape = (SIZE,)

    def __init__(
        self, num_players: int = 4, rules: Rules = DEFAULT_RULES, first_cook: int | None = None
    ) -> None:
        if not (
            isinstance(num_players, int)
            and not isinstance(num_players, bool)
            and _MIN <= num_players <= _MAX
        ):
            raise SetupError(
                f"King's Breakfast is played by 3 to 5 players, not {num_players!r} (R2)",
                "bad_player_count",
                players=repr(num_players),
            )
        if not isinstance(rules, Rules):
            raise SetupError("rules must be a Rules object", "bad_rules")
        if first_cook is not None and first_cook not in range(num_players):
            raise SetupError(
                f"the first cook must be a seat from 0 to {num_players - 1}, not {first_cook!r}",
                "bad_first_cook",
                first_cook=repr(first_cook),
            )
        self.num_players = num_players
        self.rules = rules
        self.first_cook = first_cook
        self.chance_size = _rules.chance_size(num_players)
        """Length of the ``cards`` array of ``step_with`` (and ``init_with``'s ``cards``)."""
        self._must_draw = rules.empty_table == MUST_DRAW
        self._dragon_min = rules.dragon_min_on_table

    # -- pgx's interface -----------------------------------------------------------------
    def init(self, key: Array) -> State:
        """A new game: the first cook (R2, at random unless the ``Env`` fixes it) and the
        first table (R4) drawn with ``key``."""
        cook_key, deck_key = jax.random.split(key)
        cards = _rules.draw_cards(jnp.asarray(_rules.FULL_DECK), deck_key, 2 * self.num_players)
        return self.init_with(cards, self._first_cook(cook_key))

    def step(self, state: State, action: Array, key: Array) -> State:
        """The seat to move takes ``action``; the cards it turns up are drawn with ``key``."""
        return self.step_with(state, action, self.chance(state, key))

    def observe(self, state: State, player: Array | int) -> Array:
        """The view tensor of seat ``player``: what that seat may know, nothing more."""
        tensor = observe_fields(
            state.game_fields(),
            jnp.asarray(player, jnp.int32),
            self.num_players,
            self._must_draw,
            self._dragon_min,
        )
        return jax.lax.stop_gradient(tensor)

    # -- chance given ------------------------------------------------------------------------
    def chance(self, state: State, key: Array) -> Array:
        """The cards a step from ``state`` would turn up with ``key``, in order (R7, R4)."""
        return _rules.draw_cards(state.deck, key, self.chance_size)

    def init_with(self, cards: Array, first_cook: Array | int) -> State:
        """A new game whose first table is ``cards[:2 × players]`` (the deck's top cards)."""
        return self._finish(self._fresh(cards, first_cook))

    def step_with(self, state: State, action: Array | int, cards: Array) -> State:
        """``step`` with the turned-up cards given: ``cards[0]`` is drawn by a draw, and the
        next table is the 2 × players cards after it (after none when no card was drawn)."""
        return self._finish(self._advance(state, action, cards))

    def step_and_deal(self, state: State, action: Array | int, key: Array) -> State:
        """``step``, and a game it ends dealt anew at once (pgx's ``auto_reset``): the state
        returned is then the new game's, with the finished game's ``rewards`` and
        ``terminated`` kept for the caller to read. Cheaper than ``step`` then ``init``,
        since the new game's mask and observation are written once."""
        # one call of the generator for the step's cards, the new game's cook and table
        table = 2 * self.num_players
        uniform = jax.random.uniform(key, (self.chance_size + 1 + table,))
        # a game this method dealt carries its predecessor's end flag for one step only
        state = state.replace(terminated=state.terminated & (state.current_player < 0))
        # the step's cards and the new game's table drawn side by side in one loop (the
        # table's row padded to the step's length; its last card is not used)
        decks = jnp.stack([state.deck, jnp.asarray(_rules.FULL_DECK)])
        padded = jnp.concatenate([uniform[-table:], jnp.zeros(self.chance_size - table)])
        uniforms = jnp.stack([uniform[: self.chance_size], padded])
        drawn = jax.vmap(_rules.cards_from)(decks, uniforms)
        played = self._advance(state, action, drawn[0])
        cook = (
            jnp.minimum(
                jnp.floor(uniform[self.chance_size] * self.num_players), self.num_players - 1
            ).astype(jnp.int32)
            if self.first_cook is None
            else jnp.int32(self.first_cook)
        )
        fresh = self._fresh(drawn[1, :table], cook).replace(
            rewards=played.rewards, terminated=played.terminated
        )
        done = played.terminated
        dealt: State = jax.tree.map(lambda new, old: jnp.where(done, new, old), fresh, played)
        return self._finish(dealt, over=jnp.bool_(False))

    def _first_cook(self, key: Array) -> Array:
        if self.first_cook is None:
            cook: Array = jax.random.randint(key, (), 0, self.num_players)
            return cook
        fixed: Array = jnp.int32(self.first_cook)
        return fixed

    def _fresh(self, cards: Array, first_cook: Array | int) -> State:
        n = self.num_players
        cards = jnp.asarray(cards, jnp.int32)
        turned = (jnp.arange(cards.shape[0]) < 2 * n)[:, None]
        table = (turned * (cards[:, None] == jnp.arange(_rules.CARD_KINDS))).sum(axis=0)
        cook = jnp.asarray(first_cook, jnp.int32)
        zero = jnp.int32(0)
        state = State(
            current_player=cook,
            observation=jnp.zeros(SIZE, jnp.float32),
            rewards=jnp.zeros(n, jnp.float32),
            terminated=jnp.bool_(False),
            truncated=jnp.bool_(False),
            legal_action_mask=jnp.zeros(NUM_ACTIONS, bool),
            table=table.astype(jnp.int32),
            king=jnp.zeros(NUM_DISHES, jnp.int32),
            takes=jnp.zeros((n, NUM_DISHES), jnp.int32),
            draws=jnp.zeros((n, NUM_DISHES), jnp.int32),
            deck=(jnp.asarray(_rules.FULL_DECK) - table).astype(jnp.int32),
            removed_dishes=jnp.zeros(NUM_DISHES, jnp.int32),
            removed_dragons=zero,
            removed_unseen=zero,
            pending_dragon=jnp.bool_(False),
            cook=cook,
            round=jnp.int32(1),
            turns_left=jnp.int32(n),
            step_count=zero,
        )
        return state

    def _advance(self, state: State, action: Array | int, cards: Array) -> State:
        """The rules' part of a step: everything but the new mask and observation."""
        action = jnp.asarray(action, jnp.int32)
        n = self.num_players
        cards = jnp.asarray(cards, jnp.int32)
        legal = (state.legal_action_mask & (jnp.arange(NUM_ACTIONS) == action)).any()
        moved = _rules.turn(state.game_fields(), action, cards, n)
        done = moved.pop("done")
        points, discarded = _rules.score(moved["king"], moved["takes"], moved["draws"])
        seats = jnp.arange(n)
        penalty = jnp.where(seats == state.current_player, -1.0, 1.0 / (n - 1))
        rewards = jnp.where(done, _rules.rank_utility(points, discarded), 0.0)
        rewards = jnp.where(legal, rewards, penalty)
        over = state.terminated
        keep = over | ~legal  # a finished game stays as it is; so does a refused action's
        moved = {
            name: jnp.where(keep, getattr(state, name), value) for name, value in moved.items()
        }
        moved["current_player"] = jnp.where(
            over | legal, moved["current_player"], -1
        ).astype(jnp.int32)
        out = state.replace(
            **moved,
            rewards=jnp.where(over, 0.0, rewards).astype(jnp.float32),
            terminated=over | done | ~legal,
            step_count=state.step_count + (~over).astype(jnp.int32),
        )
        return out

    # -- shared ----------------------------------------------------------------------------
    def _finish(self, state: State, over: Array | None = None) -> State:
        """The mask and the observation of the seat now to move (pgx's conventions at the
        end of a game, unless ``over`` says the game is not over after all)."""
        mask = _rules.legal_mask(
            state.table, state.king, state.deck, state.pending_dragon,
            self._must_draw, self._dragon_min,
        )  # fmt: skip
        if over is None:
            over = state.terminated
        viewer = jnp.where(over, 0, state.current_player)
        return state.replace(
            legal_action_mask=jnp.where(over, True, mask),
            observation=self.observe(state, viewer),
        )


def as_numpy(state: State) -> dict[str, np.ndarray[Any, Any]]:
    """The state's fields as NumPy arrays (for tests and for printing)."""
    return {f.name: np.asarray(getattr(state, f.name)) for f in dataclasses.fields(state)}
