"""A warm start for the AlphaZero-style search: imitate the card counter (``hard``) first.

Self-play from a random network learns too slowly to reach ``hard`` within a CPU budget
(docs/baselines.md: 3.75% against three of them after 2.5 CPU-minutes), so, as AlphaGo's
supervised start and expert iteration do, the network first learns from the expert: the card
counter (:mod:`.card_counter`) plays all seats of ``num_envs`` games against itself, and on
every decision the policy head learns the counter's choice (cross-entropy over the legal
actions, the choice as a one-hot target) and the value head the game's final rank utilities
(R12) of every seat, relative to the mover (:func:`~.alphazero.value_targets`). The updates
are self-play's own (:func:`~.alphazero.make_learn`); only the trajectory differs. Each chunk
(play, then learn) is one ``jax.jit`` call, so it runs unchanged on a GPU.

The counter reads only its own seat's view (R7b), so the positions are those a real game
shows; ties are broken at random with the key, as the bot does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp

from .alphazero import Config, Moment, Params, forward, make_learn, seat0_win
from .card_counter import card_counter_action
from .env import Env
from .state import State

Array = jax.Array


def counter_play(env: Env, config: Config) -> Callable[[State, Array], tuple[State, Moment]]:
    """``(states, key) -> (states, trajectory)``: ``num_steps`` decisions of the card
    counter at every seat of the batch (games dealt anew as they end); each decision's target
    is the counter's choice as a one-hot row."""

    def one(carry: tuple[State, Array], _: None) -> tuple[tuple[State, Array], Moment]:
        states, key = carry
        key, pick, turn = jax.random.split(key, 3)
        actions = jax.vmap(card_counter_action)(states, jax.random.split(pick, config.num_envs))
        after = jax.vmap(env.step_and_deal)(
            states, actions, jax.random.split(turn, config.num_envs)
        )
        moment = Moment(
            states.observation, states.legal_action_mask,
            jax.nn.one_hot(actions, env.num_actions), states.current_player,
            after.rewards, after.terminated, seat0_win(after),
        )  # fmt: skip
        return (after, key), moment

    def play(states: State, key: Array) -> tuple[State, Moment]:
        (states, _), trajectory = jax.lax.scan(one, (states, key), None, length=config.num_steps)
        return states, trajectory

    return play


def agreement(params: Params, trajectory: Moment) -> Array:
    """The share of the trajectory's decisions where the network's likeliest action is the
    one its target chose (the card counter's, for :func:`counter_play`)."""
    logits, _ = forward(params, trajectory.obs, trajectory.mask)
    same = jnp.argmax(logits, axis=-1) == jnp.argmax(trajectory.target, axis=-1)
    return same.mean()


def make_imitate(config: Config, chunks: int) -> Callable[[Any], Any]:
    """A compiled ``(runner) -> (runner, metrics)`` doing ``chunks`` rounds of card-counter
    games and updates on them, on :func:`~.alphazero.start`'s runner (so self-play goes on
    from where it ends). ``metrics`` per chunk: games ended, the policy and value losses of
    the last update, and the network's agreement with the counter on the chunk's positions
    *before* it learns from them (held-out positions, as every chunk's games are new)."""
    env = Env(config.num_players)
    play = counter_play(env, config)
    learn = make_learn(config)

    def chunk(carry: Any, _: None) -> tuple[Any, Array]:
        params, opt_state, states, key = carry
        key, games = jax.random.split(key)
        states, trajectory = play(states, games)
        agreed = agreement(params, trajectory)
        params, opt_state, key, losses = learn(params, opt_state, key, trajectory)
        metrics = jnp.concatenate([
            trajectory.done.sum()[None].astype(jnp.float32), losses, agreed[None],
        ])  # fmt: skip
        return (params, opt_state, states, key), metrics

    def imitate(runner: Any) -> Any:
        return jax.lax.scan(chunk, runner, None, length=chunks)

    return jax.jit(imitate)
