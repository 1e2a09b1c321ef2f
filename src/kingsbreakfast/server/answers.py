"""What each connection of a table was already told, so nothing is told twice.

A full state frame is about 25 times the size of a refusal, so answering every refused
move with one would make a cheap amplifier. A connection is never sent the same version of
the table twice (a refusal or a ``sync`` at a version it holds gets the small
answer alone), and the same refusal, or the same ``pong`` to a ``sync``, at the same version
is told once; repeats are only counted (toward the socket's strike limit, by the
transport). So no frame a client sends, repeated, is answered with more bytes than
it holds (``tests/server/test_attack_frames.py`` measures every kind).
"""

from __future__ import annotations

from pydantic import JsonValue

from . import metrics
from .audience import Audience, Outbox
from .tables import Table, state_frame
from .wire import error_frame, pong_frame


class Answers:
    """One table's record of what its connections were sent."""

    def __init__(self, table: Table, audience: Audience) -> None:
        self.table = table
        self.audience = audience
        self._sent: dict[Outbox, int] = {}
        """The version of the last state frame each connection was sent."""
        self._told: dict[Outbox, tuple[int, set[str]]] = {}
        """The refusals each connection was told at the version it names."""
        self._ponged: dict[Outbox, int] = {}
        """The version each connection's last ``sync`` was answered at with a pong."""

    def sent(self, conn: Outbox) -> None:
        """``conn`` was just sent the current state (a greeting or a broadcast)."""
        self._sent[conn] = self.table.version

    def forget(self, conn: Outbox) -> None:
        self._sent.pop(conn, None)
        self._told.pop(conn, None)
        self._ponged.pop(conn, None)

    def synced(self, conn: Outbox) -> bool:
        """A ``sync`` from ``conn``: its full state when it lacks this version, else a pong
        once per version; True when it was a repeat (only counted)."""
        if self.resync(conn):
            return False
        if self._ponged.get(conn) == self.table.version:
            return True
        self._ponged[conn] = self.table.version
        conn.push(pong_frame())
        return False

    def resync(self, conn: Outbox) -> bool:
        """Send ``conn`` its full state unless it holds this version already."""
        if self._sent.get(conn) == self.table.version:
            return False
        self._sent[conn] = self.table.version
        conn.push(state_frame(self.table, conn.seat, self.audience.present()))
        return True

    def refuse(
        self, conn: Outbox, code: str, message: str, params: dict[str, JsonValue],
        resync: bool,
    ) -> None:
        """A small error frame (unless this very refusal was told at this version); a fresh
        state too only when the client's version is behind and its connection was not sent
        the current one yet (a move that crossed the broadcast in flight needs none)."""
        metrics.refused(code)
        version = self.table.version
        told = self._told.get(conn)
        if told is None or told[0] != version:
            told = self._told[conn] = (version, set())
        key = f"{code}{sorted(params.items())}"
        if key not in told[1]:
            told[1].add(key)
            conn.push(error_frame(code, message, params, version))
        if resync:
            self.resync(conn)
