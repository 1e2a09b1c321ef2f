"""Moderation: players report players and chat lines; an operator (``kingsbreakfast admin``)
reads the reports, hides a chat line, renames, mutes or bans an account, and every such
action is written to the audit log with who did it and when.

One store serves the server (through the account store's database thread) and the operator's
command (straight on the database, so a running cluster sees each decision at its next read:
a ban ends every session at once, a hidden line is never sent again, a mute holds from the
next chat line on, whichever process the player talks to).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy import delete, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session

from kingsbreakfast.engine import KingsBreakfastError

from .account_models import AccountRow, AuthSessionRow, ChatRow, SeatAccountRow
from .lobby import LobbyError, clean_name
from .moderation_models import AccountStandingRow, HiddenChatRow, ModerationLogRow, ReportRow
from .names import look_alike_key
from .store import StorageError

MAX_REASON = 500
"""The longest report reason kept (characters)."""


@dataclass(frozen=True, slots=True)
class Report:
    id: int
    at: float
    target_name: str
    reason: str
    game_id: str | None
    chat_id: int | None
    chat_text: str | None
    reporter: str | None
    """The reporting account's name (None: a guest)."""
    closed_at: float | None
    outcome: str


@dataclass(frozen=True, slots=True)
class Action:
    at: float
    operator: str
    action: str
    target: str
    detail: str


class ModerationError(KingsBreakfastError):
    """An operator's command that cannot be done (no such account, the name is taken…): a
    code and params, said in the operator's language by :mod:`kingsbreakfast.i18n.errors`."""


class ModerationStore:
    """Reports, standings, hidden lines and the audit log, on one engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @contextmanager
    def _session(self) -> Iterator[Session]:
        try:
            with Session(self.engine) as session, session.begin():
                yield session
        except SQLAlchemyError as error:
            raise StorageError(
                f"the database refused the change: {type(error).__name__}"
            ) from error

    # -- what the server asks ---------------------------------------------------------------
    def muted_until(self, account_id: int) -> float:
        """Until when (wall-clock seconds) the account may not chat; 0 when it may."""
        with self._session() as session:
            row = session.get(AccountStandingRow, account_id)
            return 0.0 if row is None else row.muted_until

    def banned(self, account_id: int) -> bool:
        with self._session() as session:
            row = session.get(AccountStandingRow, account_id)
            return row is not None and row.banned

    def hidden_lines(self, game_id: str) -> set[int]:
        """The ids of the table's chat lines an operator hid."""
        with self._session() as session:
            return set(session.scalars(
                select(HiddenChatRow.chat_id).join(ChatRow, ChatRow.id == HiddenChatRow.chat_id)
                .where(ChatRow.game_id == game_id)
            ))

    def report(
        self, reporter: int | None, address: str, target: str, reason: str,
        game_id: str | None, chat_id: int | None, now: float,
    ) -> int:
        """Store a report of ``target`` (a name: an account's, or a guest's at ``game_id``),
        or of one chat line of that table; answers its id. The target must be real: an
        account of that name, or a name at the table, or the line's author."""
        with self._session() as session:
            target_account: int | None = None
            if chat_id is not None:
                line = session.get(ChatRow, chat_id)
                if line is None or line.game_id != game_id:
                    raise LobbyError(404, "no_such_chat_line", "no such chat line at this table")
                target = line.name
                target_account = session.scalar(select(SeatAccountRow.account_id).where(
                    SeatAccountRow.game_id == line.game_id, SeatAccountRow.seat == line.seat))
            else:
                row = session.scalars(select(AccountRow).where(
                    AccountRow.look_alike == look_alike_key(target))).first()
                if row is not None:
                    target_account, target = row.id, row.name
                elif game_id is None or not _said_at(session, game_id, target):
                    raise LobbyError(404, "no_such_player", "nobody of that name to report",
                                     name=target)
            if target_account is not None and target_account == reporter:
                raise LobbyError(422, "report_self", "you cannot report yourself")
            report = ReportRow(
                at=now, reporter_account_id=reporter, reporter_address=address,
                target_name=target[:64], target_account_id=target_account, game_id=game_id,
                chat_id=chat_id, reason=reason[:MAX_REASON],
            )
            session.add(report)
            session.flush()
            return report.id

    # -- what the operator does -------------------------------------------------------------
    def reports(self, open_only: bool = True, limit: int = 100) -> list[Report]:
        """The reports, oldest open first (or every report, newest first)."""
        with self._session() as session:
            query = (
                select(ReportRow, ChatRow.text, AccountRow.name)
                .outerjoin(ChatRow, ChatRow.id == ReportRow.chat_id)
                .outerjoin(AccountRow, AccountRow.id == ReportRow.reporter_account_id)
            )
            if open_only:
                query = query.where(ReportRow.closed_at.is_(None)).order_by(ReportRow.at)
            else:
                query = query.order_by(ReportRow.at.desc())
            return [
                Report(r.id, r.at, r.target_name, r.reason, r.game_id, r.chat_id, text,
                       reporter, r.closed_at, r.outcome)
                for r, text, reporter in session.execute(query.limit(limit)).all()
            ]

    def close_report(self, report_id: int, outcome: str, operator: str, now: float) -> None:
        with self._session() as session:
            row = session.get(ReportRow, report_id)
            if row is None:
                raise ModerationError(f"no report {report_id}", "no_such_report", id=report_id)
            row.closed_at, row.outcome = now, outcome[:200]
            _log(session, now, operator, "close_report", f"report {report_id}", outcome)

    def hide_line(self, chat_id: int, operator: str, now: float) -> str:
        """Hide one chat line for good; answers its text (for the operator's log)."""
        with self._session() as session:
            line = session.get(ChatRow, chat_id)
            if line is None:
                raise ModerationError(f"no chat line {chat_id}", "no_such_chat_line", id=chat_id)
            if session.get(HiddenChatRow, chat_id) is None:
                session.add(HiddenChatRow(chat_id=chat_id, hidden_at=now))
            _log(session, now, operator, "hide_chat", f"chat {chat_id}",
                 f"{line.name}: {line.text}")
            return line.text

    def rename(self, old: str, new: object, operator: str, now: float) -> str:
        """Give an account another name (the rules of names hold, and no other account may
        read alike); answers the new name."""
        display = _name(new)
        with self._session() as session:
            row = _account(session, old)
            key = look_alike_key(display)
            other = session.scalars(select(AccountRow).where(
                AccountRow.look_alike == key, AccountRow.id != row.id)).first()
            if other is not None:
                raise ModerationError(f"an account named {other.name} exists", "name_taken",
                                      name=other.name)
            before = row.name
            row.name, row.name_key, row.look_alike = display, _name_key(display), key
            _log(session, now, operator, "rename", before, display)
            try:
                session.flush()
            except IntegrityError:
                raise ModerationError(f"an account named {display} exists", "name_taken",
                                      name=display) from None
            return display

    def mute(self, name: str, seconds: float, operator: str, now: float) -> tuple[str, float]:
        """No chat from the account for ``seconds`` (0 lifts a mute); answers the account's
        name and until when."""
        with self._session() as session:
            row = _account(session, name)
            standing = _standing(session, row.id)
            standing.muted_until = now + seconds if seconds > 0 else 0.0
            _log(session, now, operator, "mute" if seconds > 0 else "unmute", row.name,
                 f"{seconds:g} s" if seconds > 0 else "")
            return row.name, standing.muted_until

    def ban(
        self, name: str, banned: bool, operator: str, now: float, why: str = ""
    ) -> tuple[str, int]:
        """Ban (or lift a ban on) an account: a banned account cannot log in, and every
        session it has ends now. Answers the account's name and how many sessions ended."""
        with self._session() as session:
            row = _account(session, name)
            _standing(session, row.id).banned = banned
            ended = 0
            if banned:
                ended = len(session.scalars(select(AuthSessionRow.id_hash).where(
                    AuthSessionRow.account_id == row.id)).all())
                session.execute(delete(AuthSessionRow).where(
                    AuthSessionRow.account_id == row.id))
            _log(session, now, operator, "ban" if banned else "unban", row.name, why[:500])
            return row.name, ended

    def log(self, limit: int = 100) -> list[Action]:
        """The audit log, newest first."""
        with self._session() as session:
            rows = session.scalars(
                select(ModerationLogRow).order_by(ModerationLogRow.id.desc()).limit(limit))
            return [Action(r.at, r.operator, r.action, r.target, r.detail) for r in rows]


def _said_at(session: Session, game_id: str, name: str) -> bool:
    """Someone of that name wrote at the table (a guest has no account to name)."""
    key = look_alike_key(name)
    return any(look_alike_key(said) == key for said in session.scalars(
        select(ChatRow.name).where(ChatRow.game_id == game_id).distinct()))


def _account(session: Session, name: str) -> AccountRow:
    row = session.scalars(select(AccountRow).where(
        AccountRow.look_alike == look_alike_key(" ".join(name.split())))).first()
    if row is None:
        raise ModerationError(f"no account named {name}", "no_such_account", name=name)
    return row


def _standing(session: Session, account_id: int) -> AccountStandingRow:
    row = session.get(AccountStandingRow, account_id)
    if row is None:
        row = AccountStandingRow(account_id=account_id, muted_until=0.0, banned=False)
        session.add(row)
    return row


def _name(new: object) -> str:
    try:
        return clean_name(new)
    except LobbyError as refused:
        raise ModerationError(str(refused), refused.code, **refused.params) from None


def _name_key(name: str) -> str:
    from .accounts import name_key

    return name_key(name)


def _log(session: Session, now: float, operator: str, action: str, target: str,
         detail: str) -> None:
    session.add(ModerationLogRow(at=now, operator=operator[:64], action=action,
                                 target=target[:128], detail=detail[:500]))
