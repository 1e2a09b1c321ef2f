"""The card counter (bots/heuristic.py with bots/knowledge.py), compiled for built-in seats.

The heuristic bot values every legal action by the expected final points of its own hand
minus most of the leading opponent's, with the king's final plate estimated from the unseen
cards, the rounds left and what this round will probably leave on the table (R9, R11). This
module repeats that arithmetic step for step on the kernel's integer arrays, from what the
mover's view shows only: the table, the king, the public takes, the mover's own draws and the
number (not the dishes) of everyone else's draws.
``tests/sim/test_batch_card_counter_is_the_bot.py`` checks every choice against the bot's.

It values the legal actions the rules kernel lists (``compiled/rules.py``, the one
legality of compiled code) and keeps nothing between calls but a cache of the king's tail
values in the caller's scratch array (see :func:`new_scratch`), so it allocates nothing and
runs without numba's reference counting. Choosing among the best actions (ties at random)
and the medium level's slips are the business of :mod:`.policies`; this module only
writes the values.
"""

from __future__ import annotations

from math import exp
from typing import Any

import numpy as np

from kingsbreakfast.engine import (
    DRAGON,
    DRAW_ID,
    FIRST_FEED_ID,
    MAX_PLAYERS,
    NUM_DISHES,
    PASS_ID,
)

from .games import CARDS_PER_DISH, NUM_DRAGONS, small, uncounted
from .rules import FEED_A, FEED_B

LEADER_WEIGHT = 0.7
"""bots/heuristic.py's LEADER_WEIGHT (the test module holds them equal)."""
REACH_KING = 0.45
"""bots/knowledge.py's REACH_KING."""
DRAW_SHARE = 0.35
"""bots/knowledge.py's DRAW_SHARE."""
TIE_TOLERANCE = 1e-9
"""Values this close to the best count as the best, as the bot counts them."""
MAX_EXTRA = 40
"""bots/knowledge.py's MAX_EXTRA: the Poisson tail is summed this far."""

# Layout of the scratch array.
_ROW = CARDS_PER_DISH + 1
"""A tail row: one value for each count 0..15 of a dish."""
VALUES = 0
"""Room for the value of each legal action (at most 40)."""
_ODDS = VALUES + 40
_FUTURE = _ODDS + NUM_DISHES
_HIDDEN_ODDS = _FUTURE + NUM_DISHES
_HANDS = _HIDDEN_ODDS + NUM_DISHES
"""Five hands of seven dishes: the mover's cards, the others' expected ones."""
_SEAT_VALUE = _HANDS + MAX_PLAYERS * NUM_DISHES
_TERMS = _SEAT_VALUE + MAX_PLAYERS
_TAIL = _TERMS + MAX_EXTRA + 1
"""One tail row computed outside the cache."""
_TERM = _TAIL + _ROW
"""Each seat's points from each dish with the table as it is and the king as he is, less
one, less two (3 x 5 x 7 floats), and the mover's with one card more of the dish (7)."""
_PLUS = _TERM + 3 * MAX_PLAYERS * NUM_DISHES
_CACHE = _PLUS + NUM_DISHES
_BASES = CARDS_PER_DISH + 1
_MEANS = 400
"""The cache holds tail rows for the king's base count 0-15 and means up to 20 (in the
twentieths :func:`_tail_row` rounds to); rarer rows are computed each time."""
SCRATCH_SIZE = _CACHE + _BASES * _MEANS * _ROW


def new_scratch() -> np.ndarray[Any, np.dtype[np.float64]]:
    """Scratch room for the card counter, the tail cache marked empty."""
    scratch = np.zeros(SCRATCH_SIZE, np.float64)
    scratch[_CACHE:] = -1.0
    return scratch


@uncounted
def _tail_row(base: int, mean: float, scratch: Any) -> int:
    """Where in ``scratch`` the 16 values ``E[K * 1{K >= h}]`` (h = 0..15) start, for
    K = base + Poisson(mean) the king's final count of a dish: knowledge.tail_values, with
    the mean rounded to a twentieth as knowledge.quantize does (half to even, like round)."""
    steps = np.rint(max(0.0, mean) * 20.0)
    m = steps / 20.0
    i = int(steps)
    cached = base < _BASES and i < _MEANS
    if cached:
        row = _CACHE + (base * _MEANS + i) * _ROW
        if scratch[row] >= 0.0:
            return row
    else:
        row = _TAIL
    terms = _TERMS
    p = exp(-m)
    for k in range(MAX_EXTRA):
        scratch[terms + k] = (base + k) * p
        p *= m / (k + 1)
    # suffix sums from the far end, in the bot's order, written over the terms
    suffix = 0.0
    for k in range(MAX_EXTRA - 1, -1, -1):
        suffix = suffix + scratch[terms + k]
        scratch[terms + k] = suffix
    scratch[terms + MAX_EXTRA] = 0.0
    for held in range(_ROW):
        scratch[row + held] = scratch[terms + min(MAX_EXTRA, max(0, held - base))]
    return row


@uncounted
def _utility(
    scratch: Any,
    n: int,
    seat: int,
    my_dish: int,
    my_add: float,
    feed_a: int,
    feed_b: int,
    taken: int,
    table: Any,
    king: Any,
    others_after: int,
) -> float:
    """heuristic.evaluate's ``utility``: my expected points minus the leader weight times
    the best opponent's, after my hand gains ``my_add`` of ``my_dish`` (R6, R7), the king
    loses a feed pair (R8, -1 for none) and dish ``taken`` leaves the table (R6, -1)."""
    on_table = 0
    for d in range(NUM_DISHES):
        if table[d] > 0 and d != taken:
            on_table += 1
    # knowledge.leftover_chance: a dish left on the table survives unless a later player
    # takes it (R9 serves what is left)
    if on_table <= 0:
        chance = 1.0
    else:
        takers = others_after * (1.0 - DRAW_SHARE)
        chance = max(0.05, 1.0 - takers / on_table)
    for s in range(n):
        scratch[_SEAT_VALUE + s] = 0.0
    for d in range(NUM_DISHES):
        after = 0 if d == taken else table[d]
        mean = chance * after + scratch[_FUTURE + d]
        b = king[d]
        if d == feed_a:
            b -= 1
        if d == feed_b:
            b -= 1
        b = max(0, b)
        row = -1
        for s in range(n):
            held = scratch[_HANDS + s * NUM_DISHES + d]
            if s == seat and d == my_dish:
                held += my_add
            if held <= 0:
                continue
            if row < 0:
                row = _tail_row(b, mean, scratch)
            threshold = min(CARDS_PER_DISH, int(held + 0.5))
            scratch[_SEAT_VALUE + s] += held * scratch[row + threshold]
    return _leader_utility(scratch, n, seat)


@small
def _leader_utility(scratch: Any, n: int, seat: int) -> float:
    """Mine minus the leader weight times the best opponent's, from the seats' values."""
    leader = -1.0
    first = True
    for s in range(n):
        if s != seat and (first or scratch[_SEAT_VALUE + s] > leader):
            leader = scratch[_SEAT_VALUE + s]
            first = False
    mine: float = scratch[_SEAT_VALUE + seat]
    return mine - LEADER_WEIGHT * leader


@uncounted
def _fill_terms(scratch: Any, n: int, seat: int, table: Any, king: Any, others_after: int) -> None:
    """The per-dish points of every seat with the table unchanged (draws, feeds, placing,
    passing leave it so), for the king as he is and less one or two cards of the dish (R8).
    Summed per seat in dish order they give the bot's own sums, float for float."""
    on_table = 0
    for d in range(NUM_DISHES):
        if table[d] > 0:
            on_table += 1
    if on_table <= 0:
        chance = 1.0
    else:
        takers = others_after * (1.0 - DRAW_SHARE)
        chance = max(0.05, 1.0 - takers / on_table)
    for d in range(NUM_DISHES):
        mean = chance * table[d] + scratch[_FUTURE + d]
        for less in range(3):
            b = max(0, king[d] - less)
            row = -1
            for s in range(n):
                held = scratch[_HANDS + s * NUM_DISHES + d]
                term = 0.0
                if held > 0:
                    if row < 0:
                        row = _tail_row(b, mean, scratch)
                    term = held * scratch[row + min(CARDS_PER_DISH, int(held + 0.5))]
                scratch[_TERM + (less * MAX_PLAYERS + s) * NUM_DISHES + d] = term
        held = scratch[_HANDS + seat * NUM_DISHES + d] + 1.0
        row = _tail_row(max(0, king[d]), mean, scratch)
        scratch[_PLUS + d] = held * scratch[row + min(CARDS_PER_DISH, int(held + 0.5))]


@uncounted
def _unchanged_table_utility(
    scratch: Any, n: int, seat: int, my_dish: int, feed_a: int, feed_b: int
) -> float:
    """``_utility`` for an action that leaves the table as it is, from the filled terms."""
    for s in range(n):
        total = 0.0
        for d in range(NUM_DISHES):
            if s == seat and d == my_dish:
                total += scratch[_PLUS + d]
            else:
                less = (1 if d == feed_a else 0) + (1 if d == feed_b else 0)
                total += scratch[_TERM + (less * MAX_PLAYERS + s) * NUM_DISHES + d]
        scratch[_SEAT_VALUE + s] = total
    return _leader_utility(scratch, n, seat)


@uncounted
def card_counter_values(
    legal: Any,
    count: int,
    table: Any,
    king: Any,
    takes: Any,
    draws: Any,
    removed: Any,
    removed_dragons: int,
    pending: bool,
    seat: int,
    n: int,
    turns_left: int,
    deck_left: int,
    scratch: Any,
) -> None:
    """Write heuristic.evaluate's value of each legal action into ``scratch[VALUES:]``.

    ``turns_left`` counts this round's turns still to come, the mover's included (R5);
    ``deck_left`` is the deck's size. Only the mover's own draws are read by dish.
    """
    # knowledge.count: the unseen cards are the deck and the others' draws (R7b)
    total = 0
    for d in range(NUM_DISHES):
        u = CARDS_PER_DISH - table[d] - king[d] - removed[d] - draws[seat, d]
        for other in range(n):
            u -= takes[other, d]
        scratch[_ODDS + d] = u
        total += u
    dragons = NUM_DRAGONS - table[DRAGON] - removed_dragons - (1 if pending else 0)
    total += dragons
    dragon_odds = 0.0
    if total:
        for d in range(NUM_DISHES):
            scratch[_ODDS + d] = scratch[_ODDS + d] / total
        dragon_odds = dragons / total
    else:
        for d in range(NUM_DISHES):
            scratch[_ODDS + d] = 0.0
    # the rounds still to be dealt (R4, R10) and the king's share of their cards
    future = max(0.0, deck_left - DRAW_SHARE * max(0, turns_left)) / (2 * n + DRAW_SHARE * n)
    future = min(future, float(max(0, deck_left) // (2 * n)))
    cards = future * 2 * n * REACH_KING
    odds_total = 0.0
    for d in range(NUM_DISHES):
        scratch[_FUTURE + d] = cards * scratch[_ODDS + d]
        odds_total += scratch[_ODDS + d]
    for d in range(NUM_DISHES):
        scratch[_HIDDEN_ODDS + d] = scratch[_ODDS + d] / odds_total if odds_total else 0.0
    # the hands: the mover's as they are, the others' hidden draws spread over the unseen
    for s in range(n):
        hidden = 0
        for d in range(NUM_DISHES):
            hidden += draws[s, d]
        for d in range(NUM_DISHES):
            if s == seat:
                held = float(takes[s, d] + draws[s, d])
            else:
                held = takes[s, d] + hidden * scratch[_HIDDEN_ODDS + d]
            scratch[_HANDS + s * NUM_DISHES + d] = held
    later = max(0, turns_left - 1)
    _fill_terms(scratch, n, seat, table, king, later)
    for i in range(count):
        action = legal[i]
        if action < NUM_DISHES:  # R6: all of one dish
            value = _utility(
                scratch, n, seat, action, float(table[action]), -1, -1, action, table, king,
                later,
            )
        elif action == DRAW_ID:  # R7: a card distributed like the unseen pool
            value = 0.0
            for d in range(NUM_DISHES):
                p = scratch[_ODDS + d]
                if p:
                    value += p * _unchanged_table_utility(scratch, n, seat, d, -1, -1)
            # a drawn dragon (R7a) leaves the hand as it is
            value += dragon_odds * _unchanged_table_utility(scratch, n, seat, -1, -1, -1)
        elif action >= FIRST_FEED_ID and action < PASS_ID:  # R8: two of the king's dishes
            f = action - FIRST_FEED_ID
            value = _unchanged_table_utility(scratch, n, seat, -1, FEED_A[f], FEED_B[f])
        else:  # place the dragon (R7a) or pass (R5b)
            value = _unchanged_table_utility(scratch, n, seat, -1, -1, -1)
        scratch[VALUES + i] = value
