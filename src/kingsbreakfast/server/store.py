"""What the server needs from a database, as a ``Protocol``: the SQL store
(:mod:`.storage`) serves SQLite and PostgreSQL, the in-memory one (:mod:`.memory_store`)
serves tests, and the table actors cannot tell them apart.

Every call is synchronous and short; :mod:`.persistence` runs them in one worker thread.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from kingsbreakfast.engine import KingsBreakfastError, RulesDict


class StorageError(KingsBreakfastError):
    """The database refused or could not be reached; the move was not applied (retryable).

    The message may name the database's fault, so it is for the log: players are told only
    that the store is not answering, under the stable ``code``.
    """

    code = "storage_unavailable"


@dataclass(frozen=True, slots=True)
class SeatRecord:
    seat: int
    kind: str
    name: str
    token_hash: str | None


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A table as stored: enough to rebuild its state by replaying ``actions`` on ``deck``."""

    id: str
    status: str
    num_seats: int
    rules: RulesDict
    bot_level: str
    clock_seconds: int | None
    public: bool
    first_cook: int
    deck: tuple[str, ...] | None
    created_at: datetime
    finished_at: datetime | None
    seats: tuple[SeatRecord, ...]
    actions: tuple[tuple[int, int], ...]
    """(seat, action id) in order."""


@dataclass(frozen=True, slots=True)
class SeatHolder:
    """Who held ``seat`` from version ``since`` on: a person's name, or a bot (name empty)."""

    seat: int
    since: int
    kind: str
    name: str


ActionItem = tuple[str, int, int, int, bool]
"""One action to store: (game, number, seat, action id, whether it ends the game)."""

Fence = tuple[str, Mapping[str, int]]
"""Who writes, and the lease epoch it holds for each of its tables: a write for a table whose
lease row no longer names this owner and epoch is refused (:class:`LeaseLost`)."""


class LeaseLost(StorageError):
    """The table's lease moved to another process: this one may no longer write for it.

    Players hear the same retryable code as for an outage; the process drops the table and
    its clients reconnect to the new owner."""


@dataclass(frozen=True, slots=True)
class Renewal:
    """What one round of a process's lease renewal found."""

    kept: dict[str, int]
    """Tables still ours, with their epochs."""
    wanted: frozenset[str]
    """Tables of ours another process has a client for."""
    others: tuple[str, ...] = ()
    """The other processes whose lease is running, by name: with this one, who takes turns
    at the orphan search (:func:`~.leases.searches_now`)."""
    now: float = 0.0
    """The lease clock at the renewal (seconds since 1970): whose turn it is."""
    sockets_elsewhere: dict[str, int] = field(default_factory=dict)
    """Play sockets per address the other live processes hold, as each last renewed."""


class GameStore(Protocol):
    """Tables, seats and actions: the durable half of every table."""

    def migrate(self) -> None:
        """Bring the schema up to date (idempotent)."""

    def dispose(self) -> None: ...

    def create_game(
        self,
        game_id: str,
        *,
        num_seats: int,
        rules: RulesDict,
        bot_level: str,
        clock_seconds: int | None,
        public: bool,
        seats: list[SeatRecord],
    ) -> None: ...

    def save_seat(self, game_id: str, seat: SeatRecord, fence: Fence | None = None) -> None: ...

    def start_game(
        self,
        game_id: str,
        deck: tuple[str, ...],
        first_cook: int,
        seats: list[SeatRecord],
        fence: Fence | None = None,
        public: bool | None = None,
    ) -> None:
        """The deal and the final seating, together (``public``: listed from now on, as a
        play-now table is once dealt; None leaves it as it was)."""

    def append_actions(
        self, items: list[ActionItem], fence: Fence | None = None
    ) -> list[StorageError | None]:
        """Store several tables' actions at once; the answer says which were refused (a
        refused action never takes the others down). With a ``fence``, an action is stored
        only if its table's lease is still the writer's, checked in the same transaction."""

    # -- leases: one owner per table in play, one lease per process ------------------------
    def register_process(self, owner: str, seconds: float) -> int:
        """Start (or start again) process ``owner``'s lease, running for ``seconds``;
        answers its epoch, one more at each registration."""

    def renew_process(
        self, owner: str, epoch: int, seconds: float, sockets: Mapping[str, int] | None = None
    ) -> Renewal | None:
        """Extend ``owner``'s lease (one row, however many tables it holds), publish the play
        sockets it holds per address (``sockets``; None: it does not share them), and say
        which tables are still its own, which other processes live and what sockets they
        hold; None when the lease is not there under that epoch any more (register
        again)."""

    def retire_process(self, owner: str) -> None:
        """Shutting down: every table ``owner`` holds is let go and its lease ends."""

    def acquire_lease(self, game_id: str, owner: str, epoch: int) -> int | None:
        """Take the table for ``owner`` (its lease registered under ``epoch``) if it is
        free, its owner's lease ran out, or it is already ``owner``'s; answers the table's
        epoch (one more at each change of hands), or None while another process holds it,
        or asked for it and is alive, or ``owner``'s own lease ran out."""

    def want_lease(self, game_id: str, owner: str) -> None:
        """Ask the table's current owner to hand it over (it has no client of ours)."""

    def release_leases(self, owner: str, game_ids: list[str]) -> None:
        """Give tables up at once (handing over, a finished game). A table another process
        asked for stays reserved for that process while it is alive."""

    def orphans(self, limit: int) -> list[str]:
        """Tables in play nobody is playing: no lease row, an owner whose lease ran out, or
        released with nobody (alive) waiting for them."""

    def load(self, game_id: str) -> GameRecord | None: ...

    def load_unfinished(self) -> list[GameRecord]:
        """Every table in the lobby or in play."""

    def list_archive(self, limit: int = 50) -> list[GameRecord]:
        """The most recently finished games."""

    def discard_lobby(self, game_id: str) -> bool:
        """Forget a table that never started (an expired lobby table); True if it was one.
        A game that started is never discarded: its record is kept."""

    def ping(self) -> None:
        """Raise StorageError unless the database answers (the readiness check)."""

    def add_holders(
        self, game_id: str, holders: list[SeatHolder], fence: Fence | None = None
    ) -> None:
        """Note who holds seats from a version on (the deal, a seat changing hands)."""

    def holders(self, game_id: str) -> list[SeatHolder]:
        """Every holder of every seat of a game, by seat, then in the order they came."""
