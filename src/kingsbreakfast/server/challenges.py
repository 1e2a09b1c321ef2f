"""Challenges: one player asks a named player to a table of their choosing (its seats, its
turn clock, rated or friendly, the other seats left to bots or open to anyone). The
challenged one sees it on the people page and accepts (both are seated at a new ordinary
table, the challenger hosting) or declines; the challenger may withdraw it; unanswered, it
expires (:func:`lifetime`).

Kept in the database, so a challenge made through one process of a cluster is seen and
accepted through any other; accepting claims the challenge in one conditional update, so two
clicks (or two processes) never make two tables of one challenge. :func:`challenge_made` is
the one place that hears of a new challenge (where a notice to the challenged is sent).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Final, cast

from sqlalchemy import Update, func, or_, select, update
from sqlalchemy.engine import CursorResult, Engine
from sqlalchemy.orm import Session, aliased, sessionmaker

from .account_models import AccountRow
from .database import unit_of_work
from .lobby import LobbyError
from .people import blocked_either, named_account
from .people_models import ChallengeRow

log = logging.getLogger("kingsbreakfast.server")

LIVE_SECONDS: Final = 30 * 60.0
"""How long a challenge to a live table (a clock under an hour, or none) waits."""
TURN_SECONDS: Final = 3 * 86_400.0
"""How long a challenge to a turn-based table (a clock of hours or days) waits."""
KEPT_SECONDS: Final = 3600.0
"""How long an answered or expired challenge stays in its challenger's list."""
MAX_OPEN: Final = 20
"""Open challenges one account may have out at once."""
BOT_LEVEL: Final = "medium"
"""The level of the bots that take a challenge table's empty seats."""


def lifetime(clock_seconds: int | None) -> float:
    return TURN_SECONDS if clock_seconds is not None and clock_seconds >= 3600 else LIVE_SECONDS


@dataclass(frozen=True, slots=True)
class Challenge:
    id: int
    from_id: int
    from_name: str
    to_id: int
    to_name: str
    seats: int
    clock_seconds: int | None
    rated: bool
    bots: bool
    made_at: float
    expires_at: float
    state: str
    """``open``, ``accepted``, ``declined``, ``withdrawn`` or ``expired``."""
    table_id: str | None


def challenge_made(challenge: Challenge, tell: Callable[[int, int], None]) -> None:
    """A challenge was made: the one place that hears of it, to tell the challenged player
    (``tell(challenger, challenged)``: the notices, by Web Push or e-mail, in the background).
    Never raises: a notice that fails must not undo the challenge."""
    log.info("challenge %d made (account %d to account %d)", challenge.id,
             challenge.from_id, challenge.to_id)
    try:
        tell(challenge.from_id, challenge.to_id)
    except Exception:
        log.exception("challenge %d: the notice failed", challenge.id)


class ChallengeStore:
    """The site's challenges, on one engine."""

    def __init__(self, engine: Engine) -> None:
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def _session(self) -> AbstractContextManager[Session]:
        return unit_of_work(self._sessions)

    def make(
        self, me: int, name: str, seats: int, clock_seconds: int | None, rated: bool,
        bots: bool, now: float,
    ) -> Challenge:
        """Challenge the account named ``name``; one open challenge to one player at a
        time, and none across a block (either way)."""
        with self._session() as session:
            other = named_account(session, name, me)
            if blocked_either(session, me, other.id):
                raise LobbyError(403, "people_blocked", "you cannot challenge this player")
            open_now = (ChallengeRow.from_id == me) & (ChallengeRow.state == "open") & (
                ChallengeRow.expires_at > now)
            if session.scalars(select(ChallengeRow.id).where(
                    open_now, ChallengeRow.to_id == other.id)).first() is not None:
                raise LobbyError(409, "challenge_open", "you challenged this player already")
            if (session.scalar(select(func.count()).where(open_now)) or 0) >= MAX_OPEN:
                raise LobbyError(429, "challenge_too_many", "too many challenges are open",
                                 limit=MAX_OPEN)
            row = ChallengeRow(
                from_id=me, to_id=other.id, seats=seats, clock_seconds=clock_seconds,
                rated=rated, bots=bots, made_at=now, expires_at=now + lifetime(clock_seconds),
                state="open", table_id=None,
            )
            session.add(row)
            session.flush()
            return _challenge(session, row, now)

    def mine(self, me: int, now: float) -> dict[str, list[Challenge]]:
        """The challenges to ``me`` still open, and those ``me`` made, open or answered
        within :data:`KEPT_SECONDS` (so the challenger learns the table), newest first."""
        with self._session() as session:
            rows = session.scalars(select(ChallengeRow).where(
                or_(ChallengeRow.to_id == me, ChallengeRow.from_id == me),
                ChallengeRow.made_at > now - TURN_SECONDS - KEPT_SECONDS,
            ).order_by(ChallengeRow.id.desc()).limit(200)).all()
            made = [_challenge(session, r, now) for r in rows]
            return {
                "incoming": [c for c in made if c.to_id == me and c.state == "open"],
                "outgoing": [c for c in made if c.from_id == me and (
                    c.state == "open" or c.expires_at > now - KEPT_SECONDS)],
            }

    def claim(self, me: int, number: int, now: float, accept: bool) -> Challenge:
        """The challenged ``me`` accepts (or declines) an open challenge, once: a second
        answer, or one after it expired or was withdrawn, is refused."""
        with self._session() as session:
            row = session.get(ChallengeRow, number)
            if row is None or row.to_id != me:
                raise LobbyError(404, "no_such_challenge", "there is no such challenge")
            if accept and blocked_either(session, me, row.from_id):
                raise LobbyError(403, "people_blocked", "you cannot play this player")
            done = _changed(session, update(ChallengeRow).where(
                ChallengeRow.id == number, ChallengeRow.state == "open",
                ChallengeRow.expires_at > now,
            ).values(state="accepted" if accept else "declined"))
            if not done:
                raise LobbyError(409, "challenge_gone", "this challenge is no longer open")
            session.refresh(row)
            return _challenge(session, row, now)

    def placed(self, number: int, table_id: str) -> None:
        """The accepted challenge's table is made: its challenger's page goes there."""
        with self._session() as session:
            session.execute(update(ChallengeRow).where(ChallengeRow.id == number)
                            .values(table_id=table_id))

    def reopen(self, number: int) -> None:
        """Accepting failed before the table was made: the challenge is open again."""
        with self._session() as session:
            session.execute(update(ChallengeRow).where(
                ChallengeRow.id == number, ChallengeRow.table_id.is_(None),
            ).values(state="open"))

    def withdraw(self, me: int, number: int) -> None:
        with self._session() as session:
            done = _changed(session, update(ChallengeRow).where(
                ChallengeRow.id == number, ChallengeRow.from_id == me,
                ChallengeRow.state == "open",
            ).values(state="withdrawn"))
            if not done:
                raise LobbyError(404, "no_such_challenge", "there is no such challenge")

    def friendly(self, table_id: str) -> bool:
        """The table was made by a challenge its players chose not to rate."""
        with self._session() as session:
            return session.scalars(select(ChallengeRow.id).where(
                ChallengeRow.table_id == table_id, ChallengeRow.rated.is_(False),
            )).first() is not None


def _changed(session: Session, change: Update) -> int:
    """How many rows a conditional update changed (0: the condition no longer held)."""
    return cast("CursorResult[Any]", session.execute(change)).rowcount


def _challenge(session: Session, row: ChallengeRow, now: float) -> Challenge:
    sender, receiver = aliased(AccountRow), aliased(AccountRow)
    names = session.execute(
        select(sender.name, receiver.name).select_from(sender).join(
            receiver, receiver.id == row.to_id).where(sender.id == row.from_id)).one()
    state = "expired" if row.state == "open" and row.expires_at <= now else row.state
    return Challenge(
        row.id, row.from_id, names[0], row.to_id, names[1], row.seats, row.clock_seconds,
        row.rated, row.bots, row.made_at, row.expires_at, state, row.table_id,
    )
