"""The database tables of moderation: what players report, what an operator decided about an
account (muted until when, banned), which chat lines an operator hid, and the audit log of
every operator action.

They live beside the account tables (:mod:`.account_models`) and point at them, never the
other way: an account row carries no moderation state, so a site that never moderates reads
nothing more per request.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Integer, String, false
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base


class AccountStandingRow(Base):
    """An account an operator muted (no chat until ``muted_until``) or banned (no log-in,
    every session ended)."""

    __tablename__ = "account_standing"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    muted_until: Mapped[float] = mapped_column(Float, server_default="0")
    banned: Mapped[bool] = mapped_column(Boolean, server_default=false())


class HiddenChatRow(Base):
    """A chat line an operator hid: kept for the record, never sent again."""

    __tablename__ = "hidden_chat"

    chat_id: Mapped[int] = mapped_column(ForeignKey("chat_messages.id"), primary_key=True)
    hidden_at: Mapped[float] = mapped_column(Float)


class ReportRow(Base):
    """A player's report of another player, or of one chat line, for an operator to read."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[float] = mapped_column(Float, index=True)
    reporter_account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id"), nullable=True)
    reporter_address: Mapped[str] = mapped_column(String(64))
    """A keyed digest of the reporter's address (never the address itself)."""
    target_name: Mapped[str] = mapped_column(String(64))
    target_account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id"), nullable=True)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    chat_id: Mapped[int | None] = mapped_column(ForeignKey("chat_messages.id"), nullable=True)
    reason: Mapped[str] = mapped_column(String(500))
    closed_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    outcome: Mapped[str] = mapped_column(String(200), server_default="")


class ModerationLogRow(Base):
    """One operator action, as it was done: the audit log."""

    __tablename__ = "moderation_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[float] = mapped_column(Float, index=True)
    operator: Mapped[str] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(32))
    target: Mapped[str] = mapped_column(String(128))
    detail: Mapped[str] = mapped_column(String(500), server_default="")
