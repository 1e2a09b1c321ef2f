"""One seat against JAX card counters (``kingsbreakfast.jax.versus``): the learner is the
only seat ever asked to move, every other seat plays the counter's choice from its own view,
and a game's R12 rewards reach the learner whichever seat's action ended it."""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy")
jax = pytest.importorskip("jax")
jnp = jax.numpy

from kingsbreakfast.jax import Env  # noqa: E402
from kingsbreakfast.jax.card_counter import best_actions, counter_values, seat_view  # noqa: E402
from kingsbreakfast.jax.versus import VersusCounter  # noqa: E402

GAMES = 8
_VERSUS = VersusCounter(Env(3), 1)
"""One table size and seat for every test here: each compilation of the counters' loop takes
the better part of a minute on a small CPU."""


def random_legal(key: Any, mask: Any) -> Any:
    return jax.random.categorical(key, jnp.where(mask, 0.0, -jnp.inf))


def test_the_learner_is_the_only_seat_asked_and_games_end_with_its_rewards() -> None:
    versus, seat = _VERSUS, _VERSUS.seat
    init = jax.jit(jax.vmap(versus.init))
    step = jax.jit(jax.vmap(versus.step))
    key = jax.random.PRNGKey(3)
    state = init(jax.random.split(key, GAMES))
    total = np.zeros((GAMES, 3), np.float32)
    learner_moves = 0
    while not bool(np.asarray(state.terminated).all()):
        running = ~np.asarray(state.terminated)
        assert (np.asarray(state.current_player)[running] == seat).all()
        key, pick, turn = jax.random.split(key, 3)
        actions = jax.vmap(random_legal)(jax.random.split(pick, GAMES), state.legal_action_mask)
        state = step(state, actions, jax.random.split(turn, GAMES))
        total += np.asarray(state.rewards)
        learner_moves += int(running.sum())
    assert learner_moves > GAMES * 10  # one turn a round, about 17 rounds (R3, R10)
    assert (np.asarray(state._game.to_move) == -1).all()  # every game ended by R10
    assert np.allclose(total.sum(axis=1), 0.0, atol=1e-5)  # the rank utility sums to 0
    assert (np.abs(total).max(axis=1) > 0).all()


def test_each_counter_plays_the_action_it_values_best() -> None:
    """Replaying the counters' turns one step at a time: each action the wrapper's seats
    took is among the counter's best from that seat's view (a tie broken by the key)."""
    versus = _VERSUS
    env = versus.env
    step_one = jax.jit(env.step)
    best = jax.jit(lambda s: best_actions(
        counter_values(seat_view(s._game, s.current_player), s.legal_action_mask)))  # fmt: skip
    key = jax.random.PRNGKey(11)
    deal, play = jax.random.split(key)
    start = env.init(deal)
    # the wrapper's own loop, its keys reproduced: one split for each turn of a counter
    state, turns = start, 0
    loop_key = play
    while not bool(state.terminated) and int(state.current_player) != versus.seat:
        loop_key, pick, turn = jax.random.split(loop_key, 3)
        mask = np.asarray(best(state))
        action = int(jax.random.categorical(pick, jnp.where(mask, 0.0, -jnp.inf)))
        assert mask[action]
        state = step_one(state, action, turn)
        turns += 1
    wrapped = jax.jit(versus.init)(key)
    assert int(wrapped.current_player) == versus.seat
    assert turns > 0
    assert int(wrapped._step_count) == turns
    assert np.array_equal(np.asarray(wrapped._game.takes), np.asarray(state._game.takes))


def test_step_and_deal_starts_a_new_game_where_one_ends() -> None:
    versus = _VERSUS
    step = jax.jit(versus.step_and_deal)
    key = jax.random.PRNGKey(7)
    state = jax.jit(versus.init)(key)
    ended = 0
    for _ in range(60):
        assert int(state.current_player) == 1
        key, pick, turn = jax.random.split(key, 3)
        state = step(state, random_legal(pick, state.legal_action_mask), turn)
        if bool(state.terminated):
            ended += 1
            assert float(np.abs(np.asarray(state.rewards)).sum()) > 0
            assert int(state._game.to_move) >= 0  # the new game runs
    assert ended >= 2


def test_a_seat_outside_the_table_is_refused() -> None:
    with pytest.raises(ValueError, match="seat"):
        VersusCounter(Env(3), 3)
