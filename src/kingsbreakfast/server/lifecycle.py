"""A table's life in one process: the phases it passes through, why it closes, and the
events others subscribe to.

A table held in memory is in one :class:`Phase` at a time, changed only by its actor::

    lobby ──deal──▶ playing ──last action stored──▶ over
      │                │                              │
      └────────────────┴────────── close(reason) ─────┘──▶ closing ──▶ gone

Every way a table leaves memory is one :class:`CloseReason` given to the actor's one
``close``: it stops the table's clock and bots, tells its sockets why (or not, as the reason
says), and is then announced on :attr:`TableEvents.closed`, where the process's registry of
tables forgets it and gives its lease back as the reason asks.
"""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, Generic, TypeVar

from .wire import CLOSE_MOVED, CLOSE_NO_TABLE

if TYPE_CHECKING:
    from .actor import TableActor
    from .tables import Table

T = TypeVar("T")


class Phase(enum.Enum):
    """Where a table in memory is in its life. The first three are also what the store
    keeps as the game's status (the value); the last two exist only in memory."""

    LOBBY = "lobby"
    """Seats are taken and given back; the host may deal."""
    PLAYING = "playing"
    """Dealt: moves, bots and clocks. A seat left is only asked for (consent)."""
    OVER = "over"
    """The last action is stored; players and spectators still look at the final view."""
    CLOSING = "closing"
    """``close`` is stopping the table: no new timer, bot move or presence update starts."""
    GONE = "gone"
    """Out of memory: a socket still holding the actor is told to reconnect."""

    @property
    def open(self) -> bool:
        """Still serving (not closing or gone)."""
        return self in STORED


STORED: Final = frozenset({Phase.LOBBY, Phase.PLAYING, Phase.OVER})


class CloseReason(enum.Enum):
    """Why a table leaves this process's memory, and what its sockets are told."""

    LET_GO = "let_go"
    """Another process owns the table now (its lease was lost or fenced off): sockets
    reconnect, and the proxy sends them to the owner."""
    HANDED_OVER = "handed_over"
    """Another process asked for the table: it is given up, and its lease released."""
    RETIRED = "retired"
    """A finished game's last watcher left: it lives on in the archive only."""
    EXPIRED = "expired"
    """A lobby table without a host, or idle too long, was deleted."""
    SHUTDOWN = "shutdown"
    """The process stops: the table stays in the store and its lease is released with
    every other at once; its sockets go with the server."""

    @property
    def tells(self) -> tuple[int, str] | None:
        """The close code and words the table's sockets get (None: left open)."""
        return _TELLS.get(self)


_TELLS: Final = {
    CloseReason.LET_GO: (CLOSE_MOVED, "this table moved to another server: reconnect"),
    CloseReason.HANDED_OVER: (CLOSE_MOVED, "this table moved to another server: reconnect"),
    CloseReason.EXPIRED: (CLOSE_NO_TABLE, "this table expired"),
}


class Signal(Generic[T]):
    """Handlers told of one kind of event, in the order they subscribed."""

    def __init__(self) -> None:
        self._handlers: list[Callable[[T], object]] = []

    def connect(self, handler: Callable[[T], object]) -> None:
        self._handlers.append(handler)

    def emit(self, value: T) -> None:
        for handler in self._handlers:
            handler(value)


class AsyncSignal(Generic[T]):
    """A :class:`Signal` whose handlers are awaited one after the other."""

    def __init__(self) -> None:
        self._handlers: list[Callable[[T], Awaitable[None]]] = []

    def connect(self, handler: Callable[[T], Awaitable[None]]) -> None:
        self._handlers.append(handler)

    async def emit(self, value: T) -> None:
        for handler in self._handlers:
            await handler(value)


@dataclass(frozen=True, slots=True)
class Closed:
    actor: TableActor
    reason: CloseReason


@dataclass(slots=True)
class TableEvents:
    """What the tables of one process announce, for whoever subscribes (the registry of
    tables, the site's ratings and turn clocks)."""

    game_over: Signal[Table] = field(default_factory=Signal)
    """A table's last action was stored (results and ratings)."""
    clock_started: Signal[Table] = field(default_factory=Signal)
    """A turn's clock started (turn-based tables store the deadline)."""
    restored: AsyncSignal[Table] = field(default_factory=AsyncSignal)
    """A table came back from the store, before its clock starts again (turn-based tables
    take their stored deadline back)."""
    closed: Signal[Closed] = field(default_factory=Signal)
    """A table left memory (the actor's ``close``)."""
    timed_out: Signal[tuple[Table, int]] = field(default_factory=Signal)
    """A person's seat ran out of time (away past the grace, or past the turn clock) and a
    bot moved for it: (table, seat), once per seat and game (ratings count it a leave)."""
