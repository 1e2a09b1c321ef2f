"""Play now: strangers waiting for a game of the same size and speed are seated together.

Each waiting group is a real table in the lobby (private: it is reached through play now, not
the open list), opened by its first player; the groups and who waits in them are one pool for
the whole site, kept in the database (:mod:`.play_pool`). A newcomer joins the group that
suits them best:

- never a group they already sit in (one person, one seat: the same account or the same
  browser gets its own seat back), nor one holding a player they muted or who muted them
  (players name whom they muted; names compare case-insensitively); strangers who chose
  the same name sit together, told apart at the table (``Alex (2)``);
- an account prefers a group whose accounts' mean rating (μ − 3σ) lies within
  :data:`RATING_BAND` of its own: when enough players wait, they play their equals; failing
  that, any group that suits them (so nobody waits longer for being rated);
- a guest joins any group that suits them, oldest first.

A seat is only reserved until its player's socket reaches the table: one that does not
arrive within :data:`ARRIVAL` seconds is given back, so nobody holds seats for absent people.
A group starts as soon as its table is full of present players, or at its deadline
(:data:`WAIT` seconds after it opened, said on the waiting page) with bots in the empty seats.
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
ARRIVAL: Final = float(os.environ.get("KINGSBREAKFAST_PLAY_NOW_ARRIVAL", "5"))
"""How long a reserved seat waits for its player's socket before it is given back (seconds)."""
RATING_BAND: Final = 5.0
"""How far apart (in μ − 3σ) two accounts may be to count as equals."""
BOT_LEVEL: Final = "medium"


@dataclass(slots=True)
class Member:
    seat: int
    token: str
    """The digest of the seat's token (the pool never holds a token in clear)."""
    name: str
    account: int | None
    rating: float | None
    avoids: frozenset[str]
    """Lower-cased names this player muted."""
    present: bool = False
    """Their socket reached the table (until then the seat is only reserved)."""


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
    """Waiting groups by table id (read from the site's pool for one choice)."""

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

    def open(self, table: str, seats: int, speed: str, deadline: float | None = None) -> Group:
        group = Group(table, seats, speed, time.time() + WAIT if deadline is None else deadline)
        self.groups[table] = group
        return group

    def close(self, table: str) -> Group | None:
        return self.groups.pop(table, None)
