"""The database tables of people: who follows whom (two follows make friends), who blocked
whom, when an account was last seen at the site (its "online now"), and the challenges one
player sends another.

They live beside the account tables (:mod:`.account_models`) and only point at them: an
account row carries none of this, so a site whose players never follow anyone reads nothing
more per request.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Integer, SmallInteger, String
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base


class FollowRow(Base):
    """One account follows another (one way; both ways, they are friends)."""

    __tablename__ = "follows"

    follower_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    followed_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True,
                                             index=True)
    at: Mapped[float] = mapped_column(Float)


class BlockRow(Base):
    """One account blocked another: the two never sit at one table, the blocked one's chat
    never reaches the blocker, and neither may challenge the other."""

    __tablename__ = "blocks"

    blocker_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    blocked_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True,
                                            index=True)
    at: Mapped[float] = mapped_column(Float)


class SeenRow(Base):
    """When an account's page last spoke to the site (any process): its friends see it
    "online now" for a while after."""

    __tablename__ = "account_seen"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    seen_at: Mapped[float] = mapped_column(Float)


class ChallengeRow(Base):
    """A player asks a named player to a table of their own making. ``state`` is ``open``
    until the challenged accepts (``accepted``, with the table made), declines
    (``declined``), the challenger withdraws it (``withdrawn``) or it expires."""

    __tablename__ = "challenges"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    from_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    to_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    seats: Mapped[int] = mapped_column(SmallInteger)
    clock_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean)
    bots: Mapped[bool] = mapped_column(Boolean)
    """The other seats: bots (a private table) or open to anyone (a public one)."""
    made_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float)
    state: Mapped[str] = mapped_column(String(16))
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
