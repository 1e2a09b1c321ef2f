"""Determinization inside JAX: a world dealt at random from what one seat knows.

The same idea as the engine's ``WorldSampler`` (``kingsbreakfast.engine.determinize``): the
cards a seat cannot see are the deck and the other seats' drawn dish cards (R7: a drawn
dish is hidden, a drawn dragon shown), and they are exchangeable from its point of view. So
a world keeps every public fact and the seat's own draws, and deals the other seats' hidden
draws anew: each seat gets as many dish cards as it drew, taken without replacement from
the unseen dish cards; what is left is the deck. The JAX state holds the deck as counts (its
order is dealt by the key of each step), so the rest of the deck needs no shuffle here. A
finished game hides nothing (R11: every hand is shown), so its only world is itself.

A search that must not peek (ISMCTS, or mctx over sampled worlds) steps each world with the
environment as usual; no world depends on the hidden cards of the state it came from
(tests/jax_env/test_sample_world.py: every world agrees with the view, and the worlds are
distributed as the engine's sampler deals them, by a χ² test).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from kingsbreakfast.engine import NUM_DISHES

from . import rules as _rules
from .env import Env
from .state import State

Array = jax.Array

_MOST_HIDDEN = 15 * NUM_DISHES
"""No more dish cards exist (R1), so no more can be hidden in other seats' draws."""


def sample_world(env: Env, state: State, seat: Array | int, key: Array) -> State:
    """A state that ``seat`` cannot tell from ``state``: its view tensor is the same, the
    other seats' drawn dish cards are dealt anew from the unseen ones (uniformly among the
    ways to deal them), the deck's counts are what is left. Works under ``jit`` and
    ``vmap``; the result's mask and observation are the environment's own."""
    game = state._game
    seat = jnp.asarray(seat, jnp.int32)
    # R11: once the game is over every hand is shown, so nothing is left to deal anew (the
    # engine's view shows each seat's draws then, and its sampler keeps them)
    others = (jnp.arange(env.num_players) != seat) & (game.to_move >= 0)
    hidden = jnp.where(others, game.draws.sum(axis=1), 0)
    # the unseen dish cards: the deck's and the other seats' draws (no dragon is hidden)
    pool = game.deck[:NUM_DISHES] + jnp.where(others[:, None], game.draws, 0).sum(axis=0)
    drawn = _rules.cards_from(
        jnp.concatenate([pool, jnp.zeros(1, jnp.int32)]),
        jax.random.uniform(key, (_MOST_HIDDEN,)),
    )
    # card i goes to the seat whose share of the hidden count, seat by seat, holds i
    ends = jnp.cumsum(hidden)
    owner = jnp.searchsorted(ends, jnp.arange(_MOST_HIDDEN), side="right")
    dealt = (
        (owner[:, None] == jnp.arange(env.num_players))[:, :, None]
        & (drawn[:, None, None] == jnp.arange(NUM_DISHES))
    ).sum(axis=0, dtype=jnp.int32)
    draws = jnp.where(others[:, None], dealt, game.draws)
    deck = game.deck.at[:NUM_DISHES].set(pool - jnp.where(others[:, None], dealt, 0).sum(0))
    world = state.replace(_game=game.replace(draws=draws, deck=deck))
    return world.replace(observation=env.observe(world))
