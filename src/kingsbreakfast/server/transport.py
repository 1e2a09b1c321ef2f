"""The play socket: a WebSocket session from its hello to its close, and each connection's
own queue of outgoing frames.

The shape of every frame is checked here (and the sender's pace); what a frame means is the
table actor's business. A slow reader only ever delays itself: it has its own queue and is
dropped when it falls too far behind.
"""

from __future__ import annotations

import asyncio
import time
import types
from asyncio import FIRST_COMPLETED
from collections.abc import Coroutine, Generator
from contextlib import suppress
from typing import Any, Final

from starlette.types import Message as AsgiMessage
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from . import metrics
from .actor import TableActor
from .wire import (
    CLOSE_CROWDED,
    CLOSE_POLICY,
    CLOSE_TOO_BIG,
    CLOSE_TRY_LATER,
    CLOSE_UNSUPPORTED,
    Hello,
    ProtocolError,
    error_frame,
    parse_message,
)

HELLO_SECONDS: Final = 10.0
OUTBOX_FRAMES: Final = 64
"""A connection more than this many frames behind is dropped, never slowing its table."""
RATE_PER_SECOND: Final = 10.0
RATE_BURST: Final = 30.0
MAX_STRIKES: Final = 20
"""Refused frames (bad JSON, floods, refused moves) a connection may send before it is
closed; one strike is forgiven every ``FORGIVE_SECONDS``, so a long game's few honest races
(a move sent just as a bot moved) never add up to a close."""
FORGIVE_SECONDS: Final = 10.0
FLUSH_SECONDS: Final = 2.0
"""How long a closing connection may take to send the frames queued before its close."""


async def send_and_close(websocket: WebSocket, code: str, message: str, close: int) -> None:
    try:
        await websocket.send_text(error_frame(code, message, {}, None))
        await websocket.close(close, message[:120])
    except (WebSocketDisconnect, RuntimeError):
        pass


class SocketOutbox:
    """One connection's queue of frames: a slow reader only ever delays itself, and is
    dropped when it falls ``OUTBOX_FRAMES`` behind.

    A frame pushed while nothing is queued or on its way is handed to the socket at once,
    and the socket almost always takes it without waiting (the peer reads): so a move's
    broadcast writes its frames itself instead of waking a task per connection. Only a
    frame the socket makes wait (the peer's window is full) goes on in a task of its own,
    and whatever is pushed meanwhile queues behind it, in order, for the sender task."""

    def __init__(self, websocket: WebSocket, seat: int | None) -> None:
        self.seat = seat
        self.websocket = websocket
        self.queue: asyncio.Queue[str] = asyncio.Queue(OUTBOX_FRAMES)
        self.closed: tuple[int, str] | None = None
        self._sending = False
        """The sender task is handing a queued frame to the socket."""
        self._waiting: asyncio.Task[None] | None = None
        """A frame handed over at once that the socket made wait."""
        self._gone = False
        """A send failed: the peer went away, and nothing more is sent."""
        self.sender = asyncio.get_running_loop().create_task(self._drain())
        self._closer: asyncio.Task[None] | None = None

    def push(self, text: str) -> None:
        if self.closed is not None:
            return
        if (not self._sending and self.queue.empty() and not self._gone
                and (self._waiting is None or self._waiting.done())):
            self._send_now(text)
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close(CLOSE_TRY_LATER, "too far behind: reconnect for a fresh view")

    def _send_now(self, text: str) -> None:
        sending = self.websocket.send_text(text)
        try:
            waits_on = sending.send(None)
        except StopIteration:  # taken at once: the usual case
            return
        except (WebSocketDisconnect, RuntimeError, OSError):
            self._gone = True  # send nothing more: what is pushed from here stays queued
            self.sender.cancel()
            return
        self._waiting = asyncio.get_running_loop().create_task(_finish(sending, waits_on))

    def close(self, code: int, reason: str) -> None:
        if self.closed is not None:
            return
        self.closed = (code, reason)
        self._closer = asyncio.get_running_loop().create_task(self._close(code, reason))

    async def _drain(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                self._sending = True
                try:
                    if self._waiting is not None:  # the frame before this one goes first
                        await self._waiting
                    await self.websocket.send_text(text)
                finally:
                    self._sending = False
                    self.queue.task_done()
        except (WebSocketDisconnect, RuntimeError, OSError):
            self._gone = True

    async def _close(self, code: int, reason: str) -> None:
        if code != CLOSE_TRY_LATER:  # let queued frames (the error saying why) go first
            await self._flush(FLUSH_SECONDS)
        self.sender.cancel()
        if self._waiting is not None:
            self._waiting.cancel()
        if self.websocket.client_state == WebSocketState.CONNECTED:
            with suppress(WebSocketDisconnect, RuntimeError, OSError):
                await self.websocket.close(code, reason[:120])

    async def _flush(self, timeout: float) -> None:
        """Wait until every queued frame was handed to the socket, the sender stopped (the
        peer went away) or ``timeout`` passed, whichever comes first."""
        sent = asyncio.ensure_future(self._all_sent())
        try:
            await asyncio.wait((sent, self.sender), timeout=timeout, return_when=FIRST_COMPLETED)
        finally:
            sent.cancel()

    async def _all_sent(self) -> None:
        await self.queue.join()
        if self._waiting is not None:
            with suppress(WebSocketDisconnect, RuntimeError, OSError):
                await self._waiting

    async def wait_closed(self) -> None:
        if self._closer is not None:
            await asyncio.gather(self._closer, return_exceptions=True)
        self.sender.cancel()
        if self._waiting is not None:
            self._waiting.cancel()


@types.coroutine
def _finish(sending: Coroutine[Any, Any, None], waits_on: Any) -> Generator[Any, None, None]:
    """The rest of a send that had to wait: first for what it waits on (the task running
    this waits in its place), then the send resumed from there to its end."""
    try:
        yield waits_on
    except BaseException:
        sending.close()
        raise
    yield from sending.__await__()


async def session(
    actor: TableActor, websocket: WebSocket, cookie_token: str | None = None,
    seated_only: bool = False,
) -> None:
    """Hello, then messages until the socket closes: the shape and the pace are checked
    here, the rest by the table's actor. ``cookie_token`` is the seat this socket's cookies
    hold, used when the hello asks for it; ``seated_only``: the socket came past its
    address's cap, so a hello that holds no seat is turned away."""
    try:
        first = await asyncio.wait_for(websocket.receive(), HELLO_SECONDS)
    except TimeoutError:
        await send_and_close(websocket, "no_hello", "say hello first", CLOSE_POLICY)
        return
    except WebSocketDisconnect:
        return
    text = _frame_text(first)
    if text is None:
        if first.get("type") == "websocket.receive":
            await send_and_close(
                websocket, "binary_frame", "frames must be JSON text", CLOSE_UNSUPPORTED
            )
        return
    try:
        hello = parse_message(text)
        if not isinstance(hello, Hello):
            raise ProtocolError("no_hello", "the first message must be a hello")
        if hello.cookie and hello.token is None:
            hello = Hello(token=cookie_token)
        seat = actor.authenticate(hello)
    except ProtocolError as error:
        await send_and_close(websocket, error.code, error.message, error.close)
        return
    if seated_only and seat is None:
        metrics.refused("too_many_sockets")
        await send_and_close(
            websocket, "too_many_sockets", "too many connections from your address",
            CLOSE_CROWDED,
        )
        return
    outbox = SocketOutbox(websocket, seat)
    actor.attach(outbox, hello)
    allowance = RATE_BURST
    last = time.monotonic()
    strikes = 0.0
    told: set[str] = set()
    """Refusals of the frame's shape or pace this socket was told: each once (a flood of
    one fault is answered by one error, then only counted)."""
    try:
        while outbox.closed is None:
            event = await websocket.receive()
            if event["type"] == "websocket.disconnect":
                break
            text = _frame_text(event)
            if text is None:
                outbox.push(error_frame("binary_frame", "frames must be JSON text", {}, None))
                outbox.close(CLOSE_UNSUPPORTED, "frames must be JSON text")
                break
            now = time.monotonic()
            allowance = min(RATE_BURST, allowance + (now - last) * RATE_PER_SECOND)
            strikes = max(0.0, strikes - (now - last) / FORGIVE_SECONDS)
            last = now
            if allowance < 1.0:
                strikes += 1
                metrics.refused("rate_limited")
                if "rate_limited" not in told:
                    told.add("rate_limited")
                    outbox.push(
                        error_frame(
                            "rate_limited", "too many messages: slow down",
                            {"per_second": RATE_PER_SECOND}, actor.table.version,
                        )
                    )
            else:
                allowance -= 1.0
                told.discard("rate_limited")  # back under the limit: a new flood is told
                try:
                    message = parse_message(text)
                except ProtocolError as error:
                    strikes += 1
                    metrics.refused(error.code)
                    if error.code not in told or error.code == "frame_too_big":
                        told.add(error.code)
                        outbox.push(error_frame(error.code, error.message, error.params, None))
                    if error.code == "frame_too_big":
                        outbox.close(CLOSE_TOO_BIG, error.message)
                        break
                else:
                    if await actor.receive(outbox, message):
                        strikes += 1
            if strikes >= MAX_STRIKES:
                outbox.close(CLOSE_POLICY, "too many refused messages")
                break
    except WebSocketDisconnect:
        pass
    finally:
        actor.detach(outbox)
        await outbox.wait_closed()


def _frame_text(event: AsgiMessage) -> str | None:
    if event.get("type") != "websocket.receive":
        return None
    text = event.get("text")
    if isinstance(text, str):
        return text
    return None
