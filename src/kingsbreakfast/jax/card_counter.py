"""The card counter (the ``hard`` level, bots/heuristic.py with bots/knowledge.py) as a pure
JAX policy: one seat's values of the 38 actions and its choice, under ``jit`` and ``vmap``.

A learner that trains inside JAX needs opponents that play there too; the card counter is the
project's yardstick (``hard``), so this is its arithmetic, step for step, on the
environment's arrays. It reads only what the mover's view shows (R7b): the table, the king,
the removed cards, every seat's public takes, the mover's own draws and the *number* of each
other seat's draws (:func:`seat_view` keeps nothing else; ``sample_world`` cannot change its
choice). The rules are not copied: the legal set is the environment's mask.

What the bot computes, and so what this computes:

- the unseen cards (R1 minus everything the view places) give the odds of a draw (R7), the
  rounds still to be dealt (R4, R10) and the king's expected share of them (R9);
- the other seats' hidden draws are spread over the unseen dishes by those odds;
- every action is valued by the mover's expected final points (R11: a dish held beyond the
  king's count scores nothing) minus ``LEADER_WEIGHT`` times the best other seat's, with the
  king's final count of a dish taken as his plate plus a Poisson number of cards;
- the best value wins; values within ``TIE_TOLERANCE`` of it tie, and a tie is broken at
  random (the bot asks its ``random.Random``; here a key picks uniformly among the tied, or,
  with no key, the lowest action id: the differential test compares the sets of tied actions,
  so the comparison never depends on how either side draws).

The bot's Poisson tail values are looked up in a table made by the bot's own function
(``knowledge.tail_values``), at the same rounding of the mean to twentieths. Exact agreement
needs double precision (``jax.enable_x64(True)``): in JAX's default single precision
the values round differently, and near-ties can break the other way
(benchmarks/jax_card_counter.py counts both).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from kingsbreakfast.bots.heuristic import LEADER_WEIGHT
from kingsbreakfast.bots.knowledge import DRAW_SHARE, REACH_KING, tail_values
from kingsbreakfast.engine import (
    DRAGON,
    DRAW_ID,
    FEED_PAIRS,
    FIRST_FEED_ID,
    NUM_ACTIONS,
    NUM_DISHES,
)

from .state import Game, State

Array = jax.Array

TIE_TOLERANCE = 1e-9
"""bots/heuristic.py's ``best_valued``: values this close to the best count as the best."""
CARDS_PER_DISH = 15
DRAGONS = 5
_MEANS = 401
"""Means of the king's extra cards in twentieths, 0 to 20. No larger mean can arise: the
future share of a dish is at most REACH_KING × its unseen cards (≤ 6.75), and what this round
may leave on the table at most 2 × 5 cards."""


@cache
def _tails() -> np.ndarray:
    """``knowledge.tail_values(base, i / 20)`` for every base 0–15 and i 0–400: (16, 401, 16)
    float64, the bot's own numbers."""
    return np.array(
        [[tail_values(base, i / 20.0) for i in range(_MEANS)]
         for base in range(CARDS_PER_DISH + 1)],
        np.float64,
    )  # fmt: skip


class SeatView(NamedTuple):
    """What one seat may know of a game (R7b), as arrays: all the card counter reads."""

    seat: Array
    table: Array
    """int (8,): dishes then dragons on the table."""
    king: Array
    removed_dishes: Array
    removed_dragons: Array
    takes: Array
    """int (players, 7): public takes (R6)."""
    mine: Array
    """int (7,): the seat's own drawn dishes."""
    hidden: Array
    """int (players,): how many dish cards each seat drew (never which)."""
    deck_size: Array
    turns_left: Array
    pending_dragon: Array


def seat_view(game: Game, seat: Array | int) -> SeatView:
    """The view of ``seat``: other seats' draws only as their number (R7)."""
    seat = jnp.asarray(seat, jnp.int32)
    n = game.draws.shape[0]
    own = (jnp.arange(n) == seat)[:, None]
    return SeatView(
        seat=seat,
        table=game.table,
        king=game.king,
        removed_dishes=game.removed_dishes,
        removed_dragons=game.removed_dragons,
        takes=game.takes,
        mine=jnp.where(own, game.draws, 0).sum(axis=0),
        hidden=game.draws.sum(axis=1),
        deck_size=game.deck.sum(),
        turns_left=game.turns_left,
        pending_dragon=game.pending_dragon,
    )


_barrier: Callable[[Array], Array] = jax.lax.optimization_barrier
"""An opaque identity: XLA cannot rewrite an expression across it."""


def _apart(product: Array) -> Array:
    """``product`` rounded on its own before it is added to anything: XLA's CPU code may
    otherwise fuse a multiply and an add into one instruction (FMA), rounding once where
    Python rounds twice, and a mean or a guessed count on a rounding boundary (a twentieth,
    a half card) then lands on the other side of it."""
    kept: Array = _barrier(product)
    return kept


def _divide(dividend: Array, divisor: Array) -> Array:
    """``dividend / divisor`` as Python divides: XLA rewrites a division by a constant or by
    one broadcast scalar into a product with its reciprocal, one unit in the last place off
    for some (0.675 becomes 0.6750000000000001, and its twentieths round the other way)."""
    divisor = jnp.broadcast_to(divisor, jnp.shape(dividend))
    quotient: Array = dividend / _barrier(divisor)
    return quotient


def _hand_value(held: Array, base: Array, mean: Array, tails: Array) -> Array:
    """knowledge.hand_value: expected final points of ``held`` (7 floats) when the king ends
    with base + Poisson(mean) of each dish (R11); summed dish by dish in the bot's order."""
    step = jnp.minimum(jnp.round(jnp.maximum(mean, 0.0) * 20.0), _MEANS - 1).astype(jnp.int32)
    threshold = jnp.minimum(CARDS_PER_DISH, jnp.floor(held + 0.5)).astype(jnp.int32)
    threshold = jnp.maximum(threshold, 0)
    b = jnp.clip(base, 0, CARDS_PER_DISH)
    points = jnp.where(held > 0, held * tails[b, step, threshold], 0.0)
    total = jnp.zeros((), points.dtype)
    for dish in range(NUM_DISHES):  # the bot's order of addition
        total = total + points[dish]
    return total


def counter_values(view: SeatView, legal: Array) -> Array:
    """heuristic.evaluate for the seat of ``view`` (the seat to move): the value of each of
    the 38 actions, −inf where ``legal`` is False."""
    dtype = jnp.result_type(float)
    tails = jnp.asarray(_tails(), dtype)
    n = view.takes.shape[0]
    seat = view.seat
    table = view.table[:NUM_DISHES]
    king = view.king
    # knowledge.count: unseen = R1 minus what the view places (deck and others' draws)
    unseen = (
        CARDS_PER_DISH - table - king - view.removed_dishes - view.mine - view.takes.sum(axis=0)
    )
    dragons = DRAGONS - view.table[DRAGON] - view.removed_dragons
    dragons = dragons - view.pending_dragon.astype(jnp.int32)
    total = unseen.sum() + dragons
    safe = jnp.maximum(total, 1).astype(dtype)
    odds = jnp.where(total > 0, _divide(unseen.astype(dtype), safe), 0.0)
    dragon_odds = jnp.where(total > 0, _divide(dragons.astype(dtype), safe), 0.0)
    # the rounds still to be dealt (R4, R10) and the king's share of their cards (R9)
    deck = view.deck_size.astype(dtype)
    after_round = deck - _apart(DRAW_SHARE * jnp.maximum(0, view.turns_left).astype(dtype))
    per_round = jnp.asarray(2 * n + DRAW_SHARE * n, dtype)
    future = _divide(jnp.maximum(0.0, after_round), per_round)
    future = jnp.minimum(future, (jnp.maximum(0, view.deck_size) // (2 * n)).astype(dtype))
    cards = future * 2 * n * REACH_KING
    future_gain = cards * odds
    odds_total = jnp.zeros((), dtype)
    for dish in range(NUM_DISHES):
        odds_total = odds_total + odds[dish]
    some = odds_total > 0
    hidden_odds = jnp.where(some, _divide(odds, jnp.where(some, odds_total, 1.0)), 0.0)
    # the hands: the mover's as they are, the others' hidden draws spread over the unseen
    is_me = (jnp.arange(n) == seat)[:, None]
    guessed = view.takes + _apart(view.hidden[:, None] * hidden_odds[None, :])
    hands = jnp.where(is_me, (view.takes + view.mine[None, :]).astype(dtype), guessed)
    me = (jnp.where(is_me, hands, 0.0)).sum(axis=0)
    later = jnp.maximum(0, view.turns_left - 1).astype(dtype)

    def utility(my_hand: Array, base: Array, table_after: Array) -> Array:
        """heuristic.evaluate's ``utility``: mine minus the leader weight times the best
        other seat's expected points."""
        on_table = (table_after > 0).sum()
        takers = later * (1.0 - DRAW_SHARE)
        chance = jnp.where(
            on_table <= 0,
            1.0,
            jnp.maximum(0.05, 1.0 - _divide(takers, jnp.maximum(on_table, 1).astype(dtype))),
        )
        mean = _apart(chance * table_after.astype(dtype)) + future_gain
        every = jnp.where(is_me, my_hand[None, :], hands)
        values = jax.vmap(lambda held: _hand_value(held, base, mean, tails))(every)
        leader = jnp.where(jnp.arange(n) == seat, -jnp.inf, values).max()
        mine = jnp.where(jnp.arange(n) == seat, values, 0.0).sum()
        return mine - LEADER_WEIGHT * leader

    dishes = jnp.arange(NUM_DISHES)
    plus = (dishes[:, None] == dishes[None, :]).astype(dtype)  # one more card of a dish
    # R6: all of one dish
    take_hands = me[None, :] + plus * table.astype(dtype)[:, None]
    take_tables = jnp.where(plus > 0, 0, table[None, :])
    takes = jax.vmap(lambda h, t: utility(h, king, t))(take_hands, take_tables)
    # R7: a card distributed like the unseen pool; a dragon (R7a) leaves the hand as it is
    drawn = jax.vmap(lambda h: utility(h, king, table))(me[None, :] + plus)
    unchanged = utility(me, king, table)
    draw = jnp.zeros((), dtype)
    for dish in range(NUM_DISHES):
        draw = draw + jnp.where(odds[dish] != 0, odds[dish] * drawn[dish], 0.0)
    draw = draw + dragon_odds * unchanged
    # R8: two of the king's dishes leave the game
    fed = np.array([[(a == d) + (b == d) for d in range(NUM_DISHES)] for a, b in FEED_PAIRS])
    feeds = jax.vmap(lambda less: utility(me, king - less, table))(jnp.asarray(fed, jnp.int32))
    # place the dragon (R7a) or pass (R5b) change nothing the counter sees
    values = jnp.concatenate(
        [takes, draw[None], unchanged[None], feeds, unchanged[None]]
    )
    assert values.shape == (NUM_ACTIONS,)
    assert FIRST_FEED_ID == DRAW_ID + 2
    return jnp.where(legal, values, -jnp.inf)


def best_actions(values: Array) -> Array:
    """bool (38,): the actions valued best, within the bot's tolerance (``best_valued``)."""
    return values >= values.max() - TIE_TOLERANCE


def choose(values: Array, key: Array | None = None) -> Array:
    """One of the best-valued actions: uniformly among the tied with ``key`` (the bot asks
    its ``random.Random`` the same way), the lowest id without one."""
    best = best_actions(values)
    if key is None:
        return jnp.argmax(best).astype(jnp.int32)
    return jax.random.categorical(key, jnp.where(best, 0.0, -jnp.inf)).astype(jnp.int32)


def card_counter_action(state: State, key: Array | None = None) -> Array:
    """The action ``hard`` chooses for the seat to move in ``state``, from that seat's view
    (:func:`choose` breaks a tie)."""
    seat = jnp.maximum(state.current_player, 0)
    values = counter_values(seat_view(state._game, seat), state.legal_action_mask)
    return choose(values, key)
