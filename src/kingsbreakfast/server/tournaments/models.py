"""The database tables of tournaments: the tournament, its entrants, and the ordinary
tables (games) it dealt, each with who sat where and, once over, their R11 results.

Everything the director needs to go on is here, so a process that takes a tournament over
after another died reads where it stood from these rows alone (:mod:`.director`). A game
row names its table by id without a foreign key: the table is an ordinary one, stored and
archived like any other, and is created only after the row that asks for it.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Integer, SmallInteger, String, Text, false
from sqlalchemy.orm import Mapped, mapped_column

from ..models import Base


class TournamentRow(Base):
    """One tournament: its kind and settings, where it stands, and who directs it now."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(8))
    """``swiss`` or ``arena``."""
    seats: Mapped[int] = mapped_column(SmallInteger)
    clock_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, server_default=false())
    bot_level: Mapped[str] = mapped_column(String(16))
    rounds: Mapped[int] = mapped_column(SmallInteger)
    """Swiss: the rounds to play (an arena: 0)."""
    starts_at: Mapped[float] = mapped_column(Float)
    ends_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """An arena's end: no table is dealt after it."""
    status: Mapped[str] = mapped_column(String(8), index=True)
    """``open`` (entries taken), ``running`` or ``over``."""
    round: Mapped[int] = mapped_column(SmallInteger, server_default="0")
    created_by: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The account that made it (None: the operator)."""
    created_at: Mapped[float] = mapped_column(Float)
    director: Mapped[str | None] = mapped_column(String(64), nullable=True)
    director_until: Mapped[float] = mapped_column(Float, server_default="0")
    """The process directing the tournament, and until when its claim holds."""
    version: Mapped[int] = mapped_column(Integer, server_default="0")
    """Counts every change, so a page polling the standings can tell when to redraw."""


class EntrantRow(Base):
    """One entrant: an account, or a bot entered by name."""

    __tablename__ = "tournament_entrants"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    number: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    """Order of entry: the last tie-break."""
    name: Mapped[str] = mapped_column(String(64))
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    bot: Mapped[bool] = mapped_column(Boolean, server_default=false())
    joined_at: Mapped[float] = mapped_column(Float)
    withdrawn: Mapped[bool] = mapped_column(Boolean, server_default=false())
    """Left an arena: seated at no new table (their games still count)."""


class TournamentGameRow(Base):
    """One table a tournament dealt: round (an arena: 0), seating and results."""

    __tablename__ = "tournament_games"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), index=True)
    round: Mapped[int] = mapped_column(SmallInteger)
    number: Mapped[int] = mapped_column(SmallInteger)
    seating: Mapped[str] = mapped_column(Text)
    """JSON: the entrant in each seat, ``null`` for a house bot filling a bye."""
    state: Mapped[str] = mapped_column(String(8))
    """``made`` (paired), ``dealt`` (its table plays) or ``over`` (results stored)."""
    results: Mapped[str | None] = mapped_column(Text, nullable=True)
    """JSON once over: ``[[points, discarded], …]`` per seat (R11)."""
    created_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
