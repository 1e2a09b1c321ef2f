"""Who is connected to a table: its sockets, the transport side of a table in memory.

The table's record (:class:`~.tables.Table`) says what the game is; the audience says who is
listening. Frames reach a socket only through its :class:`Outbox`.
"""

from __future__ import annotations

from typing import Protocol


class Outbox(Protocol):
    """Where a connection's frames go. Pushing never blocks a table: a connection that cannot
    keep up is closed by its own outbox."""

    seat: int | None

    def push(self, text: str) -> None: ...

    def close(self, code: int, reason: str) -> None: ...


class Audience:
    """One table's open connections."""

    __slots__ = ("connections",)

    def __init__(self) -> None:
        self.connections: set[Outbox] = set()

    def present(self) -> frozenset[int | None]:
        """The seats with a socket here (None among them when a spectator watches)."""
        return frozenset(conn.seat for conn in self.connections)

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.connections)

    def any_seated(self) -> bool:
        return any(c.seat is not None for c in self.connections)

    def tell(self, frame: str) -> None:
        """One frame to every connection (chat lines, rematch votes, presence)."""
        for conn in list(self.connections):
            conn.push(frame)

    def close_all(self, code: int, reason: str) -> None:
        for conn in list(self.connections):
            conn.close(code, reason)
        self.connections.clear()
