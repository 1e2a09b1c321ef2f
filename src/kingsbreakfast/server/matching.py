"""Play now: strangers waiting for a game of the same size and speed are seated together.

Each waiting group is a real table in the lobby (private: it is reached through play now, not
the open list), opened by its first player. A newcomer joins the group that suits them best:

- never a group they already sit in (one person, one seat: the same account or the same
  browser gets its own seat back), nor one holding a player they muted or who muted them
  (players name whom they muted; names compare case-insensitively);
- an account prefers a group whose accounts' mean rating (μ − 3σ) lies within
  :data:`RATING_BAND` of its own: when enough players wait, they play their equals; failing
  that, any group that suits them (so nobody waits longer for being rated);
- a guest joins any group that suits them, oldest first.

A group starts as soon as its table is full, or at its deadline (:data:`WAIT` seconds after it
opened, said on the waiting page) with bots in the empty seats.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Final

SPEEDS: Final = {"live": 60, "turn": 86400}
"""The turn clock of each speed: a minute a move live, a day a move turn-based."""
WAIT: Final = float(os.environ.get("KINGSBREAKFAST_PLAY_NOW_WAIT", "30"))
"""How long a group waits for strangers before bots fill its empty seats (seconds)."""
RATING_BAND: Final = 5.0
"""How far apart (in μ − 3σ) two accounts may be to count as equals."""
BOT_LEVEL: Final = "medium"


@dataclass(slots=True)
class Member:
    seat: int
    token: str
    name: str
    account: int | None
    rating: float | None
    avoids: frozenset[str]
    """Lower-cased names this player muted."""


@dataclass(slots=True)
class Group:
    table: str
    seats: int
    speed: str
    deadline: float
    """Wall-clock seconds: when the bots fill the empty seats."""
    members: list[Member] = field(default_factory=list)

    def rating(self) -> float | None:
        rated = [m.rating for m in self.members if m.rating is not None]
        return sum(rated) / len(rated) if rated else None

    def suits(self, name: str, account: int | None, avoids: frozenset[str]) -> bool:
        lowered = name.casefold()
        for member in self.members:
            if account is not None and member.account == account:
                return False
            if member.name.casefold() in avoids or lowered in member.avoids:
                return False
        return len(self.members) < self.seats

    def in_band(self, rating: float | None) -> bool:
        mean = self.rating()
        return rating is not None and mean is not None and abs(mean - rating) <= RATING_BAND


@dataclass(slots=True)
class Pool:
    """Every waiting group of this process, by table id."""

    groups: dict[str, Group] = field(default_factory=dict)

    def choose(
        self, seats: int, speed: str, name: str, account: int | None, rating: float | None,
        avoids: frozenset[str],
    ) -> Group | None:
        """The group a newcomer joins, or None when a new one must open."""
        fitting = [
            g for g in self.groups.values()
            if g.seats == seats and g.speed == speed and g.suits(name, account, avoids)
        ]
        if not fitting:
            return None
        fitting.sort(key=lambda g: g.deadline)
        return next((g for g in fitting if g.in_band(rating)), fitting[0])

    def open(self, table: str, seats: int, speed: str) -> Group:
        group = Group(table, seats, speed, time.time() + WAIT)
        self.groups[table] = group
        return group

    def close(self, table: str) -> Group | None:
        return self.groups.pop(table, None)
