"""The rules of King's Breakfast compiled by numba: the one copy the fast simulators play.

The batch simulator (:mod:`.batch`), the vectorized games (:mod:`.vector`)
and the master bot's self-play (:mod:`.network`) are thin drivers over this module:
they deal with :func:`deal`, ask :func:`legal` for the legal actions, play one with
:func:`step` (in a loop: :func:`legal_bits` and :func:`advance`, below), and score a
finished game with :func:`score` and :func:`rank`; built-in seats move in the one game loop
of :mod:`.policies`. Nothing else in compiled code reads
the rules, so a change to docs/rules.md is made here once (and in the engine), and every
variant (R5a's ``must_draw``, R8's ``dragon_min_on_table``) works in every driver.

It must agree with :mod:`kingsbreakfast.engine` card for card and action for action; the
differential tests (``tests/sim/test_batch_differential.py``,
``tests/sim/test_vector_differential.py``, ``tests/sim/test_master_kernel_differential.py``)
replay its games in the engine. Card numbers, action ids and sizes are the engine's own
constants, so an action chosen here by its index among the legal actions is the action the
engine would choose.

**The state record** is :class:`~.games.Games`, one named tuple of numpy arrays whose row
``g`` is game ``g`` (:mod:`.games`, with the games' random streams).

**In a loop** the numbers of a row that change at almost every action (the mover, the top
of the deck, the dishes on the table, the feeds the king allows, the random state…) are
held as a :class:`Turn` in registers: :func:`load` reads them, :func:`advance` plays an
action on them (and on the row's arrays), :func:`store` writes them back, and
:func:`legal_bits` reads legality from them. :func:`step` and :func:`legal` are the same
functions for one action on a row; so there is still one spelling of each, while the game
loop runs as fast as scalar code (its state kept in memory cost a tenth of the speed).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from kingsbreakfast.engine import (
    DECK_SIZE,
    DRAGON,
    DRAW_ID,
    FEED_PAIRS,
    FIRST_FEED_ID,
    NUM_ACTIONS,
    NUM_DISHES,
    PASS_ID,
    PLACE_DRAGON_ID,
)
from kingsbreakfast.tensor import observation, utility

from .games import (
    ACTIONS,
    COOK,
    FEEDS,
    NUM_FEEDS,
    ON_TABLE,
    OVER,
    PENDING,
    REMOVED_DRAGONS,
    REMOVED_UNSEEN,
    ROUND,
    TO_MOVE,
    TOP,
    TURNS_LEFT,
    Games,
    below,
    next_word,
    small,
    uncounted,
)

# --- tables -------------------------------------------------------------------------------

FEED_A = np.array([a for a, _ in FEED_PAIRS], np.int64)
FEED_B = np.array([b for _, b in FEED_PAIRS], np.int64)
"""FEED_PAIRS of the engine: feed id FIRST_FEED_ID + f removes dishes FEED_A[f], FEED_B[f]."""

_FEED_BITS = np.zeros(3**NUM_DISHES, np.int64)
"""_FEED_BITS[code]: bit f set for each feed pair f (R8) a king allows, by the king's plate
read as a number in base 3 (digit d: none, one or two and more of dish d), so that the
table is small enough to stay in the fastest cache (2,187 entries)."""
for _code in range(3**NUM_DISHES):
    _digits = [_code // 3**_d % 3 for _d in range(NUM_DISHES)]
    for _f, (_a, _b) in enumerate(FEED_PAIRS):
        if (_a == _b and _digits[_a] == 2) or (_a != _b and _digits[_a] and _digits[_b]):
            _FEED_BITS[_code] |= 1 << _f

_NTH_DISH = np.full((1 << NUM_DISHES, NUM_DISHES), -1, np.int64)
"""_NTH_DISH[mask, k]: the k-th dish (from 0, R1 order) whose bit is set in ``mask``: the
random policy's pick among the takes is looked up, not searched (a search loop's
unpredictable branches cost a third of the time)."""
for _mask in range(1 << NUM_DISHES):
    _present = [d for d in range(NUM_DISHES) if _mask >> d & 1]
    _NTH_DISH[_mask, : len(_present)] = _present
_POPCOUNT = np.array([bin(m).count("1") for m in range(1 << NUM_DISHES)], np.int64)
_BY = np.array(observation.SCALED, np.float32)
"""SCALED rounded to float32, the observations' type: stored without a conversion."""
_DISH_BITS = (1 << NUM_DISHES) - 1
_FEED_MASK = (1 << NUM_FEEDS) - 1


# --- the rules ----------------------------------------------------------------------------


@small
def _turn_up(games: Games, g: int, need: int, top: int, s: Any) -> tuple[int, int, Any]:
    """R4: turn up ``need`` cards onto the table. Without given decks the shuffle is lazy
    (each card is chosen among the unseen ones as it is turned up, so unread cards cost
    nothing); returns the new top of the deck, the dishes on the table as bits and the
    random state."""
    deck = games.deck[g]
    table = games.table[g]
    for _ in range(need):
        if not games.use_decks:
            s = next_word(s)
            j = top + below(s, DECK_SIZE - top)
            deck[top], deck[j] = deck[j], deck[top]
        table[deck[top]] += 1
        top += 1
    mask = 0
    for d in range(NUM_DISHES):
        if table[d] > 0:
            mask |= 1 << d
    return top, mask, s


@small
def king_feeds(king: Any) -> int:
    """The feed pairs the king's plate allows (R8), as bits: any two different dishes he
    has, or one he has twice."""
    code = 0
    for d in range(NUM_DISHES - 1, -1, -1):
        count = king[d]
        code = 3 * code + (2 if count >= 2 else count)
    return int(_FEED_BITS[code])


@uncounted
def deal(games: Games, g: int, deck_row: int, first_cook: int) -> None:
    """A new game in row ``g`` from its random stream ``games.rng[g]``: the deck (row
    ``deck_row`` of the given decks, or the fresh deck shuffled lazily), the first cook
    (given, or drawn from the stream when negative), the first table (R2, R4)."""
    n = games.n
    deck = games.deck[g]
    for c in range(DECK_SIZE):
        deck[c] = games.decks[deck_row, c] if games.use_decks else games.fresh[c]
    games.table[g, :] = 0
    games.king[g, :] = 0
    games.takes[g, :, :] = 0
    games.draws[g, :, :] = 0
    games.removed[g, :] = 0
    games.hidden[g, :] = 0
    state = games.state[g]
    state[:] = 0
    s = games.rng[g]
    cook = first_cook
    if cook < 0:
        s = next_word(s)
        cook = below(s, n)
    top, on_table, s = _turn_up(games, g, 2 * n, 0, s)
    games.rng[g] = s
    state[TOP] = top
    state[ON_TABLE] = on_table
    state[COOK] = cook
    state[ROUND] = 1
    state[TURNS_LEFT] = n
    state[TO_MOVE] = cook


@small
def legal_bits(
    must_draw: bool, dragon_min: int, pending: int, feeds: int, on_table: int, top: int,
    table_dragons: int,
) -> int:
    """The legal actions of a mover, as bits of action ids (R5–R8, R5a, R5b, R7a and both
    variants), from the few numbers they depend on: the one spelling of legality in
    compiled code. The game loop keeps those numbers in registers (:class:`Turn`);
    :func:`legal` reads them from a row."""
    if pending != 0:  # R7a: use the drawn dragon or place it
        return (1 << PLACE_DRAGON_ID) | (feeds << FIRST_FEED_ID)
    bits = on_table
    can_draw = top < DECK_SIZE
    if can_draw:
        bits |= 1 << DRAW_ID
    # R8 with the variant's dragons, and R5a: must_draw forbids a feed instead of a draw
    if table_dragons >= dragon_min and not (must_draw and can_draw and on_table == 0):
        bits |= feeds << FIRST_FEED_ID
    if bits == 0:  # R5b: pass only when nothing else is legal
        bits = 1 << PASS_ID
    return bits


@small
def legal(games: Games, g: int) -> int:
    """The legal actions of game ``g``'s mover, as bits of action ids (:func:`legal_bits`)."""
    state = games.state[g]
    return legal_bits(
        games.must_draw, games.dragon_min, state[PENDING], state[FEEDS], state[ON_TABLE],
        state[TOP], games.table[g, DRAGON],
    )


@small
def count_legal(bits: int) -> int:
    """How many actions the bits of :func:`legal` hold."""
    count = int(_POPCOUNT[bits & _DISH_BITS])
    rest = bits >> NUM_DISHES
    while rest:
        rest &= rest - 1
        count += 1
    return count


@small
def nth_legal(bits: int, k: int) -> int:
    """The ``k``-th legal action (from 0) in id order: the engine's order of the legal list."""
    takes = int(_POPCOUNT[bits & _DISH_BITS])
    if k < takes:
        return int(_NTH_DISH[bits & _DISH_BITS, k])
    k -= takes
    action = NUM_DISHES
    rest = bits >> NUM_DISHES
    while True:
        if rest & 1:
            if k == 0:
                return action
            k -= 1
        rest >>= 1
        action += 1


@small
def list_legal(bits: int, out: Any) -> int:
    """Write the actions of ``bits`` into ``out`` in id order; returns how many."""
    count = 0
    for action in range(NUM_ACTIONS):
        if (bits >> action) & 1:
            out[count] = action
            count += 1
    return count


class Turn(NamedTuple):
    """The numbers of a game's row that change at almost every action, held in registers
    while a loop plays: :func:`load` reads them from the row, :func:`advance` plays an
    action on them, :func:`store` writes them back. In memory, every store to the row could
    change any other array as far as the compiler knows (they are all integers), so each
    action would read the whole state again; in registers it costs nothing."""

    to_move: int
    top: int
    pending: int
    turns_left: int
    on_table: int
    feeds: int
    actions: int
    s: Any
    """The game's random state."""


@small
def load(games: Games, g: int) -> Turn:
    """The :class:`Turn` numbers of row ``g``."""
    state = games.state[g]
    return Turn(
        state[TO_MOVE], state[TOP], state[PENDING], state[TURNS_LEFT], state[ON_TABLE],
        state[FEEDS], state[ACTIONS], games.rng[g],
    )


@small
def store(games: Games, g: int, turn: Turn) -> None:
    """Write the :class:`Turn` numbers back into row ``g``."""
    state = games.state[g]
    state[TO_MOVE] = turn.to_move
    state[TOP] = turn.top
    state[PENDING] = turn.pending
    state[TURNS_LEFT] = turn.turns_left
    state[ON_TABLE] = turn.on_table
    state[FEEDS] = turn.feeds
    state[ACTIONS] = turn.actions
    games.rng[g] = turn.s


@small
def advance(games: Games, g: int, turn: Turn, action: int) -> tuple[bool, Turn]:
    """Play one legal action of game ``g``'s mover (R6, R7, R7a, R8, R5b), then pass the
    turn on (R5) or end the round (R9, R3, R4) and perhaps the game (R10). The numbers of
    ``turn`` stand for their columns of the row (which are stale meanwhile); the rest of
    the row is played in place. Returns (the game is over, the new numbers)."""
    seat = turn.to_move
    top = turn.top
    pending = turn.pending
    on_table = turn.on_table
    feeds = turn.feeds
    s = turn.s
    actions = turn.actions + 1
    table = games.table[g]
    king = games.king[g]
    if action < NUM_DISHES:  # R6: take all of one dish
        games.takes[g, seat, action] += table[action]
        table[action] = 0
        on_table &= ~(1 << action)
    elif action == DRAW_ID:  # R7: the top card, unseen by the others
        deck = games.deck[g]
        if not games.use_decks:
            s = next_word(s)
            j = top + below(s, DECK_SIZE - top)
            deck[top], deck[j] = deck[j], deck[top]
        card = deck[top]
        top += 1
        if card == DRAGON:  # R7a: shown; the same player uses or places it now
            return False, Turn(seat, top, 1, turn.turns_left, on_table, feeds, actions, s)
        games.draws[g, seat, card] += 1
        games.hidden[g, seat] += 1
    elif action == PLACE_DRAGON_ID:  # R7a: the drawn dragon goes to the table
        pending = 0
        table[DRAGON] += 1
    elif action != PASS_ID:  # R7a/R8: a dragon and two of the king's dishes leave
        f = action - FIRST_FEED_ID
        a = FEED_A[f]
        b = FEED_B[f]
        king[a] -= 1
        king[b] -= 1
        games.removed[g, a] += 1
        games.removed[g, b] += 1
        games.state[g, REMOVED_DRAGONS] += 1
        if pending != 0:
            pending = 0
        else:
            table[DRAGON] -= 1
        feeds = king_feeds(king)
    n = games.n
    turns_left = turn.turns_left - 1
    if turns_left > 0:  # R5: the player to the left
        seat = seat + 1 if seat + 1 < n else 0
        return False, Turn(seat, top, pending, turns_left, on_table, feeds, actions, s)
    # R9: the king is served the table's dishes (dragons stay); R3: the deck passes left
    for d in range(NUM_DISHES):
        king[d] += table[d]
        table[d] = 0
    feeds = king_feeds(king)
    state = games.state[g]
    cook = state[COOK] + 1
    if cook == n:
        cook = 0
    state[COOK] = cook
    if DECK_SIZE - top < 2 * n:  # R10: too few cards for a new table
        state[REMOVED_UNSEEN] = DECK_SIZE - top
        return True, Turn(OVER, DECK_SIZE, pending, 0, 0, feeds, actions, s)
    top, on_table, s = _turn_up(games, g, 2 * n, top, s)  # R4
    state[ROUND] += 1
    return False, Turn(cook, top, pending, n, on_table, feeds, actions, s)


@small
def step(games: Games, g: int, action: int) -> bool:
    """Play one legal action of game ``g``'s mover in its row (:func:`advance`). Returns
    True when the game is over."""
    over, turn = advance(games, g, load(games, g), action)
    store(games, g, turn)
    return over


@small
def points_discards(held: int, king_count: int) -> tuple[int, int]:
    """R11 for one dish: (points, discarded cards). Every kernel scores through this."""
    if held > king_count:
        return 0, held
    return held * king_count, 0


@small
def score(games: Games, g: int, points: Any, discarded: Any) -> None:
    """R11 for every seat of game ``g`` into ``points[seat]`` and ``discarded[seat]``."""
    for seat in range(games.n):
        p = 0
        x = 0
        for d in range(NUM_DISHES):
            held = games.takes[g, seat, d] + games.draws[g, seat, d]
            dish_p, dish_x = points_discards(held, games.king[g, d])
            p += dish_p
            x += dish_x
        points[seat] = p
        discarded[seat] = x


rank = small(utility.rank)
"""The R12 ``rank`` utility of one seat, compiled from kingsbreakfast.tensor.utility.rank:
(seats ranked below − seats above) / (n − 1). The winners (R12) are exactly the seats of
the highest rank, so the kernels find them through it too."""

_write_observation = small(observation.write_observation)


@small
def observe(games: Games, g: int, seat: int, out: Any) -> None:
    """The view tensor of game ``g`` as ``seat`` sees it (kingsbreakfast.tensor's writer,
    compiled), into ``out``."""
    state = games.state[g]
    _write_observation(
        out, _BY, games.n, seat, games.must_draw, games.dragon_min, state[TO_MOVE],
        state[COOK], state[PENDING] != 0, DECK_SIZE - state[TOP], state[ROUND],
        state[TURNS_LEFT], games.table[g], games.king[g], games.removed[g],
        state[REMOVED_DRAGONS], state[REMOVED_UNSEEN], games.takes[g], games.draws[g],
        games.hidden[g], True, state[TO_MOVE] == OVER,
    )
