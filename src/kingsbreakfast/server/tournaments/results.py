"""What one finished tournament game gives each player (R11, R12), and nothing else.

A game is ranked by R12 (most points, then fewest cards discarded at scoring; still equal:
the win is shared) through the engine's own :func:`~kingsbreakfast.engine.places`, so the
tournament can never read a game differently from the table that played it.

Tournament points of a game are *pairwise*: one for each opponent at the table finished
ahead of, a half for each opponent finished level with (R12's shared place). A shared win
of ``k`` players is a win for each, counted as ``1/k`` of a win (they share it, R12).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from kingsbreakfast.engine import places


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's part of a finished game: who sat there (None: a house bot filling a
    bye), their R11 points and discards, and what the tournament makes of them."""

    entrant: int | None
    points: int
    discarded: int
    place: int
    score: Fraction
    """Tournament points: opponents beaten, plus a half per opponent level (R12)."""
    win: Fraction
    """1 for a win alone, ``1/k`` for a win shared by ``k`` (R12), else 0."""


def game_results(
    entrants: Sequence[int | None], points: Sequence[int], discarded: Sequence[int]
) -> list[SeatResult]:
    """Each seat's result, from the final points and discards of every seat (R11)."""
    ranks = places(list(points), list(discarded))
    winners = ranks.count(1)
    results: list[SeatResult] = []
    for seat, entrant in enumerate(entrants):
        beaten = sum(1 for other in ranks if other > ranks[seat])
        level = ranks.count(ranks[seat]) - 1
        results.append(SeatResult(
            entrant, points[seat], discarded[seat], ranks[seat],
            Fraction(beaten) + Fraction(level, 2),
            Fraction(1, winners) if ranks[seat] == 1 else Fraction(0),
        ))
    return results
