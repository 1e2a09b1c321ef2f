"""This process's side of table ownership: its own lease, which tables it holds under
which epoch, and how it takes one.

A process holds one lease (a row in the store, see :class:`~.store.GameStore`) renewed a few
times per lease however many tables it holds; every table whose row names the process is
its own while that lease lasts. This is the bookkeeping the table actors' writes are fenced
with: a move is stored only while the table's row still names this process and the epoch
it took the table at. A process that wants a table another one holds says so in the table's
row and waits: the holder hands it over at its next renewal, or the holder's lease runs out
if it is gone.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING

from .lifecycle import CloseReason
from .lobby import LobbyError
from .persistence import Journal
from .store import Fence, Renewal, StorageError

if TYPE_CHECKING:
    from .actor import TableActor
    from .shared_counts import SharedSocketGate

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
        """The tables held, each with the epoch it was taken at."""
        self.life: int | None = None
        """This process's lease epoch in the store (None: not registered, or the lease row
        was found gone)."""
        self._registering = asyncio.Lock()
        self.sockets: SharedSocketGate | None = None
        """The socket gate whose counts per address go out with each renewal and whose
        ``elsewhere`` (the other processes' counts) comes back with it (several processes on
        PostgreSQL, :class:`~.shared_counts.SharedSocketGate`); None: not shared."""

    async def register(self) -> int:
        """The process's lease, started (again) if it has none."""
        async with self._registering:
            if self.life is None:
                self.life = await self.journal.call(
                    self.journal.store.register_process, self.owner, self.seconds
                )
                log.info("process %s: lease taken (epoch %d)", self.owner, self.life)
            return self.life

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
            life = await self.register()
            epoch = await self.journal.call(store.acquire_lease, game_id, self.owner, life)
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
                self.journal.store.release_leases, self.owner, [actor.table.id]
            )


KEEPER_ORPHANS = 100
"""Orphaned tables one process adopts at its turn, so a dead process's tables spread out."""


def searches_now(owner: str, renewal: Renewal, every: float) -> bool:
    """Whether this process looks for orphaned tables at this renewal. The live processes
    take turns, one per round of the lease clock, so the cluster runs one orphan search a
    round however many processes it has (the search reads every game in play), and a dead
    process's orphans are spread over the living ones as they adopt in turn. No election to
    hold or lose: a process that dies leaves the turns when its lease runs out, which is
    when its tables become orphans."""
    names = sorted((*renewal.others, owner))
    return names[int(renewal.now // every) % len(names)] == owner


async def keep_leases(
    leases: Leases, actors: Mapping[str, TableActor],
    adopt: Callable[[str], Awaitable[None]],
) -> None:
    """Renew this process's lease a few times per lease (one row, whatever the number of
    tables, and with it the socket counts it shares), close the tables it lost, hand over
    those another process has clients for, and, at its turn (:func:`searches_now`),
    ``adopt`` orphaned tables (a dead owner's tables nobody asked for yet: their bots and
    clocks must go on). A process that was paused past its lease finds at its next
    renewal which of its tables were taken meanwhile, and closes just those. ``actors``:
    the registry's live mapping of the tables held here."""
    journal = leases.journal
    store = journal.store
    loop = asyncio.get_running_loop()
    renewed_at = loop.time()
    back_at = renewed_at - leases.seconds
    adopting: asyncio.Task[None] | None = None
    try:
        while True:
            started = loop.time()
            try:
                life = await leases.register()
                held = dict(leases.epochs)  # tables taken while the renewal runs are not judged
                gate = leases.sockets
                counts = None if gate is None else gate.published()
                renewal = await journal.call(store.renew_process, leases.owner, life,
                                             leases.seconds, counts)
                if renewal is None:  # the row is gone: register again, then judge the tables
                    log.warning("process %s: lease row gone; registering again", leases.owner)
                    leases.life = None
                    life = await leases.register()
                    renewal = await journal.call(store.renew_process, leases.owner, life,
                                                 leases.seconds, counts)
                if renewal is not None and gate is not None:
                    gate.elsewhere = renewal.sockets_elsewhere
                kept = {} if renewal is None else renewal.kept
                lost = [t for t, epoch in held.items()
                        if kept.get(t) != epoch and leases.epochs.get(t) == epoch]
                for table_id in lost:
                    log.warning("table %s: lease lost", table_id)
                    actor = actors.get(table_id)
                    if actor is None:
                        leases.forget(table_id)
                    else:
                        actor.close(CloseReason.LET_GO)
                for table_id in () if renewal is None else renewal.wanted:
                    actor = actors.get(table_id)
                    if actor is not None:
                        await leases.hand_over(actor)
                # back after the database was away: the others' leases ran out as ours did, so
                # they get a lease's time to renew before anything of theirs is taken for orphaned
                now = loop.time()
                if now - renewed_at > leases.seconds:
                    back_at = now
                renewed_at = now
                searching = (renewal is not None and now - back_at >= leases.seconds
                             and (adopting is None or adopting.done())
                             and searches_now(leases.owner, renewal, leases.renew_every))
                if searching:
                    found = [t for t in await journal.call(store.orphans, KEEPER_ORPHANS)
                             if t not in actors]
                    if found:  # beside the rounds: a hundred replays must not delay a renewal
                        adopting = loop.create_task(_adopt_all(found, actors, adopt))
            except StorageError as error:  # the database is away: keep trying; fencing guards
                log.warning("lease keeper: %s", error)
            except Exception:  # never let the keeper die: without it the lease would lapse
                log.exception("lease keeper failed; going on")
            await asyncio.sleep(max(0.0, leases.renew_every - (loop.time() - started)))
    finally:  # stopping: an adoption under way stops with the keeper
        if adopting is not None:
            adopting.cancel()


async def _adopt_all(
    found: list[str], actors: Mapping[str, TableActor],
    adopt: Callable[[str], Awaitable[None]],
) -> None:
    """Adopt the orphans one after the other (each is a replay from the database) while the
    keeper goes on renewing: a hundred replays on a loaded machine take seconds, and a
    renewal waiting behind them could let this process's own lease run out."""
    for table_id in found:
        if table_id not in actors:
            try:
                await adopt(table_id)
            except (LobbyError, StorageError):
                pass  # taken meanwhile, or the database away: the next turn looks again
            except Exception:
                log.exception("table %s: adopting it failed", table_id)
