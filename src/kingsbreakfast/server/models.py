"""The database tables: a game is stored as its record (deck + actions) plus seats.

Nothing else is stored: the state is rebuilt by replaying the actions on the deck, so a
restart continues every game from its last committed action. The deck is a secret column
that only the server reads; seat tokens are stored as SHA-256 digests, never in clear.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    SmallInteger,
    String,
    Text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class GameRow(Base):
    """One table, from the lobby to the archive."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``lobby``, ``playing`` or ``over``."""
    num_seats: Mapped[int] = mapped_column(SmallInteger)
    rules: Mapped[str] = mapped_column(Text)
    """The variant switches as JSON (the record's ``rules`` object)."""
    bot_level: Mapped[str] = mapped_column(String(16))
    clock_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    public: Mapped[bool]
    first_cook: Mapped[int] = mapped_column(SmallInteger)
    deck: Mapped[str | None] = mapped_column(Text, nullable=True)
    """SECRET until the game is over: card ids, top first, comma-separated."""
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class SeatRow(Base):
    """Who sits where: an open seat, a human (with a token digest) or a bot."""

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    """``open``, ``human`` or ``bot``."""
    name: Mapped[str] = mapped_column(String(64))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)


class ActionRow(Base):
    """One accepted action; ``number`` is the game's version before it was applied.

    The primary key (game, number) makes a second commit on the same version impossible even
    if two server processes ever raced on one table.
    """

    __tablename__ = "actions"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(SmallInteger)
    action: Mapped[int] = mapped_column(SmallInteger)
    """The engine's action id (0–37)."""


class LeaseRow(Base):
    """Which server process owns a table in play, and under which epoch.

    ``epoch`` grows by one each time the table changes hands; an action is stored only while
    its writer's (owner, epoch) is still the row's, checked in the same transaction, so a
    process that lost the table (paused, cut off) can never commit a move again. The row is
    written only when the table changes hands or is asked for: how long the owner's claim
    lasts is its process's lease (:class:`ProcessRow`), renewed once for all its tables.
    """

    __tablename__ = "leases"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    owner: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    epoch: Mapped[int] = mapped_column(Integer)
    wanted_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """A process that has a client for this table and asks the owner to hand it over."""


class ProcessRow(Base):
    """One server process of a cluster and its lease: every table whose lease row names it
    is its own while ``expires_at`` lies ahead. One row update per renewal, however many
    tables the process holds.

    ``epoch`` counts the process's registrations (a renewal names it, so a row registered
    again is not renewed by an older registration)."""

    __tablename__ = "server_processes"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    epoch: Mapped[int] = mapped_column(Integer)
    expires_at: Mapped[float] = mapped_column(Float)
    """Seconds since 1970 by the database's clock (PostgreSQL) or the server's (SQLite)."""
    sockets: Mapped[str | None] = mapped_column(Text, nullable=True)
    """The play sockets each address holds on this process, as JSON ``{address: count}``,
    written with every renewal (:mod:`.shared_counts`): they count while the lease runs."""


class SeatHolderRow(Base):
    """Who held a seat from version ``since`` on (until the seat's next row): the deal's
    seating at 0, then each change during play. Names only, never a token."""

    __tablename__ = "seat_holders"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    """0 for the seat's first holder, then one more for each change (several may happen at
    one version, before anyone moved)."""
    since: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    name: Mapped[str] = mapped_column(String(64))


class AddressEventRow(Base):
    """One counted event of a client address (a table opened, a failed log-in, a
    registration), when several processes serve one site (:mod:`.shared_counts`)."""

    __tablename__ = "address_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(16))
    address: Mapped[str] = mapped_column(String(64))
    at: Mapped[float] = mapped_column(Float)
    """Seconds since 1970 by PostgreSQL's clock."""

    __table_args__ = (Index("ix_address_events_kind_address_at", "kind", "address", "at"),)


class WaitingGroupRow(Base):
    """A play-now table waiting for strangers (:mod:`.play_pool`): one pool for the whole
    site, so every process matches from it and any of them deals it at its deadline. No
    foreign key: the pool forgets its own rows, and a lobby table is discarded without it."""

    __tablename__ = "waiting_groups"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seats: Mapped[int] = mapped_column(SmallInteger)
    speed: Mapped[str] = mapped_column(String(8))
    deadline: Mapped[float] = mapped_column(Float)
    """Seconds since 1970 by the database's clock (PostgreSQL) or the server's (SQLite)."""


class WaitingPlayerRow(Base):
    """One player waiting in a group. ``present``: their socket reached the table; until
    then the seat is only reserved, and given back after a few seconds."""

    __tablename__ = "waiting_players"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(64))
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    rating: Mapped[float | None] = mapped_column(Float, nullable=True)
    avoids: Mapped[str] = mapped_column(Text)
    """The lower-cased names this player muted, as a JSON list."""
    reserved_at: Mapped[float] = mapped_column(Float)
    present: Mapped[bool]
