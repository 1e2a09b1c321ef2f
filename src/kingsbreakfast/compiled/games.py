"""The record of the compiled games and the tools every kernel shares: :class:`Games` (one
row of numpy arrays per game), :func:`new_games`, the two ways a kernel function is compiled
(:func:`uncounted`, :func:`small`) and the games' random streams.

The rules that play on this record are :mod:`.rules`; they are held equal to
:mod:`kingsbreakfast.engine` by the differential tests (``tests/sim/test_batch_differential.py``
and the others named there).

**The state record** is :class:`Games`, one named tuple of numpy arrays whose row ``g`` is
game ``g`` (the batch simulator reuses one row game after game, the vector games keep one
row per game between calls), with the variant switches and the number of players beside
them. A tuple is the cheapest record numba has: it is typed at once from its fields (a
jitclass or structref costs seconds of compiling for every function that takes it, and
neither caches as simply), it passes by reference to every compiled function without
reference counting (the drivers run with numba's reference counting off), and Python
reads the same arrays as numpy between calls, which the vector environment needs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar, cast

import numpy as np
from numba import njit

from kingsbreakfast.engine import DECK_SIZE, DRAGON, FEED_PAIRS, NUM_DISHES, UNSHUFFLED_DECK

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
    every action (:func:`.rules.legal`, :func:`.rules.step`, :func:`.rules.observe`), since
    a call hands the whole record over, field by field (about a hundred machine words),
    which at every action would cost a third of the time. Each caller compiles them again,
    which is what a cold start pays for, so the larger functions stay :func:`uncounted`
    calls. numba's cache checks a function against its own file only, so a caller's cached
    copy of an inlined function is not renewed when the inlined function's file changes:
    empty the cache after editing one."""
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
