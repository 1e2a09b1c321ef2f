"""This process's side of table ownership: which tables it holds a lease on, under which
epoch, and how it takes one.

The lease rows live in the store (see :class:`~.store.GameStore`); this is the bookkeeping
the table actors' writes are fenced with. A process that wants a table another one holds
says so in the lease row and waits: the holder hands it over at its next renewal, or the
lease expires if the holder is gone.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable, Mapping
from contextlib import suppress
from typing import TYPE_CHECKING

from .lifecycle import CloseReason
from .lobby import LobbyError
from .persistence import Journal
from .store import Fence, StorageError

if TYPE_CHECKING:
    from .actor import TableActor

log = logging.getLogger("kingsbreakfast.server")

POLL_SECONDS = 0.2
"""How often a process waiting for a table looks at its lease again."""


def process_name() -> str:
    """A name no other process ever had: host, pid and a random part (a restarted process
    with a reused pid is still someone else)."""
    return f"{socket.gethostname()[:24]}:{os.getpid()}:{secrets.token_hex(4)}"


class Leases:
    """The tables this process owns, by epoch."""

    def __init__(self, journal: Journal, seconds: float, owner: str | None = None) -> None:
        if seconds <= 0:
            raise ValueError("a lease lasts a positive number of seconds")
        self.journal = journal
        self.seconds = seconds
        """How long a lease outlives its last renewal: the longest a dead owner's tables
        wait for a successor."""
        self.renew_every = seconds / 3
        """Seconds between renewals: a lease survives two missed rounds."""
        self.owner = owner or process_name()
        self.epochs: dict[str, int] = {}

    def fence(self) -> Fence:
        return self.owner, dict(self.epochs)

    def holds(self, game_id: str) -> bool:
        return game_id in self.epochs

    async def take(self, game_id: str, wait: float, ask: bool = True) -> bool:
        """Own the table, waiting up to ``wait`` seconds for its holder to hand it over
        (``ask``: ask it to) or to die; False if it is still someone else's."""
        store = self.journal.store
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        while True:
            epoch = await self.journal.call(
                store.acquire_lease, game_id, self.owner, self.seconds
            )
            if epoch is not None:
                self.epochs[game_id] = epoch
                return True
            if ask:  # again each time: a process that took the table meanwhile cleared it
                await self.journal.call(store.want_lease, game_id, self.owner)
            left = deadline - loop.time()
            if left <= 0:
                return False
            await asyncio.sleep(min(POLL_SECONDS, left))

    def forget(self, game_id: str) -> None:
        self.epochs.pop(game_id, None)

    async def hand_over(self, actor: TableActor) -> None:
        """Another process has a client for this table: finish what is in flight (the
        actor's lock), close it, then release the lease so the other can take it at once."""
        async with actor.lock:
            actor.close(CloseReason.HANDED_OVER)
            await self.journal.call(
                self.journal.store.release_leases, self.owner, [actor.table.id], self.seconds
            )


KEEPER_ORPHANS = 100
"""Orphaned tables one process adopts per round, so a dead process's tables spread out."""


async def keep_leases(
    leases: Leases, actors: Mapping[str, TableActor],
    adopt: Callable[[str], Awaitable[None]],
) -> None:
    """Renew this process's leases a few times per lease, close the tables it lost, hand
    over those another process has clients for, and ``adopt`` orphaned tables (a dead
    owner's tables nobody asked for yet: their bots and clocks must go on). ``actors``: the
    registry's live mapping of the tables held here."""
    journal = leases.journal
    store = journal.store
    loop = asyncio.get_running_loop()
    while True:
        started = loop.time()
        try:
            renewal = await journal.call(store.renew_leases, leases.owner, leases.seconds)
            for table_id in [t for t in list(leases.epochs) if t not in renewal.kept]:
                log.warning("table %s: lease lost", table_id)
                actor = actors.get(table_id)
                if actor is None:
                    leases.forget(table_id)
                else:
                    actor.close(CloseReason.LET_GO)
            for table_id in renewal.wanted:
                actor = actors.get(table_id)
                if actor is not None:
                    await leases.hand_over(actor)
            for table_id in await journal.call(store.orphans, KEEPER_ORPHANS):
                if table_id not in actors:
                    with suppress(LobbyError):
                        await adopt(table_id)
        except StorageError as error:  # the database is away: keep trying; fencing guards
            log.warning("lease keeper: %s", error)
        except Exception:  # never let the keeper die: without it every lease would lapse
            log.exception("lease keeper failed; going on")
        await asyncio.sleep(max(0.0, leases.renew_every - (loop.time() - started)))
