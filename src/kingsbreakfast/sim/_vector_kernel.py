"""The compiled half of the vectorized environment: many games held in arrays, stepped.

The batch simulator (:mod:`._batch_kernel`) plays a game from its first card to its score in
one loop; a learner instead chooses one action per game per call. So each game's state lives
in rows of arrays between calls, and every rule is applied by the batch kernel's own
functions (``_apply`` for R6–R8, ``_end_round`` for R9/R4/R10, ``_list_legal`` for the legal
set, ``_greedy`` for the built-in greedy seat): no third copy of the rules (the bots'
ports, ``_greedy_bot`` and ``_card_counter_bot``, are the batch kernel's too). The observation
is the view tensor of :mod:`kingsbreakfast.tensor.observation`, written by its one writer
compiled here; ``tests/sim/test_vector_differential.py`` compares it, the masks, the
rewards and whole trajectories with the engine.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from kingsbreakfast.tensor import observation, utility

from ._batch_kernel import (
    DECK_SIZE,
    DRAGON,
    MEDIUM_SLIPS,
    NUM_DISHES,
    POLICY_GREEDY,
    POLICY_HEURISTIC,
    POLICY_MEDIUM,
    POLICY_PLAIN_GREEDY,
    _apply,
    _below,
    _card_counter_bot,
    _end_round,
    _greedy,
    _greedy_bot,
    _list_legal,
    _next,
    _points_discards,
    _splitmix,
    _turn_up,
    _uncounted,
)

CALLER = -1
"""A seat whose actions come from the caller of ``step`` (the learner), not a built-in policy."""

# Columns of the per-game integer state.
TOP, PENDING, COOK, ROUND, TURNS_LEFT, TO_MOVE, REMOVED_DRAGONS, REMOVED_UNSEEN, ON_TABLE = range(9)
STATE_COLUMNS = 9

OBS_SIZE = observation.OBS_SIZE
"""The length of the view tensor (kingsbreakfast.tensor.observation.OBS_SIZE)."""


_FEED_BITS = np.zeros(1 << (2 * NUM_DISHES), np.int64)
"""_FEED_BITS[ones | twos << 7]: bit f set for each feed pair f (R8) a king allows whose
dishes with at least one card are the bits of ``ones`` and with two or more of ``twos``."""
for _index in range(1 << (2 * NUM_DISHES)):
    _ones, _twos = _index & 127, _index >> 7
    if _twos & ~_ones:
        continue  # no king has two of a dish and not one
    _f = 0
    for _a in range(NUM_DISHES):
        for _b in range(_a, NUM_DISHES):
            if (_a == _b and _twos >> _a & 1) or (_a != _b and _ones >> _a & _ones >> _b & 1):
                _FEED_BITS[_index] |= 1 << _f
            _f += 1


@njit(cache=True, inline="always")
def _legal_bits(g: int, table: Any, king: Any, state: Any, must_draw: bool, dragon_min: int) -> int:
    """The legal actions of game ``g``'s mover as bits of action ids: the same set as
    ``_list_legal`` (R5-R8, R5a, R5b, R7a), without listing it."""
    pending = state[g, PENDING] != 0
    on_table = state[g, ON_TABLE]
    if pending:
        bits = 1 << 8
        feeds_ok = True
    else:
        bits = on_table
        can_draw = DECK_SIZE - state[g, TOP] > 0
        if can_draw:
            bits |= 1 << 7
        feeds_ok = table[g, DRAGON] >= dragon_min and not (
            must_draw and can_draw and on_table == 0
        )
    if feeds_ok:
        index = 0
        for d in range(NUM_DISHES):
            count = king[g, d]
            if count >= 1:
                index |= 1 << d
                if count >= 2:
                    index |= 1 << (d + NUM_DISHES)
        bits |= _FEED_BITS[index] << 9
    if bits == 0:  # R5b
        bits = 1 << 37
    return bits


@njit(cache=True, inline="always")
def _ring(seat: int, n: int) -> int:
    """``seat`` brought into 0..n-1 when it is at most one lap off (R2: seats in a ring);
    a hardware division for ``%`` cost a third of a step."""
    if seat >= n:
        return seat - n
    if seat < 0:
        return seat + n
    return seat


@njit(cache=True, inline="always")
def _deal(
    g: int,
    n: int,
    first_cook: int,
    deck: Any,
    table: Any,
    king: Any,
    takes: Any,
    draws: Any,
    removed: Any,
    state: Any,
    hidden: Any,
    rng: Any,
    decks: Any,
    use_decks: bool,
    fresh: Any,
) -> None:
    """A new game in row ``g``: a fresh deck (given, or shuffled lazily by the game's own
    random stream), a first cook (given, or drawn from the same stream), the first table
    set (R2, R4)."""
    if use_decks:
        for c in range(DECK_SIZE):
            deck[g, c] = decks[g, c]
    else:
        for c in range(DECK_SIZE):
            deck[g, c] = fresh[c]
    table[g, :] = 0
    king[g, :] = 0
    takes[g, :, :] = 0
    draws[g, :, :] = 0
    removed[g, :] = 0
    hidden[g, :] = 0
    s = rng[g]
    cook = first_cook
    if cook < 0:
        s = _next(s)
        cook = _below(s, n)
    top, s = _turn_up(deck[g], table[g], 0, 2 * n, s, use_decks)
    rng[g] = s
    state[g, TOP] = top
    state[g, PENDING] = 0
    state[g, COOK] = cook
    state[g, ROUND] = 1
    state[g, TURNS_LEFT] = n
    state[g, TO_MOVE] = cook
    state[g, REMOVED_DRAGONS] = 0
    state[g, REMOVED_UNSEEN] = 0
    mask = 0
    for d in range(NUM_DISHES):
        if table[g, d] > 0:
            mask |= 1 << d
    state[g, ON_TABLE] = mask


@njit(cache=True, inline="always")
def _legal(
    g: int, legal: Any, table: Any, king: Any, state: Any, must_draw: bool, dragon_min: int
) -> int:
    """The legal actions of game ``g``'s mover, sorted by id (R5–R8, R5a, R5b, R7a)."""
    pending = state[g, PENDING] != 0
    can_draw = not pending and DECK_SIZE - state[g, TOP] > 0
    if pending:
        feeds_ok = True
    else:
        feeds_ok = table[g, DRAGON] >= dragon_min and not (
            must_draw and can_draw and state[g, ON_TABLE] == 0
        )
    return _list_legal(legal, table[g], king[g], pending, can_draw, feeds_ok)


@njit(cache=True, inline="always")
def _act(
    g: int,
    n: int,
    action: int,
    deck: Any,
    table: Any,
    king: Any,
    takes: Any,
    draws: Any,
    removed: Any,
    state: Any,
    hidden: Any,
    rng: Any,
    use_decks: bool,
) -> bool:
    """Apply one legal action of game ``g``'s mover; then the next seat, or the round's end.
    Returns True when the game is over (R10)."""
    seat = state[g, TO_MOVE]
    top, s, on_table, pending, fed, turn_over = _apply(
        action, seat, deck[g], table[g], king[g], takes[g], draws[g], removed[g],
        state[g, TOP], rng[g], use_decks, state[g, ON_TABLE], state[g, PENDING] != 0,
    )  # fmt: skip
    state[g, TOP] = top
    state[g, ON_TABLE] = on_table
    state[g, PENDING] = 1 if pending else 0
    rng[g] = s
    if fed:
        state[g, REMOVED_DRAGONS] += 1
    if action == 7 and turn_over:  # R7: a dish card drawn, hidden from the others
        hidden[g, seat] += 1
    if not turn_over:  # R7a: the same player uses or places the drawn dragon
        return False
    state[g, TURNS_LEFT] -= 1
    if state[g, TURNS_LEFT] > 0:
        state[g, TO_MOVE] = _ring(seat + 1, n)
        return False
    cook = _ring(state[g, COOK] + 1, n)  # R3: the deck passes to the left
    state[g, COOK] = cook
    top, s, on_table, unseen = _end_round(
        deck[g], table[g], king[g], state[g, TOP], 2 * n, s, use_decks
    )
    state[g, TOP] = top
    state[g, ON_TABLE] = on_table
    rng[g] = s
    if unseen >= 0:
        state[g, REMOVED_UNSEEN] = unseen
        state[g, TO_MOVE] = -1
        state[g, TURNS_LEFT] = 0
        return True
    state[g, ROUND] += 1
    state[g, TURNS_LEFT] = n
    state[g, TO_MOVE] = cook
    return False


@njit(cache=True, inline="always")
def _score(g: int, n: int, king: Any, takes: Any, draws: Any, points: Any, discarded: Any) -> None:
    """R11 for every seat of game ``g``."""
    for seat in range(n):
        p = 0
        x = 0
        for d in range(NUM_DISHES):
            dish_p, dish_x = _points_discards(takes[g, seat, d] + draws[g, seat, d], king[g, d])
            p += dish_p
            x += dish_x
        points[g, seat] = p
        discarded[g, seat] = x


_rank = njit(cache=True, inline="always")(utility.rank)
"""The ``rank`` utility (kingsbreakfast.tensor.utility.rank), compiled from that function."""
_write_observation = njit(cache=True, inline="always")(observation.write_observation)
"""The view tensor's one writer (kingsbreakfast.tensor.observation), compiled."""
_BY = np.array(observation.SCALED, np.float64)


@njit(cache=True, inline="always")
def _observe(
    g: int,
    n: int,
    seat: int,
    must_draw: bool,
    dragon_min: int,
    table: Any,
    king: Any,
    takes: Any,
    draws: Any,
    removed: Any,
    state: Any,
    hidden: Any,
    obs: Any,
) -> None:
    """Write game ``g`` as seen from ``seat`` into ``obs[g]`` with the tensor's writer."""
    _write_observation(
        obs[g], _BY, n, seat, must_draw, dragon_min, state[g, TO_MOVE], state[g, COOK],
        state[g, PENDING] != 0, DECK_SIZE - state[g, TOP], state[g, ROUND],
        state[g, TURNS_LEFT], table[g], king[g], removed[g], state[g, REMOVED_DRAGONS],
        state[g, REMOVED_UNSEEN], takes[g], draws[g], hidden[g], True, False,
    )


@_uncounted
def reset_games(
    n: int,
    first_cook: int,
    must_draw: bool,
    dragon_min: int,
    policy: Any,
    seed: Any,
    decks: Any,
    use_decks: bool,
    deck: Any,
    table: Any,
    king: Any,
    takes: Any,
    draws: Any,
    removed: Any,
    state: Any,
    hidden: Any,
    rng: Any,
    obs: Any,
    mask: Any,
    legal: Any,
    served: Any,
    known: Any,
    scratch: Any,
    fresh: Any,
) -> None:
    """Deal every game anew; game ``g`` of a seed is always the same game. Built-in seats
    play until a caller's seat is to move; its observation and mask are written."""
    seed_word = np.uint64(seed)
    for g in range(deck.shape[0]):
        rng[g] = _splitmix(seed_word ^ _splitmix(np.uint64(g)))
        _deal(g, n, first_cook, deck, table, king, takes, draws, removed, state, hidden, rng,
              decks, use_decks, fresh)  # fmt: skip
        _until_caller(g, n, first_cook, must_draw, dragon_min, policy, decks, use_decks,
                      deck, table, king, takes, draws, removed, state, hidden, rng, legal, served,
                      scratch, fresh)  # fmt: skip
        _write(g, n, must_draw, dragon_min, table, king, takes, draws, removed, state,
               hidden, obs, mask, known)  # fmt: skip


@njit(cache=True, inline="always")
def _until_caller(
    g: int,
    n: int,
    first_cook: int,
    must_draw: bool,
    dragon_min: int,
    policy: Any,
    decks: Any,
    use_decks: bool,
    deck: Any,
    table: Any,
    king: Any,
    takes: Any,
    draws: Any,
    removed: Any,
    state: Any,
    hidden: Any,
    rng: Any,
    legal: Any,
    served: Any,
    scratch: Any,
    fresh: Any,
) -> bool:
    """Let the built-in seats of game ``g`` move until a caller's seat is to move. Returns
    True if the game ended meanwhile (it is then left over, not dealt again)."""
    while True:
        seat = state[g, TO_MOVE]
        if seat < 0:
            return True
        code = policy[seat]
        if code == CALLER:
            return False
        if code == POLICY_GREEDY:
            count = _legal(g, legal, table, king, state, must_draw, dragon_min)
            action, s = _greedy_bot(
                legal, count, table[g], king[g], takes[g], draws[g], removed[g],
                state[g, REMOVED_DRAGONS], state[g, PENDING] != 0, seat, n, served, scratch,
                rng[g],
            )
            rng[g] = s
        elif code in (POLICY_HEURISTIC, POLICY_MEDIUM):
            count = _legal(g, legal, table, king, state, must_draw, dragon_min)
            action, s = _card_counter_bot(
                legal, count, table[g], king[g], takes[g], draws[g], removed[g],
                state[g, REMOVED_DRAGONS], state[g, PENDING] != 0, seat, n,
                state[g, TURNS_LEFT], DECK_SIZE - state[g, TOP], scratch,
                MEDIUM_SLIPS if code == POLICY_MEDIUM else 0.0, rng[g],
            )
            rng[g] = s
        elif code == POLICY_PLAIN_GREEDY:
            count = _legal(g, legal, table, king, state, must_draw, dragon_min)
            action = _greedy(legal, count, table[g], king[g], takes[g], draws[g], seat, served)
        else:  # uniform among the legal actions sorted by id, as the batch kernel's random
            bits = _legal_bits(g, table, king, state, must_draw, dragon_min)
            count = 0
            rest = bits
            while rest:
                rest &= rest - 1
                count += 1
            s = _next(rng[g])
            rng[g] = s
            pick = _below(s, count)
            action = 0
            while True:
                if (bits >> action) & 1:
                    if pick == 0:
                        break
                    pick -= 1
                action += 1
        if _act(g, n, action, deck, table, king, takes, draws, removed, state, hidden, rng,
                use_decks):
            return True


@njit(cache=True, inline="always")
def _write(
    g: int,
    n: int,
    must_draw: bool,
    dragon_min: int,
    table: Any,
    king: Any,
    takes: Any,
    draws: Any,
    removed: Any,
    state: Any,
    hidden: Any,
    obs: Any,
    mask: Any,
    known: Any,
) -> None:
    """The mover's observation and legal-action mask for game ``g``; ``known[g]`` keeps the
    mask as bits, the kernel's own copy (the caller may write into ``mask``)."""
    seat = state[g, TO_MOVE]
    if seat < 0:
        mask[g, :] = False
        known[g] = 0
        return
    _observe(
        g, n, seat, must_draw, dragon_min, table, king, takes, draws, removed, state, hidden, obs
    )
    bits = _legal_bits(g, table, king, state, must_draw, dragon_min)
    known[g] = bits
    for a in range(mask.shape[1]):
        mask[g, a] = (bits >> a) & 1


@_uncounted
def step_games(
    n: int,
    first_cook: int,
    must_draw: bool,
    dragon_min: int,
    policy: Any,
    actions: Any,
    autoreset: bool,
    decks: Any,
    use_decks: bool,
    deck: Any,
    table: Any,
    king: Any,
    takes: Any,
    draws: Any,
    removed: Any,
    state: Any,
    hidden: Any,
    rng: Any,
    obs: Any,
    mask: Any,
    rewards: Any,
    done: Any,
    illegal: Any,
    points: Any,
    discarded: Any,
    legal: Any,
    served: Any,
    known: Any,
    scratch: Any,
    fresh: Any,
) -> None:
    """One action for every game's mover (a caller's seat); then the built-in seats, until a
    caller's seat is to move again or the game ends.

    An action that is not legal is replaced by the lowest legal id and flagged in
    ``illegal``. At a game's end ``rewards[g]`` holds every seat's rank utility and
    ``points``/``discarded`` its R11 result; with ``autoreset`` the game is dealt again at
    once (a deck of its own stream; ``decks`` row ``g`` again when given) and the returned
    observation is the new game's.
    """
    for g in range(deck.shape[0]):
        done[g] = False
        illegal[g] = False
        for seat in range(n):
            rewards[g, seat] = 0.0
        if state[g, TO_MOVE] < 0:  # over and not reset: nothing to do
            done[g] = True
            continue
        action = actions[g]
        # the legal set was worked out for this mover when its observation was written
        bits = known[g]
        if action < 0 or action >= 38 or not (bits >> action) & 1:
            illegal[g] = True
            action = 0
            while not (bits >> action) & 1:
                action += 1
        over = _act(g, n, action, deck, table, king, takes, draws, removed, state, hidden,
                    rng, use_decks)  # fmt: skip
        if not over:
            over = _until_caller(g, n, first_cook, must_draw, dragon_min, policy, decks,
                                 use_decks, deck, table, king, takes, draws, removed, state,
                                 hidden, rng, legal, served, scratch, fresh)  # fmt: skip
        if over:
            done[g] = True
            _score(g, n, king, takes, draws, points, discarded)
            for seat in range(n):
                rewards[g, seat] = _rank(points[g], discarded[g], n, seat)
            if autoreset:
                _deal(g, n, first_cook, deck, table, king, takes, draws, removed, state,
                      hidden, rng, decks, use_decks, fresh)  # fmt: skip
                _until_caller(g, n, first_cook, must_draw, dragon_min, policy, decks,
                              use_decks, deck, table, king, takes, draws, removed, state,
                              hidden, rng, legal, served, scratch, fresh)  # fmt: skip
        _write(g, n, must_draw, dragon_min, table, king, takes, draws, removed, state,
               hidden, obs, mask, known)  # fmt: skip
