"""A connection that never reads is dropped when it falls behind, and never slows anyone; a
closing connection first sends what it queued, unless its peer is gone or stalled."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from starlette.websockets import WebSocketState

from kingsbreakfast.server import transport
from kingsbreakfast.server.transport import OUTBOX_FRAMES, SocketOutbox
from kingsbreakfast.server.wire import CLOSE_POLICY, CLOSE_TRY_LATER
from server.kb_harness import until


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
        await until(lambda: reading.sent == OUTBOX_FRAMES * 3)  # the reader got everything
        await fast.wait_closed()
        return stalled, reading, pushing

    stalled, reading, _ = asyncio.run(main())
    assert stalled.closed is not None and stalled.closed[0] == CLOSE_TRY_LATER
    assert stalled.sent == 1
    assert reading.closed is None and reading.sent == OUTBOX_FRAMES * 3


class BrokenSocket(StalledSocket):
    """A peer that went away: the first send fails."""

    async def send_text(self, text: str) -> None:
        self.sent += 1
        raise RuntimeError("the peer is gone")


def test_a_closing_connection_sends_what_it_queued_first() -> None:
    async def main() -> ReadingSocket:
        reading = ReadingSocket()
        outbox = SocketOutbox(reading, 0)  # type: ignore[arg-type]
        for n in range(5):
            outbox.push(f"frame {n}")
        outbox.push("the error saying why")
        outbox.close(CLOSE_POLICY, "too many refused messages")
        outbox.push("too late")  # nothing is queued after the close
        await outbox.wait_closed()
        return reading

    reading = asyncio.run(main())
    assert reading.sent == 6
    assert reading.closed == (CLOSE_POLICY, "too many refused messages")


def test_a_gone_peer_does_not_hold_up_the_close(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(transport, "FLUSH_SECONDS", 3600.0)  # only the peer's failure can end it

    async def main() -> BrokenSocket:
        broken = BrokenSocket()
        outbox = SocketOutbox(broken, 0)  # type: ignore[arg-type]
        for n in range(5):
            outbox.push(f"frame {n}")
        outbox.close(CLOSE_POLICY, "too many refused messages")
        await asyncio.wait_for(outbox.wait_closed(), 60)
        return broken

    broken = asyncio.run(main())
    assert broken.sent == 1
    assert broken.closed == (CLOSE_POLICY, "too many refused messages")


def test_a_stalled_peer_is_closed_after_the_flush_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(transport, "FLUSH_SECONDS", 0.01)

    async def main() -> StalledSocket:
        stalled = StalledSocket()
        outbox = SocketOutbox(stalled, 0)  # type: ignore[arg-type]
        outbox.push("frame 0")
        outbox.push("frame 1")
        outbox.close(CLOSE_POLICY, "too many refused messages")
        await asyncio.wait_for(outbox.wait_closed(), 60)
        return stalled

    stalled = asyncio.run(main())
    assert stalled.sent == 1
    assert stalled.closed == (CLOSE_POLICY, "too many refused messages")


class ListeningSocket(StalledSocket):
    """A peer that reads: each frame is taken at once unless ``held`` is cleared, when a
    send waits until it is set again (the peer's window full for a moment)."""

    def __init__(self) -> None:
        super().__init__()
        self.held = asyncio.Event()
        self.held.set()
        self.got: list[str] = []

    async def send_text(self, text: str) -> None:
        self.sent += 1
        await self.held.wait()
        self.got.append(text)


def test_frames_keep_their_order_when_a_send_has_to_wait() -> None:
    """A frame is handed to the socket at once when nothing is queued; one the socket makes
    wait holds back every later frame until it went, so the order is never changed."""

    async def main() -> tuple[ListeningSocket, list[str]]:
        peer = ListeningSocket()
        outbox = SocketOutbox(peer, 0)  # type: ignore[arg-type]
        outbox.push("frame 0")
        first = list(peer.got)  # taken during the push itself
        peer.held.clear()
        for n in range(1, 6):
            outbox.push(f"frame {n}")
            await asyncio.sleep(0)
        assert peer.got == ["frame 0"]  # frame 1 waits; 2–5 queue behind it
        peer.held.set()
        await until(lambda: len(peer.got) == 6)
        outbox.push("frame 6")  # nothing queued or waiting any more: at once again
        assert peer.got[-1] == "frame 6"
        outbox.close(CLOSE_POLICY, "done")
        await outbox.wait_closed()
        return peer, first

    peer, first = asyncio.run(main())
    assert first == ["frame 0"]
    assert peer.got == [f"frame {n}" for n in range(7)]
    assert peer.closed == (CLOSE_POLICY, "done")
