"""What deleting an account changes in the database, in one transaction (:mod:`.farewell`).

Synchronous and short like :mod:`.account_store` (run in the store's one worker thread).
The account's row stays, because finished games, results and other players' histories
point at it, but everything that named or identified the person goes:

- the name becomes the pseudonym ``Former player <number>`` in the account's row, in
  every seat, seat holder, chat line and report of the account's games, and in the
  operator's log; its log-in key
  becomes one nobody can type, so neither the old name nor the pseudonym logs in or opens
  a profile;
- the password hash, the e-mail address and its mailed links, the sessions (every process
  reads sessions from the database at each request, so all of them refuse the old cookie
  at once), the wrong-password counts of the old name, the play-now pool's rows;
- the rating: back to the start with no rated games, so off the leaderboard (each finished
  game's result keeps the rating it had then, under the pseudonym).

The old name's look-alike key is kept in ``departures`` until the reservation ends, so no
one can register it meanwhile (:meth:`FarewellStore.reserved`), then blanked.
"""

from __future__ import annotations

import secrets
from contextlib import AbstractContextManager
from typing import Final

from sqlalchemy import and_, delete, or_, select, tuple_, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from .account_models import (
    AccountEmailRow,
    AccountRow,
    AuthSessionRow,
    ChatRow,
    GameResultRow,
    LeaverRow,
    LoginFailureRow,
    MailTokenRow,
    SeatAccountRow,
)
from .account_records import START_MU, START_SIGMA
from .database import unit_of_work
from .farewell_models import DepartureRow
from .models import SeatHolderRow, SeatRow, WaitingPlayerRow
from .moderation_models import ModerationLogRow, ReportRow
from .notice_models import NoticeMailRow, NoticeSwitchRow, PushSubscriptionRow
from .people_models import BlockRow, ChallengeRow, FollowRow, SeenRow
from .store import StorageError
from .tournaments.models import EntrantRow, TournamentRow
from .tournaments.store import OPEN, OVER, RUNNING

FORMER: Final = "Former player {number}"
"""The pseudonym as stored, in English like a bot's name; the page shows it in the
reader's language (web/static/names.js)."""
FIRST_NUMBER: Final = 1000
NUMBERS: Final = 9_000_000
"""Pseudonym numbers are drawn from FIRST_NUMBER to FIRST_NUMBER + NUMBERS - 1."""


def former_name(number: int) -> str:
    return FORMER.format(number=number)


def hidden_key(account_id: int) -> str:
    """The log-in and look-alike key of a deleted account: no typed name folds to it (a
    typed name's runs of white space become one space, so it never holds a tab)."""
    return f"\tformer\t{account_id}"


class AlreadyGone(StorageError):
    code = "no_account"


class FarewellStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def _session(self) -> AbstractContextManager[Session]:
        return unit_of_work(self._sessions)

    def reserved(self, look_alike: str, now: float) -> bool:
        """Whether a deleted account's old name reads like this key and is still held."""
        with self._session() as session:
            return session.scalar(
                select(DepartureRow.account_id).where(
                    DepartureRow.look_alike == look_alike, DepartureRow.name_free_at > now
                ).limit(1)
            ) is not None

    def free_names(self, now: float) -> int:
        """Blank the old names whose reservation ended (nothing links them any more)."""
        with self._session() as session:
            done = session.execute(
                update(DepartureRow)
                .where(DepartureRow.name_free_at <= now, DepartureRow.look_alike != "")
                .values(look_alike="")
            )
            return int(getattr(done, "rowcount", 0) or 0)

    def pseudonym(self, account_id: int) -> str | None:
        with self._session() as session:
            number = session.scalar(
                select(DepartureRow.number).where(DepartureRow.account_id == account_id)
            )
            return None if number is None else former_name(number)

    def depart(self, account_id: int, now: float, reserve_seconds: float) -> str:
        """Delete the account as the module doc says; its pseudonym. A number already drawn
        (by another deletion meanwhile) is drawn again."""
        for _attempt in range(20):
            number = FIRST_NUMBER + secrets.randbelow(NUMBERS)
            try:
                return self._depart(account_id, number, now, reserve_seconds)
            except StorageError as error:
                if not isinstance(error.__cause__, IntegrityError):
                    raise
        raise StorageError("no free pseudonym number was found")

    def _depart(self, account_id: int, number: int, now: float, reserve_seconds: float) -> str:
        name = former_name(number)
        with self._session() as session:
            row = session.get(AccountRow, account_id)
            if row is None or session.get(DepartureRow, account_id) is not None:
                raise AlreadyGone("the account is gone already")
            old_name, old_key = row.name, row.name_key
            session.add(DepartureRow(
                account_id=account_id, number=number, look_alike=row.look_alike,
                deleted_at=now, name_free_at=now + reserve_seconds,
            ))
            row.name = name
            row.name_key = row.look_alike = hidden_key(account_id)
            row.password_hash = ""
            row.mu, row.sigma, row.rated_games, row.opponents = START_MU, START_SIGMA, 0, 0
            session.flush()  # the unique number is checked here
            for table in (AuthSessionRow, AccountEmailRow, MailTokenRow, NoticeSwitchRow,
                          PushSubscriptionRow, NoticeMailRow):
                session.execute(delete(table).where(table.account_id == account_id))
            session.execute(delete(LoginFailureRow).where(LoginFailureRow.name_key == old_key))
            session.execute(delete(WaitingPlayerRow).where(
                WaitingPlayerRow.account_id == account_id
            ))
            seats = _seats(session, account_id)
            if seats:
                at = tuple_(SeatRow.game_id, SeatRow.seat).in_(seats)
                session.execute(update(SeatRow).where(at, SeatRow.name == old_name)
                                .values(name=name))
                held = tuple_(SeatHolderRow.game_id, SeatHolderRow.seat).in_(seats)
                session.execute(update(SeatHolderRow).where(held, SeatHolderRow.name == old_name)
                                .values(name=name))
                said = tuple_(ChatRow.game_id, ChatRow.seat).in_(seats)
                session.execute(update(ChatRow).where(said, ChatRow.name == old_name)
                                .values(name=name))
            session.execute(update(ReportRow).where(or_(
                ReportRow.target_account_id == account_id,
                and_(ReportRow.target_account_id.is_(None), ReportRow.target_name == old_name,
                     ReportRow.game_id.in_([game for game, _seat in seats] or [""])),
            )).values(target_name=name))
            session.execute(update(ModerationLogRow).where(ModerationLogRow.target == old_name)
                            .values(target=name))
            _leave_tournaments(session, account_id, name)
            _leave_people(session, account_id)
            return name


def _leave_people(session: Session, account_id: int) -> None:
    """Follows, blocks and challenges either way, and when the account was last seen: all
    of it is the person's, and none of it serves a game kept under the pseudonym."""
    session.execute(delete(FollowRow).where(or_(FollowRow.follower_id == account_id,
                                                FollowRow.followed_id == account_id)))
    session.execute(delete(BlockRow).where(or_(BlockRow.blocker_id == account_id,
                                               BlockRow.blocked_id == account_id)))
    session.execute(delete(ChallengeRow).where(or_(ChallengeRow.from_id == account_id,
                                                   ChallengeRow.to_id == account_id)))
    session.execute(delete(SeenRow).where(SeenRow.account_id == account_id))


def _leave_tournaments(session: Session, account_id: int, name: str) -> None:
    """The account's tournament entries: gone from those not started, withdrawn from running
    ones (paired no more), and under the pseudonym in every standing, finished ones too."""
    mine = EntrantRow.account_id == account_id
    entered = select(EntrantRow.tournament_id).where(mine)
    session.execute(update(TournamentRow).where(TournamentRow.id.in_(entered),
                                                TournamentRow.status != OVER)
                    .values(version=TournamentRow.version + 1))  # their pages reload
    session.execute(delete(EntrantRow).where(mine, EntrantRow.tournament_id.in_(
        select(TournamentRow.id).where(TournamentRow.status == OPEN))))
    session.execute(update(EntrantRow).where(mine, EntrantRow.tournament_id.in_(
        select(TournamentRow.id).where(TournamentRow.status == RUNNING))).values(withdrawn=True))
    session.execute(update(EntrantRow).where(mine).values(name=name))


def _seats(session: Session, account_id: int) -> list[tuple[str, int]]:
    """Every (game, seat) the account held: held now, left during play, or with a result."""
    found: set[tuple[str, int]] = set()
    for table in (SeatAccountRow, LeaverRow, GameResultRow):
        rows = session.execute(
            select(table.game_id, table.seat).where(table.account_id == account_id)
        ).all()
        found.update((str(game), int(seat)) for game, seat in rows)
    return sorted(found)
