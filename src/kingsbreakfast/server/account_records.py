"""What the account store hands out: an account, a name's failed log-ins, one finished game
of an account, its totals, a line of a table's chat; plain frozen values, read from the
database by :mod:`.account_store` and never written back through them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

START_MU = 25.0
START_SIGMA = 25.0 / 3.0
"""A new account's rating: OpenSkill's usual start (docs/accounts.md)."""


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    name: str
    password_hash: str
    mu: float
    sigma: float
    rated_games: int
    opponents: int = 0


@dataclass(frozen=True, slots=True)
class Failures:
    """Wrong passwords in a row for one name from one address (or from all, ``address``
    empty), since when, and until when that address is held back."""

    failures: int = 0
    since: float = 0.0
    locked_until: float = 0.0


@dataclass(frozen=True, slots=True)
class Result:
    """One account's finished game, as written once its game ends."""

    game_id: str
    account_id: int
    seat: int
    num_seats: int
    place: int
    won: bool
    points: int
    favourite: str | None
    rated: bool
    mu: float
    sigma: float
    finished_at: datetime
    established: bool = False
    """The account was established when the game began (it counts as an opponent)."""
    left_early: bool = False
    unrated: str = ""
    """Why a game of two or more accounts was not rated (``aborted``, ``repeat``,
    ``boosting``)."""


@dataclass(frozen=True, slots=True)
class Totals:
    games: int
    wins: int
    points: int
    favourites: dict[str, int]
    """How many games each dish was the one the player held most of."""
    scored: int = 0
    """The games whose points were the player's own (not left to a bot): what the average
    points are over."""


@dataclass(frozen=True, slots=True)
class ChatLine:
    id: int
    seat: int
    name: str
    text: str
    at: float
