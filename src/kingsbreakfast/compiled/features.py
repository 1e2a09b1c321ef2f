"""What the master bot's network reads: one row of numbers per legal action, from one view.

Each row describes the position *after* the action (an after-state), as the mover sees it:
for every dish a short description (my cards, the king's, what stays on the table, the
others' public takes, the unseen cards, what the dragons ate), then a few numbers about the
whole table, the kind of action and the card counter's own value of it (bots/heuristic.py).

The seven dish descriptions are sorted before they are written, so the rows do not depend on
which dish is which: two actions that are the same up to renaming dishes (take bread and
take cheese when both lie alike everywhere) give the very same row, hence the same value.
That is what makes a hint's twins equal (R1 only orders the dishes for files and ids).

:func:`encode` works on plain integer arrays and numbers, with no Python objects, so the
training kernel compiles this very function with numba (compiled/network.py) while the bot
runs it as ordinary Python over numpy: both read the same rows by construction.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

NUM_DISHES: Final = 7
DRAGON: Final = 7
DISH_WIDTH: Final = 8
"""Numbers per dish: mine, king's, on the table, others' most, others' total, unseen,
eaten by dragons, mine less the king's."""
SCALARS: Final = 21
NUM_FEATURES: Final = NUM_DISHES * DISH_WIDTH + SCALARS
"""Length of one row (77)."""
LAYOUT: Final = (
    "7 dish blocks sorted descending, each: mine, king, table_after, others_max_takes, "
    "others_sum_takes, unseen, removed, mine_minus_king (all /5); then players_3, players_4, "
    "players_5, table_dragons/2, deck/110, turns_after/5, my_hidden/10, others_hidden/10, "
    "unseen_dragons/5, pending_dragon, kind_take, kind_draw, kind_place, kind_feed, kind_pass, "
    "counter_value/20, counter_value_minus_best/10, counter_best, my_points/50, "
    "best_other_points/50, my_discards/10"
)
"""The row's layout in words, stored in the weights file's header so that a file written
for another layout is refused rather than read wrongly."""
POINTS_SCALE: Final = 50.0
"""The network's points head is trained on final points / 50 (R11 scores run up to about
150): the bot and the compiled search scale its output back by this."""
VALUE_ROUNDING: Final = 1e-6
"""The card counter's values are rounded to this before they are read: its sums run over the
dishes in R1 order, so renamed twins can differ in the last bits."""

# FEED_PAIRS of the engine: (a, b), a <= b, in R1 order; feed id = 9 + index.
FEED_A: Final = np.array([a for a in range(NUM_DISHES) for b in range(a, NUM_DISHES)], np.int64)
FEED_B: Final = np.array([b for a in range(NUM_DISHES) for b in range(a, NUM_DISHES)], np.int64)


def new_rows(count: int) -> np.ndarray[Any, np.dtype[np.float64]]:
    """Room for ``count`` rows."""
    return np.zeros((count, NUM_FEATURES), np.float64)


def encode(
    out: Any,
    block: Any,
    legal: Any,
    count: int,
    table: Any,
    king: Any,
    takes: Any,
    my_draws: Any,
    hidden: Any,
    removed: Any,
    removed_dragons: int,
    pending: bool,
    seat: int,
    n: int,
    turns_left: int,
    deck_left: int,
    counter: Any,
    feed_a: Any,
    feed_b: Any,
) -> None:
    """Write the row of each of the ``count`` legal actions into ``out[:count]``.

    ``table`` has eight entries (the dragons on the table last), ``takes`` is n x 7 (public,
    R6), ``my_draws`` the mover's own drawn dishes (R7b), ``hidden`` every seat's number of
    drawn cards, ``counter`` the card counter's value of each legal action, ``block`` is
    scratch room of 7 x 8 floats. ``feed_a``/``feed_b`` are :data:`FEED_A`/:data:`FEED_B`
    (passed in so that the compiled copy needs no globals of another module).
    """
    # the unseen dish cards: the deck and the others' draws (R7b)
    unseen_total = 0.0
    unseen = np.zeros(NUM_DISHES)
    for d in range(NUM_DISHES):
        u = 15 - table[d] - king[d] - removed[d] - my_draws[d]
        for s in range(n):
            u -= takes[s, d]
        unseen[d] = u
        unseen_total += u
    unseen_dragons = 5 - table[DRAGON] - removed_dragons - (1 if pending else 0)
    pool = unseen_total + unseen_dragons
    others_hidden = 0
    for s in range(n):
        if s != seat:
            others_hidden += hidden[s]
    best = -1e300
    for i in range(count):
        v = round(counter[i] / VALUE_ROUNDING) * VALUE_ROUNDING
        if v > best:
            best = v
    for i in range(count):
        action = legal[i]
        fa = -1
        fb = -1
        if 9 <= action < 37:
            fa = feed_a[action - 9]
            fb = feed_b[action - 9]
        my_points = 0.0
        my_discards = 0.0
        for d in range(NUM_DISHES):
            mine = float(takes[seat, d] + my_draws[d])
            left = float(table[d])
            un = float(unseen[d])
            if action == d:  # R6: all of one dish
                mine += left
                left = 0.0
            elif action == 7 and pool > 0:  # R7: a card like the unseen pool, on average
                p = unseen[d] / pool
                mine += p
                un -= p
            k = float(king[d])
            eaten = float(removed[d])
            if d == fa:  # R8: two of the king's cards go with the dragon
                k -= 1.0
                eaten += 1.0
            if d == fb:
                k -= 1.0
                eaten += 1.0
            most = 0.0
            total = 0.0
            for s in range(n):
                if s != seat:
                    t = float(takes[s, d])
                    total += t
                    if t > most:
                        most = t
            block[d, 0] = mine / 5.0
            block[d, 1] = k / 5.0
            block[d, 2] = left / 5.0
            block[d, 3] = most / 5.0
            block[d, 4] = total / 5.0
            block[d, 5] = un / 5.0
            block[d, 6] = eaten / 5.0
            block[d, 7] = (mine - k) / 5.0
            if mine > k:  # R11 as if the game ended now
                my_discards += mine
            else:
                my_points += mine * k
        # the dish blocks, sorted descending (insertion sort: seven entries)
        order = np.arange(NUM_DISHES)
        for j in range(1, NUM_DISHES):
            cur = order[j]
            m = j - 1
            while m >= 0:
                # larger first, column by column; equal blocks keep their order
                other = order[m]
                first = False
                for w in range(DISH_WIDTH):
                    if block[cur, w] != block[other, w]:
                        first = block[cur, w] > block[other, w]
                        break
                if not first:
                    break
                order[m + 1] = other
                m -= 1
            order[m + 1] = cur
        col = 0
        for j in range(NUM_DISHES):
            for w in range(DISH_WIDTH):
                out[i, col] = block[order[j], w]
                col += 1
        other_best = 0.0
        for s in range(n):
            if s != seat:
                pts = 0.0
                for d in range(NUM_DISHES):
                    k2 = king[d] - (1 if d == fa else 0) - (1 if d == fb else 0)
                    if takes[s, d] <= k2:
                        pts += takes[s, d] * k2
                if pts > other_best:
                    other_best = pts
        dragons = float(table[DRAGON])
        if action == 8:
            dragons += 1.0
        elif fa >= 0 and not pending:
            dragons -= 1.0
        deck = deck_left - (1 if action == 7 else 0)
        value = round(counter[i] / VALUE_ROUNDING) * VALUE_ROUNDING
        out[i, col + 0] = 1.0 if n == 3 else 0.0
        out[i, col + 1] = 1.0 if n == 4 else 0.0
        out[i, col + 2] = 1.0 if n == 5 else 0.0
        out[i, col + 3] = dragons / 2.0
        out[i, col + 4] = deck / 110.0
        out[i, col + 5] = max(0, turns_left - 1) / 5.0
        out[i, col + 6] = (hidden[seat] + (1 if action == 7 else 0)) / 10.0
        out[i, col + 7] = others_hidden / 10.0
        out[i, col + 8] = unseen_dragons / 5.0
        out[i, col + 9] = 1.0 if pending else 0.0
        out[i, col + 10] = 1.0 if action < 7 else 0.0
        out[i, col + 11] = 1.0 if action == 7 else 0.0
        out[i, col + 12] = 1.0 if action == 8 else 0.0
        out[i, col + 13] = 1.0 if fa >= 0 else 0.0
        out[i, col + 14] = 1.0 if action == 37 else 0.0
        out[i, col + 15] = value / 20.0
        out[i, col + 16] = max(-3.0, (value - best) / 10.0)
        out[i, col + 17] = 1.0 if value >= best - VALUE_ROUNDING else 0.0
        out[i, col + 18] = my_points / 50.0
        out[i, col + 19] = other_best / 50.0
        out[i, col + 20] = my_discards / 10.0


__all__ = ["FEED_A", "FEED_B", "LAYOUT", "NUM_FEATURES", "encode", "new_rows"]
