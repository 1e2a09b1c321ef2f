"""The built-in seats of the compiled simulators, and the one game loop that lets them move.

:func:`play` moves every built-in seat of game ``g`` in turn until a seat of the caller is
to move or the game ends: the batch simulator calls it once a game (no seat is the
caller's unless actions are given), the vector games once per step, the master bot's
self-play at every turn of a network seat. Each seat's action comes from the rules of
:mod:`.rules` (its legal bits) and one policy:

- ``random``: uniformly among the legal actions in id order (the engine's order);
- ``plain-greedy``: my hand's points if the round ended now, ties to the lowest id;
- ``greedy``: the greedy bot (bots/greedy.py), card for card, ties at random;
- ``heuristic``/``medium``: the card counter (bots/heuristic.py, :mod:`.card_counter`),
  ``medium`` with a share :data:`MEDIUM_SLIPS` of its moves at random.

The bots' ports compile only for a driver that seats them: :func:`play` reads the greedy
ports' scratch room and the card counter's as arguments that are None when no seat needs
them, and numba then leaves those branches out of the compiled loop (a cold start compiles
the card counter only for a table that seats it).
"""

from __future__ import annotations

import sys
from typing import Any, Final

import numpy as np

from kingsbreakfast.engine import DECK_SIZE, DRAGON, DRAW_ID, FIRST_FEED_ID, NUM_DISHES, PASS_ID

from . import card_counter as counter
from .games import (
    CARDS_PER_DISH,
    NUM_DRAGONS,
    PENDING,
    REMOVED_DRAGONS,
    TOP,
    TURNS_LEFT,
    Games,
    below,
    next_word,
    small,
    uncounted,
)
from .levels import MEDIUM_MISTAKES
from .rules import (
    FEED_A,
    FEED_B,
    Turn,
    advance,
    count_legal,
    legal_bits,
    list_legal,
    load,
    nth_legal,
    points_discards,
    store,
)

CALLER: Final = -1
"""A seat whose actions come from the caller (the learner, a script, a network)."""
RANDOM: Final = 0
PLAIN_GREEDY: Final = 1
GREEDY: Final = 3
HEURISTIC: Final = 4
MEDIUM: Final = 5
CODES: Final = {
    "random": RANDOM,
    "greedy": GREEDY,
    "heuristic": HEURISTIC,
    "medium": MEDIUM,
    "plain-greedy": PLAIN_GREEDY,
}
"""Every built-in policy by its name: the bots' policies under the names the registry's
``BotEntry.batch_policy`` gives them, and ``plain-greedy``, which no bot plays."""
GREEDY_POLICIES: Final = frozenset({GREEDY, PLAIN_GREEDY})
COUNTER_POLICIES: Final = frozenset({HEURISTIC, MEDIUM})
MEDIUM_SLIPS: Final = MEDIUM_MISTAKES
"""The registry's ``medium`` level: this share of its moves (where it has a choice) is
played at random."""
GREEDY_SCRATCH: Final = 96
"""Floats of scratch room the greedy bot's port needs (no allocation in the loop)."""
LEGAL_ROOM: Final = 40
"""Room for a legal list: more than any position has (8 + 28 feeds)."""

_NEUMAIER = sys.version_info >= (3, 12)
"""Python 3.12 sums floats with Neumaier's compensation: the greedy bot's ``sum(odds)`` is
repeated here the same way, so that equal values stay equal (ties are broken at random)."""


def rooms(codes: Any) -> tuple[Any, Any, Any]:
    """(legal list, greedy scratch or None, card counter scratch or None) for these seats:
    None leaves a port out of the compiled loop."""
    kinds = {int(code) for code in codes}
    greedy = np.zeros(GREEDY_SCRATCH + NUM_DISHES) if kinds & GREEDY_POLICIES else None
    cards = counter.new_scratch() if kinds & COUNTER_POLICIES else None
    return np.zeros(LEGAL_ROOM, np.int64), greedy, cards


@uncounted
def play(
    games: Games,
    g: int,
    seats: Any,
    legal_room: Any,
    greedy_room: Any,
    counter_room: Any,
    record: bool,
    out_actions: Any,
    out_counts: Any,
) -> bool:
    """Let the built-in seats of game ``g`` move until a caller's seat is to move; True if
    the game is over. ``seats[s]`` is seat ``s``'s policy code (or CALLER); with ``record``
    each action and the number of legal actions it was chosen from go to
    ``out_actions``/``out_counts`` at the game's action index."""
    turn = load(games, g)
    must_draw = games.must_draw
    dragon_min = games.dragon_min
    table = games.table[g]
    while True:
        seat = turn.to_move
        if seat < 0:
            store(games, g, turn)
            return True
        code = seats[seat]
        if code == CALLER:
            store(games, g, turn)
            return False
        bits = legal_bits(
            must_draw, dragon_min, turn.pending, turn.feeds, turn.on_table, turn.top,
            table[DRAGON],
        )
        action = PASS_ID
        if code == RANDOM:
            count = count_legal(bits)
            s = next_word(turn.s)
            action = nth_legal(bits, below(s, count))
            turn = Turn(
                seat, turn.top, turn.pending, turn.turns_left, turn.on_table, turn.feeds,
                turn.actions, s,
            )
        else:  # the bots read the row: it is written for them, and their draws read back
            count = list_legal(bits, legal_room)
            store(games, g, turn)
            if greedy_room is not None and code == GREEDY:
                action = _greedy_bot(games, g, seat, legal_room, count, greedy_room)
            elif greedy_room is not None and code == PLAIN_GREEDY:
                action = _plain_greedy(games, g, seat, legal_room, count, greedy_room)
            elif counter_room is not None and code in (HEURISTIC, MEDIUM):
                slips = MEDIUM_SLIPS if code == MEDIUM else 0.0
                action = _card_counter_bot(games, g, seat, legal_room, count, counter_room, slips)
            turn = load(games, g)
        if record:
            out_actions[turn.actions] = action
            out_counts[turn.actions] = count
        over, turn = advance(games, g, turn, action)
        if over:
            store(games, g, turn)
            return True


@small
def _dish_points(held: int, king_count: int) -> int:
    """R11's points for one dish (the plain greedy port sums only points)."""
    return points_discards(held, king_count)[0]


@uncounted
def _plain_greedy(games: Games, g: int, seat: int, legal_room: Any, count: int, room: Any) -> int:
    """The legal action that leaves the seat's own hand worth most if the round ended now.

    Every action is judged against the king as he would be after R9 serves him the rest of
    the table; a take removes its dish from what the king gets. Ties go to the lowest id
    (takes before draw before the dragon actions), so the policy is deterministic. An action
    changes at most two dishes, so each is judged from the others' points, summed once.
    """
    table = games.table[g]
    king = games.king[g]
    takes = games.takes[g]
    draws = games.draws[g]
    served = room[GREEDY_SCRATCH:]
    base = 0
    for d in range(NUM_DISHES):
        served[d] = king[d] + table[d]
        base += _dish_points(takes[seat, d] + draws[seat, d], int(served[d]))
    best = legal_room[0]
    best_value = -1
    for i in range(count):
        action = legal_room[i]
        value = base
        if action < NUM_DISHES:  # R6: my cards of that dish grow, the king's shrink (R9)
            held = takes[seat, action] + draws[seat, action]
            value += _dish_points(held + table[action], king[action]) - _dish_points(
                held, int(served[action])
            )
        elif action >= FIRST_FEED_ID and action < PASS_ID:  # R8: two of the king's dishes
            a = FEED_A[action - FIRST_FEED_ID]
            b = FEED_B[action - FIRST_FEED_ID]
            held_a = takes[seat, a] + draws[seat, a]
            sa = int(served[a])
            if a == b:
                value += _dish_points(held_a, sa - 2) - _dish_points(held_a, sa)
            else:
                held_b = takes[seat, b] + draws[seat, b]
                sb = int(served[b])
                value += (
                    _dish_points(held_a, sa - 1)
                    - _dish_points(held_a, sa)
                    + _dish_points(held_b, sb - 1)
                    - _dish_points(held_b, sb)
                )
        if value > best_value:
            best_value = value
            best = action
    return int(best)


@small
def _float_sum(values: Any) -> float:
    """``sum(values)`` as the running Python sums floats (compensated from 3.12 on)."""
    total = 0.0
    compensation = 0.0
    for i in range(values.shape[0]):
        x = values[i]
        if _NEUMAIER:
            t = total + x
            if abs(total) >= abs(x):
                compensation += (total - t) + x
            else:
                compensation += (x - t) + total
            total = t
        else:
            total += x
    if _NEUMAIER and compensation != 0.0 and np.isfinite(compensation):
        total += compensation
    return total


@small
def _greedy_bot(games: Games, g: int, seat: int, legal_room: Any, count: int, room: Any) -> int:
    """The greedy bot's choice (bots/greedy.py ``immediate_scores``): each legal action
    scored as (points, -discards) of my hand against the king as R9 would serve him, a draw
    as the average over the unseen cards (a dragon adds nothing), the best score taken, ties
    broken uniformly at random from the game's stream. The floating-point steps are the
    bot's, in its order, so its ties are the same ties.

    Inlined into the game loop, and the king's serving after R9 (king plus table) read where
    it is needed instead of kept in the float scratch: the call and the conversions back to
    integers cost a tenth of the greedy seats' speed."""
    table = games.table[g]
    king = games.king[g]
    takes = games.takes[g]
    draws = games.draws[g]
    n = games.n
    base_p = 0
    base_x = 0
    for d in range(NUM_DISHES):
        p, x = points_discards(takes[seat, d] + draws[seat, d], king[d] + table[d])
        base_p += p
        base_x += x
    # the unseen cards (deck and the others' draws), as knowledge.count reads them
    odds = room[0:NUM_DISHES]
    unseen = room[NUM_DISHES : 2 * NUM_DISHES]
    odds[:] = 0.0
    total = 0
    for d in range(NUM_DISHES):
        u = CARDS_PER_DISH - table[d] - king[d] - games.removed[g, d] - draws[seat, d]
        for other in range(n):
            u -= takes[other, d]
        unseen[d] = u
        total += u
    pending = games.state[g, PENDING] != 0
    total += NUM_DRAGONS - table[DRAGON] - games.state[g, REMOVED_DRAGONS] - (1 if pending else 0)
    if total:
        for d in range(NUM_DISHES):
            odds[d] = unseen[d] / total
    values_p = room[16:56]
    values_x = room[56:96]
    for i in range(count):
        action = legal_room[i]
        pts = base_p
        dis = base_x
        if action < NUM_DISHES:  # R6: my dish grows, the king's serving of it is gone (R9)
            held = takes[seat, action] + draws[seat, action]
            sv = king[action] + table[action]
            p0, x0 = points_discards(held, sv)
            p1, x1 = points_discards(held + table[action], sv - table[action])
            values_p[i] = float(pts - p0 + p1)
            values_x[i] = -float(dis - x0 + x1)
        elif action == DRAW_ID:  # R7: the average over what the draw could turn up
            exp_p = 0.0
            exp_x = 0.0
            for d in range(NUM_DISHES):
                if odds[d]:
                    held = takes[seat, d] + draws[seat, d]
                    sd = king[d] + table[d]
                    p0, x0 = points_discards(held, sd)
                    p1, x1 = points_discards(held + 1, sd)
                    exp_p += odds[d] * (pts - p0 + p1)
                    exp_x += odds[d] * (dis - x0 + x1)
            rest = 1.0 - _float_sum(odds)
            values_p[i] = exp_p + rest * pts
            values_x[i] = -(exp_x + rest * dis)
        elif action >= FIRST_FEED_ID and action < PASS_ID:  # R8: two of the king's dishes
            a = FEED_A[action - FIRST_FEED_ID]
            b = FEED_B[action - FIRST_FEED_ID]
            ha = takes[seat, a] + draws[seat, a]
            sa = king[a] + table[a]
            p0, x0 = points_discards(ha, sa)
            if a == b:
                p1, x1 = points_discards(ha, sa - 2)
                pts += p1 - p0
                dis += x1 - x0
            else:
                hb = takes[seat, b] + draws[seat, b]
                sb = king[b] + table[b]
                q0, y0 = points_discards(hb, sb)
                p1, x1 = points_discards(ha, sa - 1)
                q1, y1 = points_discards(hb, sb - 1)
                pts += p1 - p0 + q1 - q0
                dis += x1 - x0 + y1 - y0
            values_p[i] = float(pts)
            values_x[i] = -float(dis)
        else:  # place the dragon or pass: nothing changes
            values_p[i] = float(pts)
            values_x[i] = -float(dis)
    best = 0
    for i in range(1, count):
        if values_p[i] > values_p[best] or (
            values_p[i] == values_p[best] and values_x[i] > values_x[best]
        ):
            best = i
    ties = 0
    for i in range(count):
        if values_p[i] == values_p[best] and values_x[i] == values_x[best]:
            ties += 1
    if ties == 1:
        return int(legal_room[best])
    s = next_word(games.rng[g])
    games.rng[g] = s
    pick = below(s, ties)
    for i in range(count):
        if values_p[i] == values_p[best] and values_x[i] == values_x[best]:
            if pick == 0:
                return int(legal_room[i])
            pick -= 1
    return int(legal_room[best])


@uncounted
def card_counter_values(
    games: Games, g: int, seat: int, legal_room: Any, count: int, room: Any
) -> None:
    """The card counter's value of each legal action of ``seat`` into ``room[VALUES:]``,
    from what the seat's view shows (:mod:`.card_counter`)."""
    state = games.state[g]
    counter.card_counter_values(
        legal_room, count, games.table[g], games.king[g], games.takes[g], games.draws[g],
        games.removed[g], state[REMOVED_DRAGONS], state[PENDING] != 0, seat, games.n,
        state[TURNS_LEFT], DECK_SIZE - state[TOP], room,
    )


@uncounted
def _card_counter_bot(
    games: Games, g: int, seat: int, legal_room: Any, count: int, room: Any, slips: float
) -> int:
    """The heuristic bot's ``act``: the only legal action without a thought; else, with
    chance ``slips`` (a difficulty level's mistakes), any legal action at random; else one
    of the actions the card counter values best, ties broken uniformly at random."""
    if count == 1:
        return int(legal_room[0])
    if slips > 0.0:
        s = next_word(games.rng[g])
        games.rng[g] = s
        if below(s, 1 << 30) < slips * (1 << 30):
            s = next_word(s)
            games.rng[g] = s
            return int(legal_room[below(s, count)])
    card_counter_values(games, g, seat, legal_room, count, room)
    values = counter.VALUES
    best = room[values]
    for i in range(1, count):
        if room[values + i] > best:
            best = room[values + i]
    ties = 0
    last = 0
    for i in range(count):
        if room[values + i] >= best - counter.TIE_TOLERANCE:
            ties += 1
            last = i
    if ties == 1:
        return int(legal_room[last])
    s = next_word(games.rng[g])
    games.rng[g] = s
    pick = below(s, ties)
    for i in range(count):
        if room[values + i] >= best - counter.TIE_TOLERANCE:
            if pick == 0:
                return int(legal_room[i])
            pick -= 1
    return int(legal_room[last])
