"""The rules of King's Breakfast compiled by numba: the one copy the fast simulators play.

The batch simulator (:mod:`._batch_kernel`), the vectorized games (:mod:`._vector_kernel`)
and the master bot's self-play (:mod:`._master_kernel`) are thin drivers over this module:
they deal with :func:`deal`, ask :func:`legal` for the legal actions, play one with
:func:`step` (in a loop: :func:`legal_bits` and :func:`advance`, below), and score a
finished game with :func:`score` and :func:`rank`; built-in seats move in the one game loop
of :mod:`._policy_kernel`. Nothing else in compiled code reads
the rules, so a change to docs/rules.md is made here once (and in the engine), and every
variant (R5a's ``must_draw``, R8's ``dragon_min_on_table``) works in every driver.

It must agree with :mod:`kingsbreakfast.engine` card for card and action for action; the
differential tests (``tests/sim/test_batch_differential.py``,
``tests/sim/test_vector_differential.py``, ``tests/sim/test_master_kernel_differential.py``)
replay its games in the engine. Card numbers, action ids and sizes are the engine's own
constants, so an action chosen here by its index among the legal actions is the action the
engine would choose.

**The state record** is :class:`Games`, one named tuple of numpy arrays whose row ``g`` is
game ``g`` (the batch simulator reuses one row game after game, the vector games keep one
row per game between calls), with the variant switches and the number of players beside
them. A tuple is the cheapest record numba has: it is typed at once from its fields (a
jitclass or structref costs seconds of compiling for every function that takes it, and
neither caches as simply), it passes by reference to every compiled function without
reference counting (the drivers run with numba's reference counting off), and Python
reads the same arrays as numpy between calls, which the vector environment needs.

**In a loop** the numbers of a row that change at almost every action (the mover, the top
of the deck, the dishes on the table, the feeds the king allows, the random state…) are
held as a :class:`Turn` in registers: :func:`load` reads them, :func:`advance` plays an
action on them (and on the row's arrays), :func:`store` writes them back, and
:func:`legal_bits` reads legality from them. :func:`step` and :func:`legal` are the same
functions for one action on a row; so there is still one spelling of each, while the game
loop runs as fast as scalar code (its state kept in memory cost a tenth of the speed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar, cast

import numpy as np
from numba import njit

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
    UNSHUFFLED_DECK,
)
from kingsbreakfast.tensor import observation, utility

CARDS_PER_DISH = UNSHUFFLED_DECK.count(0)
NUM_DRAGONS = UNSHUFFLED_DECK.count(DRAGON)
NUM_FEEDS = len(FEED_PAIRS)
OVER = -1
"""``state[g, TO_MOVE]`` once game ``g`` is over (R10): no seat moves."""

# Columns of the per-game integer state, ``Games.state[g]``.
STATE_COLUMNS = 11
TOP, PENDING, COOK, ROUND, TURNS_LEFT, TO_MOVE = range(6)
REMOVED_DRAGONS, REMOVED_UNSEEN, ON_TABLE, FEEDS, ACTIONS = range(6, STATE_COLUMNS)
"""TOP: cards of the deck read; PENDING: the mover drew a dragon (R7a); COOK; ROUND (1 =
first); TURNS_LEFT in this round, the current one included; TO_MOVE (or OVER); the dragons
used and the cards put away unseen at the end (R10); ON_TABLE: bit d set while dish d lies
on the table; FEEDS: bit f set for each feed pair f the king's plate allows (R8), kept as
the king changes; ACTIONS played so far."""

MAX_ACTIONS = 64
"""More actions than any game can have: at most 18 rounds of 3 turns (or 11 of 5) plus one
extra action for each of the 5 dragons that can be drawn (R7a)."""


class Games(NamedTuple):
    """Games in rows: row ``g`` of every array is game ``g`` (see the module doc)."""

    n: int
    """Players (R2): the same for every row."""
    must_draw: bool
    """R5a's variant: with nothing on the table and cards in the deck, the mover must draw."""
    dragon_min: int
    """R8's variant: dragons needed on the table before one may be fed from it."""
    use_decks: bool
    """Deal row ``g``'s deck from ``decks``; else shuffle lazily from the game's stream."""
    decks: Any
    """(rows or 1, 110) given decks, top first."""
    fresh: Any
    """(110,) the unshuffled deck (R1)."""
    deck: Any
    """(rows, 110) int8: each game's deck; cards before ``TOP`` are read."""
    table: Any
    """(rows, 8): dish cards on the table, then the dragons on it."""
    king: Any
    """(rows, 7): the king's plate."""
    takes: Any
    """(rows, n, 7): cards taken from the table (R6), public."""
    draws: Any
    """(rows, n, 7): dish cards drawn (R7), hidden from the others."""
    removed: Any
    """(rows, 7): the king's cards the dragons took (R8)."""
    hidden: Any
    """(rows, n): how many dish cards each seat drew (public, R7b)."""
    state: Any
    """(rows, STATE_COLUMNS) int64: the columns above."""
    rng: Any
    """(rows,) uint64: each game's random stream (xorshift64, never 0)."""


def new_games(
    rows: int, n: int, must_draw: bool, dragon_min: int, decks: Any = None
) -> Games:
    """Room for ``rows`` games of ``n`` players, every row over until dealt."""
    state = np.zeros((rows, STATE_COLUMNS), np.int64)
    state[:, TO_MOVE] = OVER
    return Games(
        n, bool(must_draw), int(dragon_min), decks is not None,
        np.zeros((1, DECK_SIZE), np.int8) if decks is None else decks,
        np.array(UNSHUFFLED_DECK, np.int8),
        np.zeros((rows, DECK_SIZE), np.int8),
        np.zeros((rows, NUM_DISHES + 1), np.int64),
        np.zeros((rows, NUM_DISHES), np.int64),
        np.zeros((rows, n, NUM_DISHES), np.int64),
        np.zeros((rows, n, NUM_DISHES), np.int64),
        np.zeros((rows, NUM_DISHES), np.int64),
        np.zeros((rows, n), np.int64),
        state,
        np.ones(rows, np.uint64),
    )


_F = TypeVar("_F", bound=Callable[..., Any])


def uncounted(function: _F) -> _F:
    """Compile without numba's reference counting of arrays: every array handed to a
    function or sliced into a row costs two atomic operations otherwise, which in these
    loops is most of the time. Only for functions that allocate nothing (their scratch
    arrays come from the caller), so nothing needs counting. Each such function is compiled
    once, on first use, and cached: a driver compiles only the functions it calls."""
    compile_: Any = njit
    return cast(_F, compile_(cache=True, error_model="numpy", _nrt=False)(function))


def small(function: _F) -> _F:
    """Inlined by numba into every caller: the few lines of a helper, and the functions of
    every action (:func:`legal`, :func:`step`, :func:`observe`), since a call hands the
    whole record over, field by field (about a hundred machine words), which at every action
    would cost a third of the time. Each caller compiles them again, which is what a cold
    start pays for, so the larger functions stay :func:`uncounted` calls. numba's cache
    checks a function against its own file only, so a caller's cached copy of an inlined
    function is not renewed when this file changes: empty the cache after editing it."""
    compile_: Any = njit
    return cast(_F, compile_(cache=True, inline="always")(function))


# --- random streams -----------------------------------------------------------------------

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_STAR = np.uint64(0x2545F4914F6CDD1D)


@small
def splitmix(x: Any) -> Any:
    """A well-mixed 64-bit word from a seed (SplitMix64 finaliser): one stream per game."""
    z = x + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    if z == np.uint64(0):
        z = _GOLDEN
    return z


@small
def next_word(s: Any) -> Any:
    """xorshift64 step (the state is never 0)."""
    s ^= s << np.uint64(13)
    s ^= s >> np.uint64(7)
    s ^= s << np.uint64(17)
    return s


@small
def below(s: Any, n: int) -> int:
    """A number in [0, n) from the high 32 bits of the scrambled state (xorshift64*)."""
    return int((((s * _STAR) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@small
def game_stream(seed: Any, g: int) -> Any:
    """Game ``g``'s own stream of a seed: the same game whatever the batch around it."""
    return splitmix(seed ^ splitmix(np.uint64(g)))


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
def _king_feeds(king: Any) -> int:
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
        feeds = _king_feeds(king)
    n = games.n
    turns_left = turn.turns_left - 1
    if turns_left > 0:  # R5: the player to the left
        seat = seat + 1 if seat + 1 < n else 0
        return False, Turn(seat, top, pending, turns_left, on_table, feeds, actions, s)
    # R9: the king is served the table's dishes (dragons stay); R3: the deck passes left
    for d in range(NUM_DISHES):
        king[d] += table[d]
        table[d] = 0
    feeds = _king_feeds(king)
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
