"""Self-play for the master bot, compiled: whole games in which some seats play from the
network and the others are the card counter (the ``hard`` level), with every choice a
network seat made recorded for training.

The rules are the batch kernel's own compiled pieces (dealing, the legal actions, applying
an action, serving the king, scoring: :mod:`._batch_kernel`), so this module adds no second
reading of R4-R12; ``tests/sim/test_master_kernel_differential.py`` still replays its games
in the engine, action for action, and checks the network seats chose what the bot would.
The rows the network reads are :func:`kingsbreakfast.bots.features.encode`, compiled here
from the very function the bot runs.

Default rules only (``empty_table=draw_or_feed``, ``dragon_min_on_table=1``): the model is
trained on the game everyone plays.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from kingsbreakfast.bots import features

from ._batch_kernel import (
    DECK_SIZE,
    _apply,
    _below,
    _card_counter_bot,
    _end_round,
    _list_legal,
    _next,
    _points_discards,
    _ranks_above,
    _splitmix,
    _table_mask,
    _turn_up,
    base_deck,
)
from ._card_counter import SCRATCH_SIZE, VALUES, card_counter_values

NUM_DISHES = 7
DRAGON = 7
NUM_FEATURES = features.NUM_FEATURES
SEAT_COUNTER = 0
"""A seat played by the card counter (``hard``), ties at random."""
SEAT_NET = 1
"""A seat played by the network: the best row by its win head, or with chance ``epsilon``
any legal action (exploration while training)."""
MAX_ROWS_PER_GAME = 64

_encode = njit(cache=True)(features.encode)
_FEED_A = features.FEED_A
_FEED_B = features.FEED_B


@njit(cache=True)
def _forward(x: Any, count: int, w1: Any, b1: Any, w2: Any, b2: Any, w3: Any, b3: Any,
             hidden1: Any, hidden2: Any, out: Any) -> None:
    """The network on ``count`` rows: two ReLU layers, then two outputs (win share, points).
    Written as loops: the matrices are small and numba's dot would need a BLAS."""
    n_in = w1.shape[0]
    h1 = w1.shape[1]
    h2 = w2.shape[1]
    for i in range(count):
        for j in range(h1):
            acc = b1[j]
            for k in range(n_in):
                acc += x[i, k] * w1[k, j]
            hidden1[j] = acc if acc > 0.0 else 0.0
        for j in range(h2):
            acc = b2[j]
            for k in range(h1):
                acc += hidden1[k] * w2[k, j]
            hidden2[j] = acc if acc > 0.0 else 0.0
        for o in range(2):
            acc = b3[o]
            for k in range(h2):
                acc += hidden2[k] * w3[k, o]
            out[i, o] = acc


@njit(cache=True)
def play_master_games(
    num_games: int,
    n: int,
    seed: Any,
    seat_kind: Any,
    epsilon: float,
    first_cook_by_game: Any,
    w1: Any, b1: Any, w2: Any, b2: Any, w3: Any, b3: Any,
    out_rows: Any,
    out_row_game: Any,
    out_row_seat: Any,
    out_points: Any,
    out_share: Any,
    out_actions: Any,
    out_decks: Any,
) -> int:
    """Play ``num_games`` games; ``seat_kind[g, s]`` says who plays seat ``s`` of game ``g``.

    Every choice a network seat made among two or more actions writes its chosen row to
    ``out_rows`` (with its game and seat); returns how many rows were written. Final points
    and each seat's share of the win (R12: 1/k among k winners) go to ``out_points`` and
    ``out_share``; every action and the dealt deck to ``out_actions`` / ``out_decks`` (for
    the differential test; ``out_actions`` rows end with -1).
    """
    deck = np.empty(DECK_SIZE, np.int8)
    table = np.zeros(NUM_DISHES + 1, np.int32)
    king = np.zeros(NUM_DISHES, np.int32)
    takes = np.zeros((n, NUM_DISHES), np.int32)
    draws = np.zeros((n, NUM_DISHES), np.int32)
    hidden = np.zeros(n, np.int32)
    removed = np.zeros(NUM_DISHES, np.int32)
    legal = np.zeros(40, np.int32)
    scratch = np.full(SCRATCH_SIZE, -1.0)  # the card counter's scratch, its cache empty
    rows = np.zeros((40, NUM_FEATURES))
    block = np.zeros((NUM_DISHES, features.DISH_WIDTH))
    counter = np.zeros(40)
    values = np.zeros((40, 2))
    hidden1 = np.zeros(w1.shape[1])
    hidden2 = np.zeros(w2.shape[1])
    unshuffled = base_deck()
    written = 0
    seed_word = np.uint64(seed)
    for g in range(num_games):
        s = _splitmix(seed_word ^ _splitmix(np.uint64(g)))
        for c in range(DECK_SIZE):
            deck[c] = unshuffled[c]
        table[:] = 0
        king[:] = 0
        takes[:, :] = 0
        draws[:, :] = 0
        hidden[:] = 0
        removed[:] = 0
        removed_dragons = 0
        pending = False
        cook = first_cook_by_game[g]
        n_actions = 0
        need = 2 * n
        top, s = _turn_up(deck, table, 0, need, s, False)
        on_table = _table_mask(table)
        turns_left = n
        to_move = cook
        while to_move >= 0:
            deck_left = DECK_SIZE - top
            can_draw = deck_left > 0 and not pending
            feeds_ok = pending or table[DRAGON] >= 1  # R7a, R8 (the king's pairs: listed)
            count = _list_legal(legal, table, king, pending, can_draw, feeds_ok)
            if seat_kind[g, to_move] == SEAT_COUNTER:
                action, s = _card_counter_bot(
                    legal, count, table, king, takes, draws, removed, removed_dragons,
                    pending, to_move, n, turns_left, deck_left, scratch, 0.0, s,
                )
            elif count == 1:
                action = legal[0]
            else:
                card_counter_values(
                    legal, count, table, king, takes, draws, removed, removed_dragons,
                    pending, to_move, n, turns_left, deck_left, scratch,
                )
                for i in range(count):
                    counter[i] = scratch[VALUES + i]
                _encode(
                    rows, block, legal, count, table, king, takes, draws[to_move], hidden,
                    removed, removed_dragons, pending, to_move, n, turns_left, deck_left,
                    counter, _FEED_A, _FEED_B,
                )
                s = _next(s)
                if epsilon > 0.0 and _below(s, 1 << 30) < epsilon * (1 << 30):
                    s = _next(s)
                    pick = np.int64(_below(s, count))
                else:
                    _forward(rows, count, w1, b1, w2, b2, w3, b3, hidden1, hidden2, values)
                    pick = np.int64(_best(values, count))
                action = legal[pick]
                if written < out_rows.shape[0]:
                    for k in range(NUM_FEATURES):
                        out_rows[written, k] = rows[pick, k]
                    out_row_game[written] = g
                    out_row_seat[written] = to_move
                    written += 1
            if n_actions < out_actions.shape[1]:
                out_actions[g, n_actions] = action
            n_actions += 1
            seat = to_move
            drawn_before = 0
            for d in range(NUM_DISHES):
                drawn_before += draws[seat, d]
            top, s, on_table, pending, fed, turn_over = _apply(
                action, seat, deck, table, king, takes, draws, removed, top, s, False,
                on_table, pending,
            )
            drawn_after = 0
            for d in range(NUM_DISHES):
                drawn_after += draws[seat, d]
            hidden[seat] += drawn_after - drawn_before
            if fed:
                removed_dragons += 1
            if not turn_over:  # R7a: the same player uses or places the drawn dragon
                continue
            turns_left -= 1
            if turns_left > 0:
                to_move = seat + 1
                if to_move == n:
                    to_move = 0
                continue
            cook = (cook + 1) % n  # R3
            top, s, on_table, unseen = _end_round(deck, table, king, top, need, s, False)
            if unseen >= 0:  # R10
                break
            turns_left = n
            to_move = cook
        for t in range(n_actions, out_actions.shape[1]):
            out_actions[g, t] = -1
        for c in range(DECK_SIZE):
            out_decks[g, c] = deck[c]
        # R11 and R12
        best_points = -1
        best_discarded = 1 << 30
        discarded_of = np.zeros(n, np.int64)
        for seat in range(n):
            points = 0
            discarded = 0
            for d in range(NUM_DISHES):
                p, x = _points_discards(takes[seat, d] + draws[seat, d], king[d])
                points += p
                discarded += x
            out_points[g, seat] = points
            discarded_of[seat] = discarded
            if _ranks_above(points, discarded, best_points, best_discarded):
                best_points = points
                best_discarded = discarded
        winners = 0
        for seat in range(n):
            if out_points[g, seat] == best_points and discarded_of[seat] == best_discarded:
                winners += 1
        for seat in range(n):
            won = out_points[g, seat] == best_points and discarded_of[seat] == best_discarded
            out_share[g, seat] = 1.0 / winners if won else 0.0
    return written


@njit(cache=True)
def _best(values: Any, count: int) -> int:
    """The row with the highest win estimate; the points estimate breaks ties, then the
    lowest index (the bot does the same, so its choices are the kernel's)."""
    best = 0
    for i in range(1, count):
        if values[i, 0] > values[best, 0] or (
            values[i, 0] == values[best, 0] and values[i, 1] > values[best, 1]
        ):
            best = i
    return best
