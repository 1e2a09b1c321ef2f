"""Swiss pairing for tables of 3 to 5 (R2): each round, players of like score sit together,
and nobody meets an opponent again when another seating avoids it.

A round seats *every* entrant: the entrants are split into as few tables as the seat count
allows, their sizes as even as possible, and every seat left over is a *bye* that a house
bot fills (the bot is no entrant: it is never ranked, and the players at its table score
against it as against anyone, docs/tournaments.md). The seating is found by a bounded
branch-and-bound search that minimises first the number of repeated meetings (each pair
of entrants at one table who have met before counts once per earlier meeting), then how
far apart in the standings the players of one table are. Each table is started by the best
placed entrant not yet seated, whose companions are chosen among the next few in the
standings (:data:`WINDOW` tables' worth), so a large field stays quick; within that window
the search is exact unless it tries more than :data:`NODES` seatings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Final

WINDOW: Final = 3
"""Companions of a table's first player are sought among the next ``WINDOW × seats``."""
NODES: Final = 20_000
"""The most seatings the search tries before it keeps the best one found."""
REPEAT: Final = 10_000
"""What a repeated meeting costs against one place of distance in the standings."""


def table_sizes(entrants: int, seats: int) -> list[int]:
    """How many entrants sit at each table: as few tables as ``seats`` allows, sizes as
    even as possible, larger tables first (the byes go to the tables lower down)."""
    if entrants <= 0:
        return []
    tables = -(-entrants // seats)
    base, extra = divmod(entrants, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def meetings(pairs: Mapping[frozenset[int], int], table: Sequence[int]) -> int:
    """How many earlier meetings the players of one table have had with each other."""
    return sum(pairs.get(frozenset((a, b)), 0) for a, b in combinations(table, 2))


def pair_round(
    standing: Sequence[int], seats: int, met: Mapping[frozenset[int], int]
) -> list[list[int]]:
    """The tables of one round: ``standing`` is every entrant to seat, best placed first;
    ``met`` counts the earlier meetings of each pair. Each table lists its entrants (in
    standing order); ``seats`` minus its length is the number of house bots it gets."""
    order = {entrant: position for position, entrant in enumerate(standing)}
    search = _Search(order, seats, met)
    search.run(list(standing), sorted(table_sizes(len(standing), seats), reverse=True), [], 0)
    assert search.best is not None
    return search.best


class _Search:
    def __init__(
        self, order: dict[int, int], seats: int, met: Mapping[frozenset[int], int]
    ) -> None:
        self.order = order
        self.seats = seats
        self.met = met
        self.best: list[list[int]] | None = None
        self.best_cost = -1
        self.nodes = 0

    def cost(self, table: Sequence[int]) -> int:
        """Repeats first, then the spread in the standings beyond a contiguous run."""
        positions = [self.order[e] for e in table]
        spread = max(positions) - min(positions) - (len(table) - 1)
        return meetings(self.met, table) * REPEAT + spread

    def run(
        self, unseated: list[int], sizes: list[int], tables: list[list[int]], cost: int
    ) -> None:
        if self.best is not None and (cost >= self.best_cost or self.nodes >= NODES):
            return
        if not unseated:
            self.best, self.best_cost = [list(t) for t in tables], cost
            return
        first, rest = unseated[0], unseated[1:]
        window = rest[: WINDOW * self.seats]
        for size in sorted(set(sizes), reverse=True):
            left = list(sizes)
            left.remove(size)
            for companions in combinations(window, size - 1):
                self.nodes += 1
                table = [first, *companions]
                taken = set(companions)
                tables.append(table)
                self.run([e for e in rest if e not in taken], left, tables,
                         cost + self.cost(table))
                tables.pop()
                if self.best is not None and (self.best_cost == 0 or self.nodes >= NODES):
                    return
