"""What a new tournament may be, checked once for the page's form and the operator's
command alike: a Swiss of 1 to 9 rounds or an arena of 5 minutes to 4 hours, at tables of 3
to 5 (R2), live or turn-based, starting within a week, with up to 8 bots entered by name.
"""

from __future__ import annotations

import secrets
from typing import Final

from kingsbreakfast.bots.registry import OPPONENT_LEVELS

from ..lobby import LobbyError, clean_name
from ..matching import SPEEDS
from .store import Setup

MAX_ROUNDS: Final = 9
ARENA_MINUTES: Final = (5, 240)
MAX_START_SECONDS: Final = 7 * 86400
MAX_BOTS: Final = 8
BOT_NAMES: Final = ("Chef", "Basil", "Saffron", "Juniper", "Sorrel", "Fennel", "Caraway",
                    "Tarragon")
"""The names bots enter under (the chef first); each is marked a bot wherever it shows."""


def make_setup(
    *, name: str, kind: str, seats: int, speed: str, rated: bool, rounds: int,
    minutes: int, starts_in: float, bots: int, bot_level: str, created_by: int | None,
    now: float,
) -> Setup:
    """A checked :class:`~.store.Setup`, or the first fault as a :class:`LobbyError`."""
    title = clean_name(name)
    if kind not in ("swiss", "arena"):
        raise LobbyError(422, "bad_kind", "a tournament is swiss or arena")
    if not 3 <= seats <= 5:
        raise LobbyError(422, "bad_seats", "a table has 3 to 5 seats (R2)", min=3, max=5)
    if speed not in SPEEDS:
        raise LobbyError(422, "bad_speed", "the speed is live or turn")
    if kind == "swiss" and not 1 <= rounds <= MAX_ROUNDS:
        raise LobbyError(422, "bad_rounds", f"a Swiss has 1 to {MAX_ROUNDS} rounds",
                         max=MAX_ROUNDS)
    low, high = ARENA_MINUTES
    if kind == "arena" and not low <= minutes <= high:
        raise LobbyError(422, "bad_minutes", f"an arena lasts {low} to {high} minutes",
                         min=low, max=high)
    if not 0 <= starts_in <= MAX_START_SECONDS:
        raise LobbyError(422, "bad_start", "a tournament starts within a week")
    if not 0 <= bots <= MAX_BOTS:
        raise LobbyError(422, "bad_bots", f"up to {MAX_BOTS} bots may enter", max=MAX_BOTS)
    if bot_level not in OPPONENT_LEVELS:
        raise LobbyError(422, "bad_bot_level", "no such bot level",
                         choices=list(OPPONENT_LEVELS))
    starts_at = now + starts_in
    return Setup(
        id=secrets.token_urlsafe(9), name=title, kind=kind, seats=seats,
        clock_seconds=SPEEDS[speed], rated=rated, bot_level=bot_level,
        rounds=rounds if kind == "swiss" else 0, starts_at=starts_at,
        ends_at=starts_at + minutes * 60 if kind == "arena" else None,
        created_by=created_by, bots=BOT_NAMES[:bots],
    )
