"""pgx's interface to the game: ``Env.init(key)``, ``Env.step(state, action, key)``,
``Env.observe(state, player_id)``, and a :class:`~.state.State` carrying ``current_player``,
``observation``, ``legal_action_mask``, ``rewards``, ``terminated``, ``truncated`` and
``_step_count``, the game's own arrays in the private ``_game``.

An ``Env`` is one table size, one pair of variant switches and one rule for illegal actions:
array shapes depend on the number of players, so each size compiles once. The conventions
are pgx's (``pgx.core.Env``; ``tests/jax_env/test_pgx_api.py`` runs pgx's own ``api_test``
on 3, 4 and 5 players), so code written for pgx (PureJaxRL loops, mctx search) runs on this
game as it is:

- ``rewards`` is every seat's reward for the step just taken: zero until the game ends,
  then the R12 rank utility (``kingsbreakfast.tensor``'s ``rank``: +1 for the sole winner,
  −1 for the sole last, summing to 0);
- a step on a finished game changes nothing and rewards nothing;
- an action that is not legal follows the rule of ``kingsbreakfast.tensor.illegal``, the one
  the Gymnasium environment and its vector form follow too: by default (``substitute``) the
  lowest legal id is played instead; ``illegal_action="lose"`` ends the game at once (−1 to
  the seat that took it, +1/(players − 1) to each other seat, zero-sum like the rank
  utility) and ``"pgx"`` does the same with pgx's numbers (−1, and +(players − 1) to each
  other seat: [2, −1, 2] at three players);
- once the game is over, ``current_player`` is the seat whose action ended it (pgx only
  asks that it is never negative; its own games differ on which seat), every entry of
  ``legal_action_mask`` is True (so a masked policy never sees an all-masked row) and
  ``observation`` is that seat's view.

Chance goes through the key: ``init`` draws the first cook (when the ``Env`` was not given
one) and the first table, ``step`` draws whatever its action turns up. ``init_with`` and
``step_with`` take those cards instead (a replay of a known deck).

pgx itself is not needed: with pgx installed, ``Env`` and ``State`` are registered as
virtual subclasses of ``pgx.core.Env`` and ``pgx.core.State`` (``isinstance`` holds), and
every name pgx's code reads is here.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
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
from kingsbreakfast.tensor.illegal import (
    JAX_ENV_ID,
    PGX,
    RULE_BY_ENV_ID,
    SUBSTITUTE,
    check_rule,
    forfeit_rewards,
)

from . import rules as _rules
from ._layout import SIZE
from .observe import observe_fields
from .state import Game, State

Array = jax.Array

class Env:
    """The game for ``num_players`` seats under ``rules`` (pgx's ``Env``)."""

    id = JAX_ENV_ID
    version = "v1"
    """Bumped when a game's behaviour or the observation changes (docs/research.md). v1:
    pgx's state layout and terminal ``current_player``, one illegal-action rule."""
    num_actions = NUM_ACTIONS
    observation_shape = (SIZE,)

    def __init__(
        self,
        num_players: int = 4,
        rules: Rules = DEFAULT_RULES,
        first_cook: int | None = None,
        illegal_action: str = RULE_BY_ENV_ID[JAX_ENV_ID],
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
        self.illegal_action = check_rule(illegal_action, "jax")
        """What an illegal action does (``kingsbreakfast.tensor.illegal``)."""
        self._num_players = num_players
        self.rules = rules
        self.first_cook = first_cook
        self.chance_size = _rules.chance_size(num_players)
        """Length of the ``cards`` array of ``step_with`` (and ``init_with``'s ``cards``)."""
        self._must_draw = rules.empty_table == MUST_DRAW
        self._dragon_min = rules.dragon_min_on_table
        ends = self.illegal_action != SUBSTITUTE
        offender, other, *_ = forfeit_rewards(num_players, 0, self.illegal_action if ends else PGX)
        self._offender = offender
        """What the seat that took an illegal action gets when it ends the game."""
        self._forfeit = other if ends else 0.0
        """What each other seat gets when an illegal action ends the game."""

    @property
    def num_players(self) -> int:
        return self._num_players

    @property
    def _illegal_action_penalty(self) -> float:
        """pgx's name for the offender's reward when an illegal action ends a game (read by
        ``pgx.core.Env._step_with_illegal_action``; here by the ``lose`` and ``pgx`` rules)."""
        return self._offender

    # -- pgx's interface -----------------------------------------------------------------
    def init(self, key: Array) -> State:
        """A new game: the first cook (R2, at random unless the ``Env`` fixes it) and the
        first table (R4) drawn with ``key``."""
        cook_key, deck_key = jax.random.split(key)
        cards = _rules.draw_cards(jnp.asarray(_rules.FULL_DECK), deck_key, 2 * self.num_players)
        return self.init_with(cards, self._first_cook(cook_key))

    def step(self, state: State, action: Array, key: Array | None = None) -> State:
        """The seat to move takes ``action``; the cards it turns up are drawn with ``key``
        (pgx lets a deterministic game go without one; this game needs it)."""
        if key is None:
            raise ValueError("King's Breakfast draws cards at random: step needs a key")
        return self.step_with(state, action, self.chance(state, key))

    def observe(self, state: State, player_id: Array | int | None = None) -> Array:
        """The view tensor of seat ``player_id`` (``current_player`` when not given): what
        that seat may know, nothing more. The argument has pgx's name, so pgx code that
        passes it by keyword runs as it is (pgx 2.6 warns that it may drop the argument; this
        game keeps it, since a seat's view is what a determinizing search starts from)."""
        seat = state.current_player if player_id is None else player_id
        tensor = observe_fields(
            state._game.fields(),
            jnp.asarray(seat, jnp.int32),
            self.num_players,
            self._must_draw,
            self._dragon_min,
        )
        return jax.lax.stop_gradient(tensor)

    # -- chance given ------------------------------------------------------------------------
    def chance(self, state: State, key: Array) -> Array:
        """The cards a step from ``state`` would turn up with ``key``, in order (R7, R4)."""
        return _rules.draw_cards(state._game.deck, key, self.chance_size)

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
        # a game this method dealt (no step taken yet) carries its predecessor's end flag
        # for one step only
        state = state.replace(terminated=state.terminated & (state._step_count > 0))
        # the step's cards and the new game's table drawn side by side in one loop (the
        # table's row padded to the step's length; its last card is not used)
        decks = jnp.stack([state._game.deck, jnp.asarray(_rules.FULL_DECK)])
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
        game = Game(
            to_move=cook,
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
        )
        return State(
            current_player=cook,
            observation=jnp.zeros(SIZE, jnp.float32),
            rewards=jnp.zeros(n, jnp.float32),
            terminated=jnp.bool_(False),
            truncated=jnp.bool_(False),
            legal_action_mask=jnp.zeros(NUM_ACTIONS, bool),
            _step_count=zero,
            _game=game,
        )

    def _advance(self, state: State, action: Array | int, cards: Array) -> State:
        """The rules' part of a step: everything but the new mask and observation."""
        action = jnp.asarray(action, jnp.int32)
        n = self.num_players
        cards = jnp.asarray(cards, jnp.int32)
        legal = (state.legal_action_mask & (jnp.arange(NUM_ACTIONS) == action)).any()
        over = state.terminated
        if self.illegal_action == SUBSTITUTE:
            # the lowest legal id in place of a refused action (argmax: the first True)
            action = jnp.where(legal, action, jnp.argmax(state.legal_action_mask))
            refused = jnp.bool_(False)
        else:
            refused = ~legal
        moved = _rules.turn(state._game.fields(), action, cards, n)
        done = moved.pop("done")
        points, discarded = _rules.score(moved["king"], moved["takes"], moved["draws"])
        rewards = jnp.where(done, _rules.rank_utility(points, discarded), 0.0)
        penalty = jnp.where(jnp.arange(n) == state.current_player, self._offender, self._forfeit)
        rewards = jnp.where(refused, penalty, rewards)
        keep = over | refused  # a finished game stays as it is; so does a refused action's
        moved["to_move"] = moved.pop("current_player")
        game = state._game.replace(
            **{name: jnp.where(keep, getattr(state._game, name), value)
               for name, value in moved.items()}
        )  # fmt: skip
        terminated = over | done | refused
        # once over, the seat whose action ended the game stays the current player (pgx:
        # any seat but never −1)
        current = jnp.where(terminated, state.current_player, game.to_move).astype(jnp.int32)
        return state.replace(
            current_player=current,
            rewards=jnp.where(over, 0.0, rewards).astype(jnp.float32),
            terminated=terminated,
            _step_count=state._step_count + (~over).astype(jnp.int32),
            _game=game,
        )

    # -- shared ----------------------------------------------------------------------------
    def _finish(self, state: State, over: Array | None = None) -> State:
        """The mask and the observation of the current player (pgx's conventions at the
        end of a game, unless ``over`` says the game is not over after all)."""
        game = state._game
        mask = _rules.legal_mask(
            game.table, game.king, game.deck, game.pending_dragon,
            self._must_draw, self._dragon_min,
        )  # fmt: skip
        if over is None:
            over = state.terminated
        return state.replace(
            legal_action_mask=jnp.where(over, True, mask),
            observation=self.observe(state),
        )


def as_numpy(state: State) -> dict[str, np.ndarray[Any, Any]]:
    """The state's fields as NumPy arrays, the game's among them (for tests and printing)."""
    out = {f.name: np.asarray(getattr(state, f.name))
           for f in dataclasses.fields(state) if f.name != "_game"}  # fmt: skip
    out.update((name, np.asarray(value)) for name, value in state._game.fields().items())
    out["to_move"] = out.pop("current_player")
    out["current_player"] = np.asarray(state.current_player)
    return out


def _register_with_pgx() -> None:
    """``isinstance(env, pgx.core.Env)`` and ``isinstance(state, pgx.core.State)`` when pgx
    is installed: both are abstract base classes, so registering needs no inheritance (and
    no pgx for everyone else)."""
    if importlib.util.find_spec("pgx") is None:
        return
    core = importlib.import_module("pgx.core")
    core.Env.register(Env)
    core.State.register(State)


_register_with_pgx()
