"""The arena: a fixed window of time, entrants come and go as they like, and a new table
is dealt as soon as enough of them are free.

Free entrants are seated in the order they became free; each table is started by the one
waiting longest, who is given, among those waiting, the players they did not just play
with first. Scoring (docs/tournaments.md): a game gives the pairwise points of
:mod:`.results`; after two wins in a row (a shared win counts, R12) every further game
counts double until a game without a win ends the streak.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from .results import SeatResult

STREAK = 2
"""Wins in a row after which games count double."""


def arena_tables(
    free: Sequence[int], seats: int, last: Mapping[int, frozenset[int]]
) -> list[list[int]]:
    """Tables of ``seats`` entrants from ``free`` (longest waiting first); ``last`` holds
    each entrant's opponents of their last game. Whoever is left over waits."""
    waiting = list(free)
    tables: list[list[int]] = []
    while len(waiting) >= seats:
        first = waiting.pop(0)
        recent = last.get(first, frozenset())
        others = sorted(waiting, key=lambda e: (e in recent, waiting.index(e)))
        table = [first, *others[: seats - 1]]
        for entrant in table[1:]:
            waiting.remove(entrant)
        tables.append(table)
    return tables


def arena_points(games: Sequence[SeatResult]) -> tuple[Fraction, int]:
    """One entrant's arena points from their games in the order they finished, and their
    longest streak of wins."""
    points = Fraction(0)
    streak = longest = 0
    for game in games:
        points += game.score * (2 if streak >= STREAK else 1)
        streak = streak + 1 if game.win > 0 else 0
        longest = max(longest, streak)
    return points, longest
