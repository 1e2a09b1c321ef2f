"""The table of deleted accounts (:mod:`.farewell`): which pseudonym each now goes by, and
until when its old name stays reserved.

The old name is kept only as its look-alike key (:func:`.names.look_alike_key`), and only
until the reservation ends: then the row's key is blanked, so nothing here links a
pseudonym to the name it replaced any longer.
"""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base


class DepartureRow(Base):
    """A deleted account: its row in ``accounts`` stays (games and results point at it)
    under the pseudonym ``Former player <number>``."""

    __tablename__ = "departures"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, unique=True)
    """The pseudonym's number: random, so it tells nothing of the account's age or id."""
    look_alike: Mapped[str] = mapped_column(String(255), index=True)
    """The old name's look-alike key while it is reserved; empty once it is free."""
    deleted_at: Mapped[float] = mapped_column(Float)
    name_free_at: Mapped[float] = mapped_column(Float, index=True)
    """From then on anyone may register the old name (or one that reads like it)."""
