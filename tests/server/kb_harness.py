"""Drive the registry of tables and their actors in-process: an in-memory transport and a
seated table.

An actor takes its transport as an interface (``Outbox``); tests use this capturing one,
the app uses WebSockets. Everything else (storage, engine, bots) is the real thing.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from kingsbreakfast.engine import Action
from kingsbreakfast.server.master import Master
from kingsbreakfast.server.storage import Storage
from kingsbreakfast.server.tables import Table
from kingsbreakfast.server.wire import Act


class Capture:
    """Every frame one connection was sent, as text (byte-exact)."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.frames: list[str] = []
        self.closed: tuple[int, str] | None = None

    def push(self, text: str) -> None:
        self.frames.append(text)

    def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)

    def decoded(self) -> list[dict[str, Any]]:
        return [json.loads(f) for f in self.frames]

    def last(self, kind: str = "state") -> dict[str, Any]:
        for frame in reversed(self.decoded()):
            if frame["type"] == kind:
                return frame
        raise AssertionError(f"no {kind} frame")

    def errors(self) -> list[dict[str, Any]]:
        return [f for f in self.decoded() if f["type"] == "error"]


def make_master(
    url: str,
    *,
    dealer: Callable[[int], tuple[tuple[int, ...], int]] | None = None,
    bot_delay: float = 0.0,
    zombie_grace: float = 30.0,
    busy_ms: int = 5000,
) -> Master:
    return Master(
        Storage(url, busy_ms=busy_ms), bot_delay=bot_delay, zombie_grace=zombie_grace,
        dealer=dealer,
    )


async def seated_table(
    master: Master, humans: int, seats: int | None = None, bot_level: str = "random",
    start: bool = True, clock_seconds: int | None = None,
) -> tuple[Table, list[str]]:
    """A table with ``humans`` people seated (seats 0..humans-1), started if asked."""
    table, _, host_token = await master.create_table(
        "Ann", seats=seats or humans, rules={}, bot_level=bot_level,
        clock_seconds=clock_seconds, public=True,
    )
    tokens = [host_token]
    for number in range(1, humans):
        seat, token = await master.join(table.id, f"Player {number}")
        assert seat == number
        tokens.append(token)
    if start:
        await master.start(table.id, host_token)
    return table, tokens


async def act(master: Master, table: Table, conn: Capture, action: Action | str,
              version: int | None = None) -> None:
    if isinstance(action, str):
        action = Action.parse(action)
    version = table.version if version is None else version
    await master.actor(table).receive(conn, Act(version, action))


async def until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    """Wait until ``condition()`` holds, looking again at every turn of the event loop.

    Checking at every turn (not every few milliseconds) sees each state the table passes
    through, however fast its bots play; the bound only stops a test that would hang.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"still not true after {seconds} s: {condition}")
        await asyncio.sleep(0)
