"""The rows behind notices (:mod:`.notices`), in the accounts' database.

Synchronous and short like :mod:`.recovery_store`, run in the store's worker thread; each
call is one transaction. The mail log is what keeps a player to one mail per game per day on
every process of a site at once: a game's line is claimed by adding its (account, game, day)
row, which the unique key lets only one process do, and a digest is taken by marking the
account's waiting lines with one process's mark in one UPDATE, which two processes cannot
both win for the same line.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final
from urllib.parse import urlsplit

from sqlalchemy import delete, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from .database import unit_of_work
from .notice_models import NoticeMailRow, NoticeSwitchRow, PushSubscriptionRow
from .store import StorageError

KINDS: Final = ("your_turn", "clock_low", "challenge", "game_starting")
"""What a player may be told: their move at a turn-based table, its clock about to run out,
a challenge from another player, a game starting (play now, a tournament)."""
CHANNELS: Final = ("push", "mail")
DEFAULT_ON: Final = True
"""A switch the account never touched. Push needs the player to allow it on a device first
and mail a verified address, so "on" only ever reaches someone who asked for a channel."""
DEVICES: Final = 10
"""Push subscriptions one account keeps; the oldest goes when an eleventh device asks."""
KEEP_DAYS: Final = 3
"""Days a mail log row is kept (the rule needs only today's)."""


@dataclass(frozen=True, slots=True)
class Device:
    """One browser's push subscription (RFC 8030 endpoint, RFC 8291 keys)."""

    endpoint: str
    p256dh: str
    auth: str
    language: str


class NoticeStore:
    def __init__(self, engine: Engine) -> None:
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def _session(self) -> AbstractContextManager[Session]:
        return unit_of_work(self._sessions)

    # -- switches -------------------------------------------------------------------------
    def switches(self, account_id: int) -> dict[str, dict[str, bool]]:
        """Every kind by every channel, on or off."""
        with self._session() as session:
            rows = session.scalars(
                select(NoticeSwitchRow).where(NoticeSwitchRow.account_id == account_id)
            ).all()
        table = {kind: dict.fromkeys(CHANNELS, DEFAULT_ON) for kind in KINDS}
        for row in rows:
            if row.kind in table and row.channel in CHANNELS:
                table[row.kind][row.channel] = row.on
        return table

    def set_switches(self, account_id: int, changes: dict[tuple[str, str], bool]) -> None:
        with self._session() as session:
            for (kind, channel), on in changes.items():
                row = session.get(NoticeSwitchRow, (account_id, kind, channel))
                if row is None:
                    session.add(NoticeSwitchRow(account_id=account_id, kind=kind,
                                                channel=channel, on=on))
                else:
                    row.on = on

    def wanting(self, account_ids: list[int], kind: str, channel: str) -> set[int]:
        """The accounts among ``account_ids`` that want ``kind`` by ``channel``."""
        with self._session() as session:
            off = set(session.scalars(select(NoticeSwitchRow.account_id).where(
                NoticeSwitchRow.account_id.in_(account_ids), NoticeSwitchRow.kind == kind,
                NoticeSwitchRow.channel == channel, NoticeSwitchRow.on.is_(not DEFAULT_ON),
            )))
        return {a for a in account_ids if a not in off}

    # -- push subscriptions ---------------------------------------------------------------
    def subscribe(self, account_id: int, device: Device, now: float) -> None:
        """Keep a device's subscription (an endpoint already known moves to this account,
        with its new keys: the browser's, whoever logs in on it)."""
        with self._session() as session:
            row = session.scalar(select(PushSubscriptionRow).where(
                PushSubscriptionRow.endpoint == device.endpoint))
            if row is None:
                session.add(PushSubscriptionRow(
                    account_id=account_id, endpoint=device.endpoint, p256dh=device.p256dh,
                    auth=device.auth, language=device.language, created_at=now,
                ))
            else:
                row.account_id, row.p256dh, row.auth = account_id, device.p256dh, device.auth
                row.language, row.created_at = device.language, now
            session.flush()
            ids = list(session.scalars(
                select(PushSubscriptionRow.id).where(PushSubscriptionRow.account_id == account_id)
                .order_by(PushSubscriptionRow.created_at.desc(), PushSubscriptionRow.id.desc())
            ))
            if len(ids) > DEVICES:
                session.execute(delete(PushSubscriptionRow).where(
                    PushSubscriptionRow.id.in_(ids[DEVICES:])))

    def unsubscribe(self, account_id: int, endpoint: str) -> None:
        with self._session() as session:
            session.execute(delete(PushSubscriptionRow).where(
                PushSubscriptionRow.account_id == account_id,
                PushSubscriptionRow.endpoint == endpoint))

    def forget_endpoint(self, endpoint: str) -> None:
        """The push service says the subscription is gone (404 or 410)."""
        with self._session() as session:
            session.execute(delete(PushSubscriptionRow).where(
                PushSubscriptionRow.endpoint == endpoint))

    def devices(self, account_id: int) -> list[Device]:
        with self._session() as session:
            return [Device(r.endpoint, r.p256dh, r.auth, r.language) for r in session.scalars(
                select(PushSubscriptionRow).where(PushSubscriptionRow.account_id == account_id)
                .order_by(PushSubscriptionRow.id))]

    # -- the mail log ---------------------------------------------------------------------
    def claim_mail(self, account_id: int, game_id: str, day: int, kind: str,
                   now: float) -> bool:
        """Put a game's line in the account's next digest, unless the game had one today
        (False: another line of it was mailed or waits already, here or in any process)."""
        with self._session() as session:
            taken = session.scalar(select(NoticeMailRow.id).where(
                NoticeMailRow.account_id == account_id, NoticeMailRow.game_id == game_id,
                NoticeMailRow.day == day))
            if taken is not None:
                return False
        try:
            with self._session() as session:
                session.add(NoticeMailRow(account_id=account_id, game_id=game_id, day=day,
                                          kind=kind, created_at=now, sent_by=""))
        except StorageError:
            return False  # another process added it between the two transactions
        return True

    def take_digest(self, account_id: int, mark: str, now: float) -> list[tuple[str, str]]:
        """The account's waiting lines (game, kind), marked as this digest's; lines another
        process marked first are not among them. Old rows are dropped here."""
        with self._session() as session:
            session.execute(delete(NoticeMailRow).where(
                NoticeMailRow.created_at < now - KEEP_DAYS * 86_400.0))
            session.execute(update(NoticeMailRow).where(
                NoticeMailRow.account_id == account_id, NoticeMailRow.sent_by == ""
            ).values(sent_by=mark))
            rows = session.execute(
                select(NoticeMailRow.game_id, NoticeMailRow.kind)
                .where(NoticeMailRow.account_id == account_id, NoticeMailRow.sent_by == mark)
                .order_by(NoticeMailRow.id)).all()
            return [(game, kind) for game, kind in rows]

    def waiting_accounts(self, before: float) -> list[int]:
        """Accounts with lines waiting since before ``before`` (a process that claimed them
        stopped before its digest went out)."""
        with self._session() as session:
            return sorted(set(session.scalars(select(NoticeMailRow.account_id).where(
                NoticeMailRow.sent_by == "", NoticeMailRow.created_at < before))))


def personal_notices(session: Session, account_id: int) -> dict[str, Any]:
    """The account's notice switches and push devices for its data download
    (:mod:`.personal_data`): each device by its push service's host only, never its keys."""
    switches = {kind: dict.fromkeys(CHANNELS, DEFAULT_ON) for kind in KINDS}
    for row in session.scalars(
        select(NoticeSwitchRow).where(NoticeSwitchRow.account_id == account_id)
    ):
        if row.kind in switches and row.channel in CHANNELS:
            switches[row.kind][row.channel] = row.on
    devices = session.execute(
        select(PushSubscriptionRow.endpoint, PushSubscriptionRow.language,
               PushSubscriptionRow.created_at)
        .where(PushSubscriptionRow.account_id == account_id).order_by(PushSubscriptionRow.id)
    ).all()
    return {
        "switches": switches,
        "push_devices": [{"push_service": urlsplit(endpoint).hostname or "",
                          "language": lang,
                          "since": datetime.fromtimestamp(created, UTC).isoformat(
                              timespec="seconds")}
                         for endpoint, lang, created in devices],
    }
