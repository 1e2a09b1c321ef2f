"""The rows behind e-mail addresses and mailed links (:mod:`.recovery`), in the accounts'
database.

Synchronous and short like :mod:`.account_store`, run in the store's worker thread; each call
is one transaction. A link's token is never stored: only its keyed digest, so a database
dump opens no account. Using a link and setting the password it allows are one transaction,
so a link works once even when two processes are shown it at the same moment.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass

from sqlalchemy import delete, func, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from .account_models import (
    AccountEmailRow,
    AccountRow,
    AuthSessionRow,
    LoginFailureRow,
    MailTokenRow,
)
from .database import unit_of_work

KEEP_USED: float = 86_400.0
"""Seconds a link's row outlives its expiry: what the per-account mail limits count."""


@dataclass(frozen=True, slots=True)
class Email:
    account_id: int
    name: str
    address: str
    verified: bool
    language: str


class RecoveryStore:
    def __init__(self, engine: Engine) -> None:
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def _session(self) -> AbstractContextManager[Session]:
        return unit_of_work(self._sessions)

    def email(self, account_id: int) -> Email | None:
        with self._session() as session:
            row = session.get(AccountEmailRow, account_id)
            account = session.get(AccountRow, account_id)
            if row is None or account is None:
                return None
            return Email(account_id, account.name, row.address, row.verified, row.language)

    def set_email(self, account_id: int, address: str | None, language: str) -> None:
        """A new address (unverified), or none; the links mailed for the old one stop
        working."""
        with self._session() as session:
            session.execute(update(MailTokenRow).where(
                MailTokenRow.account_id == account_id, MailTokenRow.purpose == "verify"
            ).values(used=True))
            row = session.get(AccountEmailRow, account_id)
            if address is None:
                if row is not None:
                    session.delete(row)
                return
            if row is None:
                session.add(AccountEmailRow(account_id=account_id, address=address,
                                            verified=False, language=language))
            elif row.address != address:
                row.address, row.verified, row.language = address, False, language
            else:
                row.language = language

    def recipients(self, name_key: str, address: str, limit: int) -> list[Email]:
        """The accounts a "forgot password" for this name or address may mail: those with a
        verified address (a few at most: a family may share one)."""
        with self._session() as session:
            rows = session.execute(
                select(AccountEmailRow, AccountRow.name)
                .join(AccountRow, AccountRow.id == AccountEmailRow.account_id)
                .where(AccountEmailRow.verified,
                       (AccountRow.name_key == name_key) | (AccountEmailRow.address == address))
                .order_by(AccountEmailRow.account_id)
                .limit(limit)
            ).all()
            return [Email(r.account_id, name, r.address, r.verified, r.language)
                    for r, name in rows]

    def add_token(
        self, token_hash: str, account_id: int, purpose: str, address: str, now: float,
        expires_at: float, per_hour: int, per_address: int,
    ) -> bool:
        """Store a new link unless the account had ``per_hour`` of this kind mailed in the
        last hour, or the mail address ``per_address`` (False: nothing stored, no mail to
        send). Old rows are dropped here."""
        with self._session() as session:
            session.execute(delete(MailTokenRow).where(
                MailTokenRow.expires_at < now - KEEP_USED
            ))
            sent = session.scalar(select(func.count()).select_from(MailTokenRow).where(
                MailTokenRow.account_id == account_id, MailTokenRow.purpose == purpose,
                MailTokenRow.created_at > now - 3600.0,
            ))
            to_address = session.scalar(select(func.count()).select_from(MailTokenRow).where(
                MailTokenRow.address == address, MailTokenRow.purpose == purpose,
                MailTokenRow.created_at > now - 3600.0,
            ))
            if (sent or 0) >= per_hour or (to_address or 0) >= per_address:
                return False
            session.add(MailTokenRow(
                token_hash=token_hash, account_id=account_id, purpose=purpose,
                address=address, created_at=now, expires_at=expires_at, used=False,
            ))
            return True

    def _take(
        self, session: Session, token_hash: str, purpose: str, now: float
    ) -> MailTokenRow | None:
        row = session.get(MailTokenRow, token_hash, with_for_update=True)
        if row is None or row.purpose != purpose or row.used or row.expires_at <= now:
            return None
        row.used = True
        return row

    def verify(self, token_hash: str, now: float) -> bool:
        """Mark the address a verify link was mailed to as verified (once; only while it is
        still the account's address)."""
        with self._session() as session:
            row = self._take(session, token_hash, "verify", now)
            if row is None:
                return False
            email = session.get(AccountEmailRow, row.account_id)
            if email is None or email.address != row.address:
                return False
            email.verified = True
            return True

    def reset(self, token_hash: str, now: float, password_hash: str) -> int | None:
        """The account a reset link opens, with its new password set, every other reset link
        of it spent, every session of it ended and every address's hold on its name lifted
        (its owner may have guessed their way into one before asking); None for a used,
        expired or unknown link. The name's count over every address stays: someone else
        may be guessing still."""
        with self._session() as session:
            row = self._take(session, token_hash, "reset", now)
            if row is None:
                return None
            account_id = row.account_id
            session.execute(update(AccountRow).where(AccountRow.id == account_id).values(
                password_hash=password_hash
            ))
            session.execute(update(MailTokenRow).where(
                MailTokenRow.account_id == account_id, MailTokenRow.purpose == "reset"
            ).values(used=True))
            session.execute(delete(AuthSessionRow).where(
                AuthSessionRow.account_id == account_id
            ))
            name_key = session.scalar(select(AccountRow.name_key).where(
                AccountRow.id == account_id
            ))
            session.execute(delete(LoginFailureRow).where(
                LoginFailureRow.name_key == name_key, LoginFailureRow.address != ""
            ))
            return account_id

    def reset_open(self, token_hash: str, now: float) -> bool:
        """Whether a reset link would work now (checked before the slow hashing)."""
        with self._session() as session:
            row = session.get(MailTokenRow, token_hash)
            return (row is not None and row.purpose == "reset" and not row.used
                    and row.expires_at > now)
