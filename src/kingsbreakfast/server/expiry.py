"""Lobby tables nobody uses are forgotten: one left without a host, or without any activity
for the configured time, is deleted (it never started, so it has no record worth keeping)
and closed (:attr:`~.lifecycle.CloseReason.EXPIRED`: its sockets get 4004, *no such
table*).

So an abandoned lobby table does not stay in memory, in the database and in the lobby list
for ever, and opening tables in a loop does not grow all three without end. The sweep only
decides who is due; each actor deletes and closes its own table, under its own lock.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from .lifecycle import Phase
from .store import StorageError

if TYPE_CHECKING:
    from .actor import TableActor

log = logging.getLogger("kingsbreakfast.server")


def sweep_every(expiry: float) -> float:
    """How often to look: a quarter of the expiry, at most once a minute."""
    return max(0.05, min(60.0, expiry / 4.0))


async def keep_lobby_fresh(
    actors: Mapping[str, TableActor], expiry: float,
    clock: Callable[[], float] = time.monotonic,
    unheld: Callable[[], Awaitable[None]] | None = None,
) -> None:
    """Sweep the process's tables (the registry's live mapping) every so often; in a
    cluster, ``unheld`` first expires the lobby tables no process holds (one opened and
    left before anyone connected: no process would ever sweep it, and the lobby list, read
    from the database, would show it for ever)."""
    while True:
        await asyncio.sleep(sweep_every(expiry))
        try:
            if unheld is not None:
                await unheld()
            await sweep(actors.values(), expiry, clock())
        except StorageError as error:  # the database is away: look again next round
            log.warning("lobby sweep skipped (%s)", error)


async def sweep(actors: Iterable[TableActor], expiry: float, now: float) -> list[str]:
    """Close the lobby tables that are due; answers their ids."""
    gone: list[str] = []
    for actor in list(actors):
        if actor.phase is not Phase.LOBBY:
            continue
        if actor.audience.any_seated():
            actor.active_at = now  # a seated player waiting at the table is activity
        if actor.table.host is not None and now - actor.active_at <= expiry:
            continue
        try:
            expired = await actor.expire()
        except StorageError as error:  # this table only: the others are still swept
            log.warning("table %s: not expired (%s)", actor.table.id, error)
            continue
        if expired:
            log.info("table %s: expired in the lobby", actor.table.id)
            gone.append(actor.table.id)
    return gone
