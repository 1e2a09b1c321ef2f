"""A connection that never reads is dropped when it falls behind, and never slows anyone."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.websockets import WebSocketState

from kingsbreakfast.server.app import OUTBOX_FRAMES, SocketOutbox
from kingsbreakfast.server.wire import CLOSE_TRY_LATER


class StalledSocket:
    """A peer whose receive window is full: every send waits forever."""

    client_state = WebSocketState.CONNECTED

    def __init__(self) -> None:
        self.sent = 0
        self.closed: tuple[int, str] | None = None

    async def send_text(self, text: str) -> None:
        self.sent += 1
        await asyncio.Event().wait()

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)
        self.client_state = WebSocketState.DISCONNECTED


class ReadingSocket(StalledSocket):
    async def send_text(self, text: str) -> None:
        self.sent += 1


def test_a_stalled_reader_is_dropped_and_a_reader_is_not() -> None:
    async def main() -> tuple[Any, Any, float]:
        stalled, reading = StalledSocket(), ReadingSocket()
        slow = SocketOutbox(stalled, 0)  # type: ignore[arg-type]
        fast = SocketOutbox(reading, 1)  # type: ignore[arg-type]
        loop = asyncio.get_running_loop()
        started = loop.time()
        for n in range(OUTBOX_FRAMES * 3):
            slow.push(f"frame {n}")  # never blocks, however far behind the reader is
            fast.push(f"frame {n}")
            await asyncio.sleep(0)
        pushing = loop.time() - started
        await slow.wait_closed()
        await asyncio.sleep(0.01)
        await fast.wait_closed()
        return stalled, reading, pushing

    stalled, reading, _ = asyncio.run(main())
    assert stalled.closed is not None and stalled.closed[0] == CLOSE_TRY_LATER
    assert stalled.sent == 1
    assert reading.closed is None and reading.sent == OUTBOX_FRAMES * 3
