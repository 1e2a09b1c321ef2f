"""The database tables of notices (:mod:`.notices`): which kinds an account wants told by
which channel, the browsers it asked Web Push on, and the log of mails sent.

They point at accounts, never the other way, like :mod:`.moderation_models`. The mail log's
unique key (account, game, day) is the claim that keeps a player to one mail per game per
day: whichever process adds the row first mails, any other finds the row taken.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base


class NoticeSwitchRow(Base):
    """One kind of notice by one channel, switched on or off by the account (a kind with no
    row is on: :data:`.notice_store.DEFAULT_ON`)."""

    __tablename__ = "notice_switches"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    channel: Mapped[str] = mapped_column(String(8), primary_key=True)
    on: Mapped[bool] = mapped_column(Boolean)


class PushSubscriptionRow(Base):
    """A browser that accepted Web Push for the account: its push service's endpoint and the
    keys its messages are encrypted to (RFC 8291). ``language`` is the page's language when
    it subscribed: what that device's notices are written in."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    endpoint: Mapped[str] = mapped_column(String(1024), unique=True)
    p256dh: Mapped[str] = mapped_column(String(128))
    auth: Mapped[str] = mapped_column(String(64))
    language: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[float] = mapped_column(Float)


class NoticeMailRow(Base):
    """A game's line in an account's mail of one day (UTC): waiting for the digest while
    ``sent_by`` is empty, then marked by the process that took it into a mail."""

    __tablename__ = "notice_mails"
    __table_args__ = (UniqueConstraint("account_id", "game_id", "day",
                                       name="uq_notice_mails_account_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    game_id: Mapped[str] = mapped_column(String(64))
    """The path a line links to: the table's (``/t/<id>``) or the challenge's."""
    day: Mapped[int] = mapped_column(Integer)
    """Days since 1970-01-01 (UTC)."""
    kind: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[float] = mapped_column(Float, index=True)
    sent_by: Mapped[str] = mapped_column(String(32), server_default="")
