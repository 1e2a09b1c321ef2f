"""The database tables of accounts and of what players keep between games: sessions,
ratings, results, seats owned by accounts, table chat, rematches and turn clocks.

They share the game tables' metadata (:mod:`.models`) so one alembic history covers both;
the rows here only point at games, never the other way, so the game store knows nothing of
accounts. Passwords are argon2id hashes and session ids SHA-256 digests: a database dump
holds neither in clear.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Float, ForeignKey, Integer, SmallInteger, String, false
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base


class SiteKeyRow(Base):
    """A secret every server process of one site shares (signing cookies, deriving seat
    tokens); made once, at the first start, unless the operator gives one."""

    __tablename__ = "site_keys"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


class AccountRow(Base):
    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64))
    name_key: Mapped[str] = mapped_column(String(64), unique=True)
    """The name folded (NFKC, case-folded): what a player types to log in."""
    look_alike: Mapped[str] = mapped_column(String(255), unique=True)
    """How the name looks (:func:`.names.look_alike_key`): no two accounts read alike."""
    password_hash: Mapped[str] = mapped_column(String(256))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    rated_games: Mapped[int] = mapped_column(Integer)
    opponents: Mapped[int] = mapped_column(Integer, server_default="0")
    """Different accounts met in rated games: a rating is provisional until there are
    enough (:mod:`.ratings`)."""


class LoginFailureRow(Base):
    """Wrong passwords for one typed name from one address (``address`` empty: from every
    address together), whether or not an account has that name, so an answer never tells
    which names exist. The lock of :mod:`.accounts` is read from these rows."""

    __tablename__ = "login_failures"

    name_key: Mapped[str] = mapped_column(String(64), primary_key=True)
    address: Mapped[str] = mapped_column(String(64), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer)
    since: Mapped[float] = mapped_column(Float, index=True)
    """When this run of failures began (the whole name's window starts here)."""
    locked_until: Mapped[float] = mapped_column(Float)


class AuthSessionRow(Base):
    __tablename__ = "auth_sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    expires_at: Mapped[float] = mapped_column(Float)


class SeatAccountRow(Base):
    """A seat held by an account: the player gets it back from any device."""

    __tablename__ = "seat_accounts"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)


class LeaverRow(Base):
    """An account that left a game in play, or let its clock run out while away: it ranks
    last among the accounts when the game is rated (:mod:`.ratings`)."""

    __tablename__ = "game_leavers"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(SmallInteger)
    version: Mapped[int] = mapped_column(Integer)
    """The game's version when it happened (the first time, if more than once)."""
    why: Mapped[str] = mapped_column(String(16))
    """``left`` or ``clock`` (away past the grace or the turn clock)."""


class GameResultRow(Base):
    """One account's finished game: its place, points and rating after it."""

    __tablename__ = "game_results"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id"), primary_key=True, index=True
    )
    seat: Mapped[int] = mapped_column(SmallInteger)
    num_seats: Mapped[int] = mapped_column(SmallInteger)
    place: Mapped[int] = mapped_column(SmallInteger)
    won: Mapped[bool]
    points: Mapped[int] = mapped_column(Integer)
    favourite: Mapped[str | None] = mapped_column(String(16), nullable=True)
    rated: Mapped[bool]
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    established: Mapped[bool] = mapped_column(server_default=false())
    """The account's rating was established when the game began: only such opponents count
    towards another account's established status (:mod:`.ratings`)."""
    left_early: Mapped[bool] = mapped_column(server_default=false())
    """The account left (or ran out of time) before :data:`.rating_rules.EARLY_MOVES` of its own
    moves: an early ending, which :mod:`.boosting` looks for."""
    unrated: Mapped[str] = mapped_column(String(16), server_default="")
    """Why a game with two accounts was not rated: ``aborted``, ``repeat``, ``boosting``
    (empty when rated, or when there were not two accounts)."""


class SeatAddressRow(Base):
    """Where an account sat down from, as a keyed digest of the address (never the address
    itself): :mod:`.boosting` compares them, and only for equality."""

    __tablename__ = "seat_addresses"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    address: Mapped[str] = mapped_column(String(32))


class BoostingFlagRow(Base):
    """An account flagged for review by :mod:`.boosting`: off the leaderboard, its games
    unrated, until the operator clears the flag (deletes the row)."""

    __tablename__ = "boosting_flags"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    reason: Mapped[str] = mapped_column(String(32))
    game_id: Mapped[str] = mapped_column(String(32))
    """The game whose settling raised the flag."""
    flagged_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatRow(Base):
    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    seat: Mapped[int] = mapped_column(SmallInteger)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(String(400))
    at: Mapped[float] = mapped_column(Float)


class RematchRow(Base):
    """The table a finished game continues at, and which seats said yes (comma-separated)."""

    __tablename__ = "rematches"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    new_game_id: Mapped[str] = mapped_column(String(32))
    votes: Mapped[str] = mapped_column(String(32))


class TurnClockRow(Base):
    """When the player to move at ``version`` runs out of time (turn-based tables), so a
    restart does not give them a fresh clock."""

    __tablename__ = "turn_clocks"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    deadline: Mapped[float] = mapped_column(Float)


class AccountEmailRow(Base):
    """An account's own e-mail address (optional): where its verification and password
    reset links go, and nowhere else. Never shown to other players, never exported."""

    __tablename__ = "account_emails"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    address: Mapped[str] = mapped_column(String(254), index=True)
    """Normalised (:func:`.recovery.normalise_address`): what a "forgot password" finds."""
    verified: Mapped[bool] = mapped_column(server_default=false())
    """A link mailed to it was opened: only then may a reset link go there."""
    language: Mapped[str] = mapped_column(String(8))
    """The language the account's mails are written in."""


class MailTokenRow(Base):
    """A link mailed to an account (verify the address, or reset the password), stored only
    as a keyed digest of its token: single use (``used``) and expiring. Rows stay until a
    day after they expire, so the mails sent per account can be counted (rate limits)."""

    __tablename__ = "mail_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    purpose: Mapped[str] = mapped_column(String(8))
    """``verify`` or ``reset``."""
    address: Mapped[str] = mapped_column(String(254))
    """The address the mail went to (a verify link verifies this one only)."""
    created_at: Mapped[float] = mapped_column(Float, index=True)
    expires_at: Mapped[float] = mapped_column(Float)
    used: Mapped[bool] = mapped_column(server_default=false())
