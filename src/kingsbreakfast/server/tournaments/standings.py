"""The standings of a tournament, recounted from its finished games every time they are
shown, so that they cannot drift from the games (docs/tournaments.md).

Order, best first:

Swiss
    tournament points (:mod:`.results`), wins (a shared win counts ``1/k``, R12),
    Buchholz (the sum of the final points of every opponent met, once per meeting; house
    bots count nothing), R11 points scored in all games, fewer cards discarded (R11), then
    the order of entry.
Arena
    arena points (:mod:`.arena`: streaks count double), wins, R11 points, fewer cards
    discarded, then the order of entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from .arena import arena_points
from .results import SeatResult

Kind = Literal["swiss", "arena"]


@dataclass(frozen=True, slots=True)
class Entry:
    """An entrant as standings need them: their number (order of entry), name, and whether
    a bot plays for them."""

    number: int
    name: str
    bot: bool = False


@dataclass(slots=True)
class Line:
    """One row of the standings."""

    entry: Entry
    points: Fraction = Fraction(0)
    wins: Fraction = Fraction(0)
    buchholz: Fraction = Fraction(0)
    scored: int = 0
    discarded: int = 0
    games: int = 0
    streak: int = 0
    opponents: list[int] = field(default_factory=list)
    rank: int = 0


def standings(
    kind: Kind, entries: Sequence[Entry], games: Sequence[Sequence[SeatResult]]
) -> list[Line]:
    """Every entrant's line, best first, from the finished ``games`` (in the order they
    finished); ``rank`` is shared by lines level on every tie-break but the entry order."""
    lines = {e.number: Line(e) for e in entries}
    played: dict[int, list[SeatResult]] = {e.number: [] for e in entries}
    for game in games:
        for result in game:
            if result.entrant is None or result.entrant not in lines:
                continue
            line = lines[result.entrant]
            played[result.entrant].append(result)
            line.games += 1
            line.wins += result.win
            line.scored += result.points
            line.discarded += result.discarded
            line.opponents.extend(
                r.entrant for r in game if r.entrant is not None and r is not result
            )
    for number, line in lines.items():
        if kind == "arena":
            line.points, line.streak = arena_points(played[number])
        else:
            line.points = sum((r.score for r in played[number]), Fraction(0))
    if kind == "swiss":
        for line in lines.values():
            line.buchholz = sum(
                (lines[o].points for o in line.opponents if o in lines), Fraction(0))

    def key(line: Line) -> tuple[Fraction, Fraction, Fraction, int, int]:
        return (-line.points, -line.wins, -line.buchholz, -line.scored, line.discarded)

    ordered = sorted(lines.values(), key=lambda line: (key(line), line.entry.number))
    for position, line in enumerate(ordered):
        earlier = ordered[position - 1] if position else None
        line.rank = earlier.rank if earlier is not None and key(earlier) == key(line) \
            else position + 1
    return ordered


def as_number(value: Fraction) -> float | int:
    """A score as JSON shows it: whole numbers whole, halves and shares as decimals."""
    return int(value) if value.denominator == 1 else round(float(value), 3)
