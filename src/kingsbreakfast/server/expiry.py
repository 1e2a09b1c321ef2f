"""Lobby tables nobody uses are forgotten: one left without a host, or without any activity
for the configured time, is deleted (it never started, so it has no record worth keeping)
and its sockets are closed with 4004, *no such table*.

Without this every abandoned lobby table stayed in memory, in the database and in the lobby
list for ever, and opening tables in a loop grew all three without end.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from .store import StorageError
from .tables import LOBBY
from .wire import CLOSE_NO_TABLE

if TYPE_CHECKING:
    from .master import Master

log = logging.getLogger("kingsbreakfast.server")


def sweep_every(expiry: float) -> float:
    """How often to look: a quarter of the expiry, at most once a minute."""
    return max(0.05, min(60.0, expiry / 4.0))


async def keep_lobby_fresh(
    master: Master, expiry: float, clock: Callable[[], float] = time.monotonic
) -> None:
    while True:
        await asyncio.sleep(sweep_every(expiry))
        try:
            await sweep(master, expiry, clock())
        except StorageError as error:  # the database is away: look again next round
            log.warning("lobby sweep skipped (%s)", error)


async def sweep(master: Master, expiry: float, now: float) -> list[str]:
    """Forget the lobby tables that are due; answers their ids."""
    gone: list[str] = []
    for table in list(master.tables.values()):
        if table.status != LOBBY:
            continue
        if any(conn.seat is not None for conn in table.connections):
            table.active_at = now  # a seated player waiting at the table is activity
        if table.host is not None and now - table.active_at <= expiry:
            continue
        async with table.lock:
            if table.status != LOBBY or master.tables.get(table.id) is not table:
                continue
            await master.journal.call(master.storage.discard_lobby, table.id)
            for conn in list(table.connections):
                conn.close(CLOSE_NO_TABLE, "this table expired")
            table.connections.clear()
            master.forget(table.id)
        log.info("table %s: expired in the lobby", table.id)
        gone.append(table.id)
    return gone
