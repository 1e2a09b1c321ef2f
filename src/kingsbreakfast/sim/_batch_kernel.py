"""The compiled inner loop of the batch simulator: whole games, one after another, in numba.

This is the one second implementation of the rules the project allows, for speed: plain
integer arrays and scalar code so numba can turn a game into a few thousand machine
instructions. It must agree with :mod:`kingsbreakfast.engine` card for card and action for
action; ``tests/sim/test_batch_differential.py`` proves it on thousands of games. Each
rule is marked with its number so a change to docs/rules.md can be traced here.

Card numbers, action ids and the order of legal actions are the engine's (R1 dish order;
0–6 take, 7 draw, 8 place the dragon, 9–36 feed pairs, 37 pass), so an action chosen here
by its index among the legal actions is the same action the engine would choose.
"""

from __future__ import annotations

# The kernel's arrays and generator state are typed by numba when it compiles them (numba
# reads no annotations), so Any stands for "whatever array numba was handed".
import sys
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit

from ._card_counter import SCRATCH_SIZE, TIE_TOLERANCE, VALUES, card_counter_values

NUM_DISHES = 7
DRAGON = 7
DECK_SIZE = 110
MAX_ACTIONS = 64
"""More actions than any game can have: at most 18 rounds of 3 turns (or 11 of 5) plus one
extra action for each of the 5 dragons that can be drawn (R7a)."""

POLICY_RANDOM = 0
POLICY_PLAIN_GREEDY = 1
"""``plain-greedy``: my hand's points if the round ended now, draws valued as no change, ties
to the lowest id (what the batch simulator called ``greedy`` before the names were unified)."""
POLICY_SCRIPT = 2
POLICY_GREEDY = 3
"""``greedy``: the greedy bot's policy (bots/greedy.py), card for card: a draw worth the
average of the cards it could turn up, then fewer discards, ties at random."""
POLICY_HEURISTIC = 4
"""``heuristic``: the card counter (bots/heuristic.py, the registry's ``heuristic`` and
``hard``), ported in :mod:`._card_counter`; ties at random."""
POLICY_MEDIUM = 5
"""``medium``: the card counter with a share :data:`MEDIUM_SLIPS` of its moves at random."""
MEDIUM_SLIPS = 0.25
"""bots/registry.py's MEDIUM_MISTAKES (the card counter's test holds them equal)."""

_NEUMAIER = sys.version_info >= (3, 12)
"""Python 3.12 sums floats with Neumaier's compensation: the greedy bot's ``sum(odds)`` is
repeated here the same way, so that equal values stay equal (ties are broken at random)."""

# FEED_PAIRS of the engine: (a, b), a <= b, in R1 order; feed id = 9 + index.
_FEED_A = np.array([a for a in range(NUM_DISHES) for b in range(a, NUM_DISHES)], np.int8)
_FEED_B = np.array([b for a in range(NUM_DISHES) for b in range(a, NUM_DISHES)], np.int8)

# The dishes on the table are kept as a 7-bit mask and the random policy's "k-th take" is
# looked up, not searched: a search loop's unpredictable branches cost a third of the time.
_NTH_DISH = np.full((1 << NUM_DISHES, NUM_DISHES), -1, np.int8)
"""_NTH_DISH[mask, k]: the k-th dish (from 0, R1 order) whose bit is set in ``mask``."""
for _mask in range(1 << NUM_DISHES):
    _present = [d for d in range(NUM_DISHES) if _mask >> d & 1]
    _NTH_DISH[_mask, : len(_present)] = _present
_POPCOUNT = np.array([bin(m).count("1") for m in range(1 << NUM_DISHES)], np.int8)

_F = TypeVar("_F", bound=Callable[..., Any])


def _uncounted(function: _F) -> _F:
    """Compile without numba's reference counting of arrays: every array handed to a
    function or sliced into a row costs two atomic operations otherwise, which in these
    loops is most of the time. Only for functions that allocate nothing (their scratch
    arrays come from the caller), so nothing needs counting."""
    compile_: Any = njit
    return cast(_F, compile_(cache=True, error_model="numpy", _nrt=False)(function))


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_STAR = np.uint64(0x2545F4914F6CDD1D)


@njit(cache=True, inline="always")
def _splitmix(x: Any) -> Any:
    """A well-mixed 64-bit word from a seed (SplitMix64 finaliser): one stream per game."""
    z = x + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    if z == np.uint64(0):
        z = _GOLDEN
    return z


@njit(cache=True, inline="always")
def _next(s: Any) -> Any:
    """xorshift64 step (the state is never 0)."""
    s ^= s << np.uint64(13)
    s ^= s >> np.uint64(7)
    s ^= s << np.uint64(17)
    return s


@njit(cache=True, inline="always")
def _below(s: Any, n: int) -> int:
    """A number in [0, n) from the high 32 bits of the scrambled state (xorshift64*)."""
    return int((((s * _STAR) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, error_model="numpy")
def play_games(
    num_games: int,
    n: int,
    first_cook: int,
    must_draw: bool,
    dragon_min: int,
    seat_policy: Any,
    seed: Any,
    decks: Any,
    use_decks: bool,
    script: Any,
    record: bool,
    out_king: Any,
    out_table: Any,
    out_takes: Any,
    out_draws: Any,
    out_removed: Any,
    out_extra: Any,
    out_points: Any,
    out_discarded: Any,
    out_winners: Any,
    out_actions: Any,
    out_legal_count: Any,
    out_decks: Any,
) -> None:
    """Play ``num_games`` games and write their final states into the ``out_*`` arrays.

    ``out_extra[g]`` = (table dragons, removed dragons, removed unseen, rounds, actions,
    illegal-at or -1). With ``record`` every action and the size of the legal set it was
    chosen from go to ``out_actions`` / ``out_legal_count``, and the deck as it was dealt to
    ``out_decks`` (for the differential tests). The working arrays are made here and the
    games played by :func:`_play`, compiled without reference counting.
    """
    deck = np.empty(DECK_SIZE, np.int8)
    table = np.zeros(NUM_DISHES + 1, np.int32)  # index DRAGON: dragons on the table
    king = np.zeros(NUM_DISHES, np.int32)
    takes = np.zeros((n, NUM_DISHES), np.int32)
    draws = np.zeros((n, NUM_DISHES), np.int32)
    removed = np.zeros(NUM_DISHES, np.int32)
    legal = np.zeros(40, np.int32)
    served = np.zeros(NUM_DISHES, np.int32)  # the greedy policy's scratch: king after R9
    scratch = np.full(SCRATCH_SIZE, -1.0)  # the greedy and card counter ports' scratch
    _play(
        num_games, n, first_cook, must_draw, dragon_min, seat_policy,
        seed, decks, use_decks, script, record, out_king, out_table,
        out_takes, out_draws, out_removed, out_extra, out_points, out_discarded, out_winners,
        out_actions, out_legal_count, out_decks,
        deck, table, king, takes, draws, removed, legal, served, scratch, base_deck(),
    )


@njit(cache=True)
def base_deck() -> Any:
    """The unshuffled deck in card numbers (R1): fifteen of each dish, then five dragons;
    the engine's UNSHUFFLED_DECK, which the batch and vector kernels shuffle."""
    deck = np.empty(DECK_SIZE, np.int8)
    k = 0
    for d in range(NUM_DISHES):
        for _ in range(15):
            deck[k] = d
            k += 1
    for _ in range(5):
        deck[k] = DRAGON
        k += 1
    return deck


@_uncounted
def _play(
    num_games: int,
    n: int,
    first_cook: int,
    must_draw: bool,
    dragon_min: int,
    seat_policy: Any,
    seed: Any,
    decks: Any,
    use_decks: bool,
    script: Any,
    record: bool,
    out_king: Any,
    out_table: Any,
    out_takes: Any,
    out_draws: Any,
    out_removed: Any,
    out_extra: Any,
    out_points: Any,
    out_discarded: Any,
    out_winners: Any,
    out_actions: Any,
    out_legal_count: Any,
    out_decks: Any,
    deck: Any,
    table: Any,
    king: Any,
    takes: Any,
    draws: Any,
    removed: Any,
    legal: Any,
    served: Any,
    scratch: Any,
    base_deck: Any,
) -> None:
    """:func:`play_games` with its working arrays given (see there)."""
    seed_word = np.uint64(seed)
    for g in range(num_games):
        s = _splitmix(seed_word ^ _splitmix(np.uint64(g)))
        if use_decks:
            for c in range(DECK_SIZE):
                deck[c] = decks[g, c]
        else:
            for c in range(DECK_SIZE):
                deck[c] = base_deck[c]
        table[:] = 0
        king[:] = 0
        takes[:, :] = 0
        draws[:, :] = 0
        removed[:] = 0
        removed_dragons = 0
        removed_unseen = 0
        pending = False
        cook = first_cook
        rounds = 0
        on_table = 0  # bit d: dish d lies on the table
        king_feeds = 0
        turns_left = 0
        to_move = -1
        top = 0
        n_actions = 0
        illegal_at = -1
        # R4: the cook turns up 2 x players cards (a lazy Fisher-Yates shuffle: each card is
        # chosen among the unseen ones when it is turned up, so unread cards cost nothing)
        need = 2 * n
        if DECK_SIZE - top >= need:
            top, s = _turn_up(deck, table, top, need, s, use_decks)
            on_table = _table_mask(table)
            rounds = 1
            turns_left = n
            to_move = cook
        while to_move >= 0:
            # --- the legal actions, sorted by id (R5-R8, R5a, R5b, R7a) ---
            # Counted first from the table and the king; listed only when a policy needs
            # the list, since the random policy needs just the chosen one.
            deck_left = DECK_SIZE - top
            n_takes = 0
            n_draw = 0
            if pending:  # R7a: use the drawn dragon or place it
                n_place = 1
                feeds_ok = True
            else:
                n_place = 0
                n_takes = _POPCOUNT[on_table]
                if deck_left > 0:
                    n_draw = 1
                feeds_ok = table[DRAGON] >= dragon_min and not (
                    must_draw and deck_left > 0 and n_takes == 0
                )
            n_feeds = 0
            if feeds_ok:
                if king_feeds < 0:  # the king changed: count his feed pairs again (R8)
                    king_feeds = _count_feeds(king)
                n_feeds = king_feeds
            count = n_takes + n_draw + n_place + n_feeds
            policy = seat_policy[to_move]
            if policy == POLICY_RANDOM:
                s = _next(s)
                if count == 0:  # R5b: pass only when nothing else is legal
                    count = 1
                    action = 37
                else:
                    pick = _below(s, count)
                    if pick < n_takes:
                        action = _NTH_DISH[on_table, pick]
                    elif pick < n_takes + n_draw:
                        action = 7
                    elif pick < n_takes + n_draw + n_place:
                        action = 8
                    else:
                        action = 9 + _nth_feed(king, pick - n_takes - n_draw - n_place)
            else:
                count = _list_legal(
                    legal, table, king, pending, n_draw == 1, feeds_ok
                )
                if policy == POLICY_SCRIPT:
                    action = script[g, n_actions]
                    found = False
                    for i in range(count):
                        if legal[i] == action:
                            found = True
                    if not found:
                        illegal_at = n_actions
                        break
                elif policy == POLICY_GREEDY:
                    action, s = _greedy_bot(
                        legal, count, table, king, takes, draws, removed, removed_dragons,
                        pending, to_move, n, served, scratch, s,
                    )
                elif policy in (POLICY_HEURISTIC, POLICY_MEDIUM):
                    action, s = _card_counter_bot(
                        legal, count, table, king, takes, draws, removed, removed_dragons,
                        pending, to_move, n, turns_left, deck_left, scratch,
                        MEDIUM_SLIPS if policy == POLICY_MEDIUM else 0.0, s,
                    )
                else:
                    action = _greedy(legal, count, table, king, takes, draws, to_move, served)
            if record:
                out_actions[g, n_actions] = action
                out_legal_count[g, n_actions] = count
            n_actions += 1
            # --- the action (R6, R7, R7a, R8), then the next seat or the next round ---
            seat = to_move
            top, s, on_table, pending, fed, turn_over = _apply(
                action, seat, deck, table, king, takes, draws, removed, top, s, use_decks,
                on_table, pending,
            )  # fmt: skip
            if fed:
                removed_dragons += 1
                king_feeds = -1
            if not turn_over:  # R7a: the same player uses or places the drawn dragon
                continue
            turns_left -= 1
            if turns_left > 0:
                to_move = seat + 1
                if to_move == n:
                    to_move = 0
                continue
            cook = (cook + 1) % n  # R3: the deck passes to the left
            top, s, on_table, unseen = _end_round(deck, table, king, top, need, s, use_decks)
            king_feeds = -1
            if unseen >= 0:  # R10: the game is over
                removed_unseen = unseen
                to_move = -1
                break
            rounds += 1
            turns_left = n
            to_move = cook
        # --- R11 scoring and R12 winners ---
        best_points = -1
        best_discarded = 1 << 30
        for seat in range(n):
            points = 0
            discarded = 0
            for d in range(NUM_DISHES):
                p, x = _points_discards(takes[seat, d] + draws[seat, d], king[d])
                points += p
                discarded += x
                out_takes[g, seat, d] = takes[seat, d]
                out_draws[g, seat, d] = draws[seat, d]
            out_points[g, seat] = points
            out_discarded[g, seat] = discarded
            if _ranks_above(points, discarded, best_points, best_discarded):
                best_points = points
                best_discarded = discarded
        for seat in range(n):
            out_winners[g, seat] = (
                out_points[g, seat] == best_points and out_discarded[g, seat] == best_discarded
            )
        for d in range(NUM_DISHES):
            out_king[g, d] = king[d]
            out_table[g, d] = table[d]
            out_removed[g, d] = removed[d]
        out_extra[g, 0] = table[DRAGON]
        out_extra[g, 1] = removed_dragons
        out_extra[g, 2] = removed_unseen
        out_extra[g, 3] = rounds
        out_extra[g, 4] = n_actions
        out_extra[g, 5] = illegal_at
        if record:
            for c in range(DECK_SIZE):
                out_decks[g, c] = deck[c]


@njit(cache=True, inline="always")
def _greedy(
    legal: Any,
    count: int,
    table: Any,
    king: Any,
    takes: Any,
    draws: Any,
    seat: int,
    served: Any,
) -> int:
    """The legal action that leaves the seat's own hand worth most if the round ended now.

    Every action is judged against the king as he would be after R9 serves him the rest of
    the table; a take removes its dish from what the king gets. Ties go to the lowest id
    (takes before draw before the dragon actions), so the policy is deterministic. An action
    changes at most two dishes, so each is judged from the others' points, summed once.
    """
    base = 0
    for d in range(NUM_DISHES):
        served[d] = king[d] + table[d]
        base += _dish_points(takes[seat, d] + draws[seat, d], served[d])
    best = legal[0]
    best_value = -1
    for i in range(count):
        action = legal[i]
        value = base
        if action < NUM_DISHES:  # R6: my cards of that dish grow, the king's shrink (R9)
            held = takes[seat, action] + draws[seat, action]
            value += _dish_points(held + table[action], king[action]) - _dish_points(
                held, served[action]
            )
        elif action >= 9 and action < 37:  # R8: two of the king's dishes leave
            a = _FEED_A[action - 9]
            b = _FEED_B[action - 9]
            held_a = takes[seat, a] + draws[seat, a]
            if a == b:
                value += _dish_points(held_a, served[a] - 2) - _dish_points(held_a, served[a])
            else:
                held_b = takes[seat, b] + draws[seat, b]
                value += (
                    _dish_points(held_a, served[a] - 1)
                    - _dish_points(held_a, served[a])
                    + _dish_points(held_b, served[b] - 1)
                    - _dish_points(held_b, served[b])
                )
        if value > best_value:
            best_value = value
            best = action
    return int(best)


@njit(cache=True, inline="always")
def _apply(
    action: int,
    seat: int,
    deck: Any,
    table: Any,
    king: Any,
    takes: Any,
    draws: Any,
    removed: Any,
    top: int,
    s: Any,
    use_decks: bool,
    on_table: int,
    pending: bool,
) -> tuple[int, Any, int, bool, bool, bool]:
    """One legal action of ``seat`` (R6, R7, R7a, R8, R5b), shared by every compiled player
    of the game (whole games here, stepped games in :mod:`._vector_kernel`).

    Returns (top of the deck, random state, dishes-on-table mask, dragon pending, a dragon
    was fed, the turn is over). Without given decks a draw picks its card among the unseen
    ones (the lazy shuffle of :func:`_turn_up`).
    """
    fed = False
    turn_over = True
    if action < NUM_DISHES:  # R6: take all of one dish
        takes[seat, action] += table[action]
        table[action] = 0
        on_table &= ~(1 << action)
    elif action == 7:  # R7: the top card, unseen by the others
        if not use_decks:
            s = _next(s)
            j = top + _below(s, DECK_SIZE - top)
            deck[top], deck[j] = deck[j], deck[top]
        card = deck[top]
        top += 1
        if card == DRAGON:  # R7a: shown; the same player uses or places it now
            pending = True
            turn_over = False
        else:
            draws[seat, card] += 1
    elif action == 8:  # R7a: the drawn dragon goes to the table
        pending = False
        table[DRAGON] += 1
    elif action != 37:  # R7a/R8: a dragon and two of the king's dishes leave
        a = _FEED_A[action - 9]
        b = _FEED_B[action - 9]
        king[a] -= 1
        king[b] -= 1
        removed[a] += 1
        removed[b] += 1
        fed = True
        if pending:
            pending = False
        else:
            table[DRAGON] -= 1
    return top, s, on_table, pending, fed, turn_over


@njit(cache=True, inline="always")
def _end_round(
    deck: Any, table: Any, king: Any, top: int, need: int, s: Any, use_decks: bool
) -> tuple[int, Any, int, int]:
    """R9 then R4/R10: the king is served the table's dishes (dragons stay), then the next
    cook sets the table, or the game ends when the deck is too short.

    Returns (top of the deck, random state, dishes-on-table mask, cards left unseen): the
    last is -1 while the game goes on.
    """
    for d in range(NUM_DISHES):
        king[d] += table[d]
        table[d] = 0
    if DECK_SIZE - top < need:
        return DECK_SIZE, s, 0, DECK_SIZE - top
    top, s = _turn_up(deck, table, top, need, s, use_decks)
    return top, s, _table_mask(table), -1


@njit(cache=True, inline="always")
def _points_discards(held: int, king_count: int) -> tuple[int, int]:
    """R11 for one dish: (points, discarded cards). Every kernel scores through this."""
    if held > king_count:
        return 0, held
    return held * king_count, 0


@njit(cache=True, inline="always")
def _ranks_above(points: int, discarded: int, other_points: int, other_discarded: int) -> bool:
    """R12: more points, or as many with fewer discarded cards, ranks a seat above another."""
    return points > other_points or (points == other_points and discarded < other_discarded)


@njit(cache=True)
def _greedy_bot(
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
    served: Any,
    scratch: Any,
    s: Any,
) -> tuple[int, Any]:
    """The greedy bot's choice (bots/greedy.py ``immediate_scores``): each legal action
    scored as (points, -discards) of my hand against the king as R9 would serve him, a draw
    as the average over the unseen cards (a dragon adds nothing), the best score taken, ties
    broken uniformly at random. The floating-point steps are the bot's, in its order, so
    its ties are the same ties. ``scratch`` is room for 96 floats (no allocation here, so
    that callers may run without numba's reference counting). Returns the action and the
    random state."""
    base_p = 0
    base_x = 0
    for d in range(NUM_DISHES):
        served[d] = king[d] + table[d]
        p, x = _points_discards(takes[seat, d] + draws[seat, d], served[d])
        base_p += p
        base_x += x
    # the unseen cards (deck and the others' draws), as knowledge.count reads them
    odds = scratch[0:NUM_DISHES]
    unseen = scratch[NUM_DISHES : 2 * NUM_DISHES]
    odds[:] = 0.0
    total = 0
    for d in range(NUM_DISHES):
        u = 15 - table[d] - king[d] - removed[d] - draws[seat, d]
        for other in range(n):
            u -= takes[other, d]
        unseen[d] = u
        total += u
    total += 5 - table[DRAGON] - removed_dragons - (1 if pending else 0)
    if total:
        for d in range(NUM_DISHES):
            odds[d] = unseen[d] / total
    values_p = scratch[16:56]
    values_x = scratch[56:96]
    for i in range(count):
        action = legal[i]
        pts = base_p
        dis = base_x
        if action < NUM_DISHES:  # R6: my dish grows, the king's serving of it is gone (R9)
            held = takes[seat, action] + draws[seat, action]
            p0, x0 = _points_discards(held, served[action])
            p1, x1 = _points_discards(held + table[action], served[action] - table[action])
            values_p[i] = float(pts - p0 + p1)
            values_x[i] = -float(dis - x0 + x1)
        elif action == 7:  # R7: the average over what the draw could turn up
            exp_p = 0.0
            exp_x = 0.0
            for d in range(NUM_DISHES):
                if odds[d]:
                    held = takes[seat, d] + draws[seat, d]
                    p0, x0 = _points_discards(held, served[d])
                    p1, x1 = _points_discards(held + 1, served[d])
                    exp_p += odds[d] * (pts - p0 + p1)
                    exp_x += odds[d] * (dis - x0 + x1)
            rest = 1.0 - _float_sum(odds)
            values_p[i] = exp_p + rest * pts
            values_x[i] = -(exp_x + rest * dis)
        elif action >= 9 and action < 37:  # R8: two of the king's dishes leave
            a = _FEED_A[action - 9]
            b = _FEED_B[action - 9]
            ha = takes[seat, a] + draws[seat, a]
            p0, x0 = _points_discards(ha, served[a])
            if a == b:
                p1, x1 = _points_discards(ha, served[a] - 2)
                pts += p1 - p0
                dis += x1 - x0
            else:
                hb = takes[seat, b] + draws[seat, b]
                q0, y0 = _points_discards(hb, served[b])
                p1, x1 = _points_discards(ha, served[a] - 1)
                q1, y1 = _points_discards(hb, served[b] - 1)
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
        return int(legal[best]), s
    s = _next(s)
    pick = _below(s, ties)
    for i in range(count):
        if values_p[i] == values_p[best] and values_x[i] == values_x[best]:
            if pick == 0:
                return int(legal[i]), s
            pick -= 1
    return int(legal[best]), s


@njit(cache=True, inline="always")
def _card_counter_bot(
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
    slips: float,
    s: Any,
) -> tuple[int, Any]:
    """The heuristic bot's ``act``: the only legal action without a thought; else, with
    chance ``slips`` (a difficulty level's mistakes), any legal action at random; else one
    of the actions the card counter values best, ties broken uniformly at random. Returns
    the action and the random state."""
    if count == 1:
        return int(legal[0]), s
    if slips > 0.0:
        s = _next(s)
        if _below(s, 1 << 30) < slips * (1 << 30):
            s = _next(s)
            return int(legal[_below(s, count)]), s
    card_counter_values(
        legal, count, table, king, takes, draws, removed, removed_dragons, pending, seat, n,
        turns_left, deck_left, scratch,
    )
    best = scratch[VALUES]
    for i in range(1, count):
        if scratch[VALUES + i] > best:
            best = scratch[VALUES + i]
    ties = 0
    last = 0
    for i in range(count):
        if scratch[VALUES + i] >= best - TIE_TOLERANCE:
            ties += 1
            last = i
    if ties == 1:
        return int(legal[last]), s
    s = _next(s)
    pick = _below(s, ties)
    for i in range(count):
        if scratch[VALUES + i] >= best - TIE_TOLERANCE:
            if pick == 0:
                return int(legal[i]), s
            pick -= 1
    return int(legal[last]), s


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def _dish_points(held: int, king_count: int) -> int:
    """R11's points for one dish (the greedy port sums only points)."""
    return _points_discards(held, king_count)[0]


@njit(cache=True, inline="always")
def _turn_up(
    deck: Any, table: Any, top: int, need: int, s: Any, use_decks: bool
) -> tuple[int, Any]:
    """R4: turn up ``need`` cards onto the table. Without given decks the shuffle is lazy
    (each card is chosen among the unseen ones as it is turned up); returns the new top of
    the deck and random state."""
    for _ in range(need):
        if not use_decks:
            s = _next(s)
            j = top + _below(s, DECK_SIZE - top)
            deck[top], deck[j] = deck[j], deck[top]
        table[deck[top]] += 1
        top += 1
    return top, s


@njit(cache=True, inline="always")
def _table_mask(table: Any) -> int:
    mask = 0
    for d in range(NUM_DISHES):
        if table[d] > 0:
            mask |= 1 << d
    return mask


@njit(cache=True, inline="always")
def _count_feeds(king: Any) -> int:
    """How many of the 28 feed pairs the king's plate allows (R8): any two different
    dishes he has, plus any dish he has twice."""
    ones = 0
    twos = 0
    for d in range(NUM_DISHES):
        if king[d] >= 1:
            ones += 1
            if king[d] >= 2:
                twos += 1
    return ones * (ones - 1) // 2 + twos


@njit(cache=True, inline="always")
def _nth_feed(king: Any, k: int) -> int:
    """The index in FEED_PAIRS of the ``k``-th feed the king's plate allows (R8)."""
    for f in range(28):
        a = _FEED_A[f]
        b = _FEED_B[f]
        if (a == b and king[a] >= 2) or (a != b and king[a] >= 1 and king[b] >= 1):
            if k == 0:
                return f
            k -= 1
    return -1


@njit(cache=True, inline="always")
def _list_legal(
    legal: Any, table: Any, king: Any, pending: bool, can_draw: bool, feeds_ok: bool
) -> int:
    """Write the legal actions, sorted by id, into ``legal``; return how many."""
    count = 0
    if pending:
        legal[0] = 8
        count = 1
    else:
        for d in range(NUM_DISHES):
            if table[d] > 0:
                legal[count] = d
                count += 1
        if can_draw:
            legal[count] = 7
            count += 1
    if feeds_ok:
        for f in range(28):
            a = _FEED_A[f]
            b = _FEED_B[f]
            if (a == b and king[a] >= 2) or (a != b and king[a] >= 1 and king[b] >= 1):
                legal[count] = 9 + f
                count += 1
    if count == 0:  # R5b
        legal[0] = 37
        count = 1
    return count
