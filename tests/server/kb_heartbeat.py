"""A seat's client that keeps its socket honest the way the browser does
(``web/static/heartbeat.js``): a ping once the socket has been quiet 2.5 s, any frame a sign
of life, and a ping unanswered 3.5 s later gives the socket up: the table is found again
through the proxy at once. Used by
the frozen-owner test and benchmark: a process stopped with SIGSTOP leaves its sockets open
and silent, and only a heartbeat (or the proxy closing them) tells the player."""

from __future__ import annotations

import asyncio
import json
import random
import time
from contextlib import suppress
from typing import Any

import websockets

BEAT_SECONDS = 2.5
ANSWER_SECONDS = 3.5
SILENCE_SECONDS = BEAT_SECONDS + ANSWER_SECONDS
"""The browser's figures (``BEAT_MS``, ``ANSWER_MS``, ``SILENCE_MS`` in heartbeat.js)."""


class HeartbeatSeat:
    """Plays a random legal move on its turn, pings, gives up silent sockets, reconnects,
    and remembers which moves of its seat it sent itself."""

    def __init__(self, ws_base: str, table_id: str, seat: int, token: str,
                 rng: random.Random, think: float = 0.0) -> None:
        self.url = f"{ws_base}/ws/tables/{table_id}"
        self.seat = seat
        self.token = token
        self.rng = rng
        self.think = think
        self.version = -1
        self.history: list[Any] = []
        self.over = False
        self.acted: set[int] = set()
        """Versions this seat sent a move at: the index its move takes in the history."""
        self.given_up: list[float] = []
        """When (monotonic) a socket was given up for its silence."""
        self.lost: list[float] = []
        """When a socket was lost in any way (given up, or closed by the other end)."""
        self.states_after: list[tuple[float, dict[str, Any]]] = []
        """Every state frame with the time it came: who held the seat, whether a zombie."""

    def played_for_me(self) -> list[int]:
        """The moves of this seat in the game that it did not send: a bot's, for a player
        counted as gone."""
        return [number for number, entry in enumerate(self.history)
                if entry["seat"] == self.seat and number not in self.acted]

    async def play(self) -> None:
        backoff = 0.05
        while not self.over:
            with suppress(websockets.ConnectionClosed, OSError, TimeoutError,
                          websockets.InvalidStatus, websockets.InvalidHandshake):
                await self._one_socket()
            if not self.over:
                self.lost.append(time.monotonic())
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 1.0)

    async def _one_socket(self) -> None:
        heard = time.monotonic()
        # opening counts as silence too: the proxy may still send it to the frozen process
        ws = await websockets.connect(self.url, ping_interval=None,
                                      open_timeout=SILENCE_SECONDS)
        try:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            heard = time.monotonic()
            frames: asyncio.Queue[str] = asyncio.Queue()

            async def read() -> None:
                async for text in ws:
                    frames.put_nowait(str(text))
                frames.put_nowait("")

            reader = asyncio.ensure_future(read())
            asked: float | None = None  # when the ping still unanswered was sent
            sent: set[int] = set()  # a move sent before a reconnect may be lost: sent again
            try:
                while True:
                    now = time.monotonic()
                    if asked is not None and now - asked > ANSWER_SECONDS:
                        self.given_up.append(now)
                        return
                    if asked is None and now - heard >= BEAT_SECONDS:
                        asked = now
                        await ws.send('{"type":"ping"}')
                    try:
                        text = await asyncio.wait_for(frames.get(), BEAT_SECONDS / 2)
                    except TimeoutError:
                        continue
                    if not text:
                        return  # closed by the other end
                    heard, asked = time.monotonic(), None
                    if await self._frame(ws, json.loads(text), sent):
                        return
            finally:
                reader.cancel()
        finally:
            ws.transport.abort()  # no closing handshake with a process that may be frozen

    async def _frame(self, ws: Any, frame: dict[str, Any], sent: set[int]) -> bool:
        """True once the game is over."""
        if frame["type"] != "state" or frame["view"] is None:
            return False
        self.states_after.append((time.monotonic(), frame))
        view = frame["view"]
        if frame["version"] >= self.version:
            self.version = frame["version"]
            self.history = view["history"]
        if view["to_move"] is None:
            self.over = True
            return True
        if view["to_move"] == self.seat and frame["version"] not in sent:
            if self.think:
                await asyncio.sleep(self.think)
            sent.add(frame["version"])
            self.acted.add(frame["version"])
            words = self.rng.choice(view["legal"]).split()
            action: dict[str, Any] = {"type": words[0]}
            if words[0] == "take":
                action["dish"] = words[1]
            elif words[0] == "feed":
                action["dishes"] = words[1:]
            await ws.send(json.dumps(
                {"type": "act", "version": frame["version"], "action": action}
            ))
        return False
