"""One seat against card counters: the environment as a single-agent game inside JAX.

A learner trained inside JAX (PPO, an AlphaZero-style search) needs its opponents there too,
or every step leaves the device to ask a Python bot. :class:`VersusCounter` seats the learner
at one seat and the JAX card counter (``hard``, :mod:`.card_counter`) at every other: after
the learner's action the counters play, each from its own view, until the learner is to move
again or the game is over. The state is the environment's own (pgx's fields), so whatever
reads an ``Env``'s state reads this one; ``current_player`` is always the learner's seat
while the game runs. ``rewards`` sum what every step since the learner's last action gave
(only the last step of a game gives anything: the R12 rank utility).

The counters break ties at random with the key, as the ``hard`` bot does with its
generator. They value actions in JAX's current precision: in single precision (JAX's
default) a near-tie can go the other way than the bot's double precision would choose
(benchmarks/jax_card_counter.py counts how often); with ``jax.enable_x64(True)`` they choose
as the bot does (tests/jax_env/test_card_counter.py).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from kingsbreakfast.tensor.illegal import SUBSTITUTE

from .card_counter import card_counter_action
from .env import Env
from .state import State

Array = jax.Array


class VersusCounter:
    """``env`` with the learner at ``seat`` and card counters at the other seats."""

    def __init__(self, env: Env, seat: int = 0) -> None:
        if seat not in range(env.num_players):
            raise ValueError(f"the learner's seat must be 0 to {env.num_players - 1}, not {seat}")
        self.env = env
        self.seat = seat
        self.num_actions = env.num_actions
        self.observation_shape = env.observation_shape

    def init(self, key: Array) -> State:
        """A new game, the counters' turns before the learner's first already played."""
        deal, play = jax.random.split(key)
        return self._counters_play(self.env.init(deal), play)

    def step(self, state: State, action: Array, key: Array) -> State:
        """The learner's ``action``, then the counters' turns until the learner moves again
        or the game ends (R5: one turn each, R7a: a drawn dragon is the drawer's to use)."""
        mine, theirs = jax.random.split(key)
        return self._counters_play(self.env.step(state, action, mine), theirs)

    def step_and_deal(self, state: State, action: Array, key: Array) -> State:
        """``step``, and a game it ends dealt anew at once (auto-reset), its ``rewards`` and
        ``terminated`` those of the game that ended. The default illegal-action rule only
        (``substitute``): a game then ends only by R10, which the state itself shows."""
        if self.env.illegal_action != SUBSTITUTE:
            raise ValueError("step_and_deal needs the substitute rule for illegal actions")
        # a state dealt here carries its predecessor's end flag; the game itself runs
        state = state.replace(terminated=state.terminated & (state._game.to_move < 0))
        played = self.step(state, action, key)
        fresh = self.init(jax.random.fold_in(key, 1))
        fresh = fresh.replace(rewards=played.rewards, terminated=played.terminated)
        out: State = jax.tree.map(
            lambda new, old: jnp.where(played.terminated, new, old), fresh, played
        )
        return out

    def _counters_play(self, state: State, key: Array) -> State:
        return counters_play(self.env, state, self.seat, key)


def counters_play(env: Env, state: State, seat: Array | int, key: Array) -> State:
    """The counters' turns from ``state`` until ``seat`` is to move or the game is over,
    ``rewards`` summed over them. ``seat`` may be traced (a search whose root seat varies
    along a batch models the other seats as counters with it)."""

    def waiting(carry: tuple[State, Array, Array]) -> Array:
        state, _, _ = carry
        return ~state.terminated & (state.current_player != seat)

    def one_turn(carry: tuple[State, Array, Array]) -> tuple[State, Array, Array]:
        state, rewards, key = carry
        key, pick, deal = jax.random.split(key, 3)
        action = card_counter_action(state, pick)
        state = env.step(state, action, deal)
        return state, rewards + state.rewards, key

    state, rewards, _ = jax.lax.while_loop(waiting, one_turn, (state, state.rewards, key))
    out: State = state.replace(rewards=rewards)
    return out
