"""Who is at a table, told cheaply: a socket that comes or goes costs the others a few dozen
bytes, at most a few times a second, never a full state frame each.

A full state frame is a view of the whole game (a couple of kilobytes); sending one to every
connection whenever anyone connects would let a crowd of spectators joining at once bury the
seated players' sockets. So the joining socket alone gets the full frame, and the others a
:class:`~.wire.PresenceFrame` once the table has been quiet for a moment (batched), and only
if what it says differs from what they last heard.

The table's sockets all live in the process that owns the table (the proxy routes by table
id, docs/server.md), so the batching is local to that process in a cluster too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Final

from .audience import Audience, Outbox
from .tables import Table, state_frame, table_clock
from .wire import PresenceFrame, SeatPresence, encode

PRESENCE_SECONDS: Final = 0.25
"""How long presence changes gather before one update goes out: at most four a second."""


def presence_frame(table: Table, audience: Audience) -> str:
    present = audience.present()
    seats: list[SeatPresence] = [
        {"connected": number in present, "zombie": seat.zombie}
        for number, seat in enumerate(table.seats)
    ]
    frame: PresenceFrame = {
        "type": "presence", "version": table.version, "seats": seats, "clock": table_clock(table)
    }
    return encode(frame)


def _snapshot(table: Table, audience: Audience) -> object:
    """What a presence frame would say, cheaply comparable (a broadcast takes one)."""
    present = audience.present()
    return (
        table.version, table.deadline,
        tuple((number in present, seat.zombie) for number, seat in enumerate(table.seats)),
    )


class Presence:
    """One table's batched presence updates."""

    def __init__(self, table: Table, audience: Audience) -> None:
        self.table = table
        self.audience = audience
        self._told: object = None
        """The presence everyone last heard (in a presence or a state frame)."""
        self._pending: asyncio.Task[None] | None = None

    def changed(self) -> None:
        """Someone came or went: tell the table within ``PRESENCE_SECONDS``."""
        if self._pending is None or self._pending.done():
            self._pending = asyncio.get_running_loop().create_task(self._tell())

    def told_in_full(self) -> None:
        """A state frame went to everyone: it carried the presence too."""
        self._told = _snapshot(self.table, self.audience)

    def stop(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None

    async def _tell(self) -> None:
        await asyncio.sleep(PRESENCE_SECONDS)
        self._pending = None
        now = _snapshot(self.table, self.audience)
        if now == self._told:
            return
        self._told = now
        self.audience.tell(presence_frame(self.table, self.audience))


class WatcherFrame:
    """The spectators' greeting, built once while the table stays the same: a crowd arriving
    together costs one view, not one each."""

    def __init__(self, table: Table, audience: Audience) -> None:
        self.table = table
        self.audience = audience
        self._key: object = None
        self._frame = ""

    def frame(self) -> str:
        table = self.table
        present = self.audience.present()
        key = (
            table.version, table.status, table.deadline, present,
            tuple((s.kind, s.name, s.zombie) for s in table.seats),
        )
        if key != self._key:
            self._key, self._frame = key, state_frame(table, None, present)
        return self._frame


WATCHER_CHUNK: Final = 64
"""Spectators served per turn of the event loop when a crowd watches."""


class Fanout:
    """A state frame to a crowd of spectators, a chunk per turn of the event loop, so the
    players' next moves are read and answered in between instead of waiting behind a
    thousand sends. A newer frame takes over the rest of an older one's round: a spectator
    may skip a version but never sees one go backwards (each frame is a full view)."""

    def __init__(self, sent: Callable[[Outbox], None]) -> None:
        self._sent = sent
        self._job: asyncio.Handle | None = None

    def send(self, watchers: list[Outbox], frame: str) -> None:
        if self._job is not None:
            self._job.cancel()
            self._job = None
        if len(watchers) <= WATCHER_CHUNK:  # a few: at once, in order
            self._push(watchers, frame)
            return
        self._round(watchers, frame)

    def _round(self, watchers: list[Outbox], frame: str) -> None:
        self._push(watchers[:WATCHER_CHUNK], frame)
        rest = watchers[WATCHER_CHUNK:]
        self._job = (
            asyncio.get_running_loop().call_soon(self._round, rest, frame) if rest else None
        )

    def _push(self, watchers: list[Outbox], frame: str) -> None:
        for conn in watchers:
            conn.push(frame)
            self._sent(conn)

    def stop(self) -> None:
        if self._job is not None:
            self._job.cancel()
            self._job = None
