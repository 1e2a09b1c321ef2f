"""The match master of one process: which tables it holds, and the door to each.

It keeps the process's tables and their actors, brings unfinished games back at start-up,
and hands each request to the right place: lobby checks to :mod:`.lobby`, a table's play to
its :class:`~.actor.TableActor`, the store to :class:`~.persistence.Journal`.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from contextlib import suppress
from typing import Any

from pydantic import JsonValue

from kingsbreakfast.engine import Record, State

from .actor import Dealer, Hall, TableActor
from .leases import Leases, keep_leases
from .lobby import (
    ArchivedGame,
    LobbyError,
    ReplayStep,
    archived,
    check_table,
    clean_name,
    deal,
    replay_step,
    seat_kinds,
)
from .persistence import Journal
from .restore import restore, seat_records
from .store import GameStore, StorageError
from .tables import HUMAN, LOBBY, OPEN, OVER, PLAYING, Outbox, Seat, Table, new_token, token_digest
from .wire import CLOSE_MOVED, Hello, Message, TableInfo

__all__ = ["ArchivedGame", "LobbyError", "Master", "ReplayStep", "clean_name", "deal"]

log = logging.getLogger("kingsbreakfast.server")


class Master:
    """All tables of one server process."""

    def __init__(
        self,
        storage: GameStore,
        *,
        bot_delay: float = 0.6,
        zombie_grace: float = 30.0,
        wall_clock: Callable[[], float] = time.time,
        dealer: Dealer | None = None,
        lease_seconds: float | None = None,
        owner: str | None = None,
    ) -> None:
        self.storage = storage
        self.journal = Journal(storage)
        self.dealer = dealer or deal
        self.hall = Hall(bot_delay=bot_delay, zombie_grace=zombie_grace, wall_clock=wall_clock)
        self.hall.lease_lost = self._lease_lost
        self.tables: dict[str, Table] = {}
        self._actors: dict[str, TableActor] = {}
        self.leases: Leases | None = None
        """None: this process owns every table (one process, SQLite or PostgreSQL). Else
        several processes share the database and each table is held by lease (cluster)."""
        if lease_seconds is not None:
            self.leases = Leases(self.journal, lease_seconds, owner)
            self.journal.fence = self.leases.fence
        self._keeper: asyncio.Task[None] | None = None
        self._taking: dict[str, asyncio.Lock] = {}
        self.on_restore: Callable[[Table], Awaitable[None]] = _nothing
        """Told of a table brought back from the store before its clock starts again
        (turn-based tables take their stored deadline back)."""

    # The pace of every table lives in the hall; tests tune it through the master.
    @property
    def bot_delay(self) -> float:
        return self.hall.bot_delay

    @bot_delay.setter
    def bot_delay(self, value: float) -> None:
        self.hall.bot_delay = value

    @property
    def zombie_grace(self) -> float:
        return self.hall.zombie_grace

    @zombie_grace.setter
    def zombie_grace(self, value: float) -> None:
        self.hall.zombie_grace = value

    @property
    def wall_clock(self) -> Callable[[], float]:
        return self.hall.wall_clock

    @wall_clock.setter
    def wall_clock(self, value: Callable[[], float]) -> None:
        self.hall.wall_clock = value

    # -- life cycle -----------------------------------------------------------------------
    async def open(self, migrate: bool = True) -> None:
        """Migrate the schema and bring back every unfinished table (restart recovery). In a
        cluster, tables are taken on demand and orphans by the lease keeper instead."""
        if migrate:
            await self.journal.call(self.storage.migrate)
        if self.leases is not None:
            self._keeper = asyncio.get_running_loop().create_task(keep_leases(self))
            return
        for record in await self.journal.call(self.storage.load_unfinished):
            table = restore(record)
            await self.on_restore(table)
            actor = self._hold(table)
            actor.schedule()
        log.info("resumed %d unfinished tables", len(self.tables))

    async def close(self) -> None:
        self.hall.closing = True
        if self._keeper is not None:
            self._keeper.cancel()
            await asyncio.gather(self._keeper, return_exceptions=True)
        for actor in self._actors.values():
            actor.stop()
        await asyncio.gather(*self.hall.tasks, return_exceptions=True)
        self.hall.bot_thread.shutdown(wait=False, cancel_futures=True)
        if self.leases is not None and self.leases.epochs:
            # hand every table over at once: a rolling restart waits for no lease to expire
            with suppress(StorageError):
                await self.journal.call(
                    self.storage.release_leases, self.leases.owner, list(self.leases.epochs),
                    self.leases.seconds,
                )
        await self.journal.close()

    def _hold(self, table: Table) -> TableActor:
        actor = TableActor(table, self.journal, self.hall)
        self.tables[table.id] = table
        self._actors[table.id] = actor
        return actor

    def _drop(self, table_id: str) -> None:
        self.tables.pop(table_id, None)
        actor = self._actors.pop(table_id, None)
        if actor is not None:
            actor.stop()

    def _retire(self, table_id: str) -> None:
        """A finished game's last watcher left: it lives on in the archive only, and its
        lease (if any) is given back, so no process renews it for ever."""
        self._drop(table_id)
        if self.leases is not None and self.leases.holds(table_id):
            self.leases.forget(table_id)
            task = asyncio.get_running_loop().create_task(self._release(table_id))
            self.hall.keep(task)

    async def _release(self, table_id: str) -> None:
        assert self.leases is not None
        with suppress(StorageError):
            await self.journal.call(
                self.storage.release_leases, self.leases.owner, [table_id], 0.0
            )

    # -- ownership (cluster) ----------------------------------------------------------------
    def _lease_lost(self, table_id: str) -> None:
        """A write was fenced off: let the table go (its clients reconnect to the owner)."""
        self.let_go(table_id)

    def let_go(self, table_id: str) -> None:
        """Forget a table another process owns now; its sockets are closed so their clients
        reconnect, and the proxy sends them to the new owner."""
        table = self.tables.get(table_id)
        self._drop(table_id)
        if self.leases is not None:
            self.leases.forget(table_id)
        if table is not None:
            for conn in list(table.connections):
                conn.close(CLOSE_MOVED, "this table moved to another server: reconnect")
            table.connections.clear()
            log.info("table %s: handed to another process", table_id)

    async def hand_over(self, table_id: str) -> None:
        """Another process has a client for this table: finish what is in flight, then
        release the lease so it can take the table at once."""
        table = self.tables.get(table_id)
        if self.leases is None or table is None:
            return
        async with table.lock:
            self.let_go(table_id)
            await self.journal.call(
                self.storage.release_leases, self.leases.owner, [table_id], self.leases.seconds
            )

    async def own(
        self, table_id: str, wait: float | None = None, ask: bool = True
    ) -> Table | None:
        """The table, held by this process: taken from the store (its game replayed) when
        another process had it. None when there is no such table in the lobby or in play."""
        table = self.tables.get(table_id)
        if self.leases is None or len(table_id) > 32:
            return table
        if table is not None and (self.leases.holds(table_id) or table.status == OVER):
            return table
        if wait is None:
            wait = self.leases.seconds + 2.0
        lock = self._taking.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:  # two sockets of one table arriving together take it once
                return await self._take(table_id, wait, ask)
        finally:
            if not lock.locked():
                self._taking.pop(table_id, None)

    async def _take(self, table_id: str, wait: float, ask: bool) -> Table | None:
        assert self.leases is not None
        table = self.tables.get(table_id)
        if table is not None and (self.leases.holds(table_id) or table.status == OVER):
            return table
        record = await self.journal.call(self.storage.load, table_id)
        if record is None or record.status == OVER:
            return None
        if not await self.leases.take(table_id, wait, ask):
            raise LobbyError(
                503, "table_busy", "another server still holds this table; try again",
                retryable=True,
            )
        # read again under the lease: the last owner may have written since
        record = await self.journal.call(self.storage.load, table_id)
        if record is None:
            return None
        table = restore(record)
        await self.on_restore(table)
        actor = self._hold(table)
        actor.schedule()
        log.info("table %s: taken over at version %d", table_id, actor.table.version)
        return actor.table

    async def held(self, table_id: str) -> Table:
        """The table for a lobby call on it (404 when there is none)."""
        table = await self.own(table_id)
        if table is None:
            raise LobbyError(404, "no_table", "there is no such table", table=table_id[:40])
        return table

    def actor(self, table: Table) -> TableActor:
        actor = self._actors.get(table.id)
        if actor is None or actor.table is not table:
            raise LobbyError(404, "no_table", "there is no such table", table=table.id[:40])
        return actor

    # -- lobby ----------------------------------------------------------------------------
    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise LobbyError(404, "no_table", "there is no such table", table=table_id[:40])
        return table

    async def find(self, table_id: str) -> Table | None:
        """A table in memory, or a finished one brought back from the archive so a returning
        player still sees the final view and the score."""
        table = await self.own(table_id)
        if table is not None or len(table_id) > 32:
            return table
        record = await self.journal.call(self.storage.load, table_id)
        if record is None or record.status != OVER:
            return None
        table = self.tables.get(table_id)
        if table is None:
            table = self._hold(restore(record)).table
        return table

    async def create_table(
        self,
        name: str,
        *,
        seats: int,
        rules: dict[str, JsonValue],
        bot_level: str,
        clock_seconds: int | None,
        public: bool,
        table_id: str | None = None,
        token: str | None = None,
    ) -> tuple[Table, int, str]:
        """A new table in the lobby with its creator (the host) in seat 0 (``table_id`` and
        ``token``: chosen by the caller, e.g. a seat token derived for an account)."""
        host_name = clean_name(name)
        parsed_rules = check_table(seats, rules, bot_level, clock_seconds)
        token = token or new_token()
        table = Table(
            id=table_id or secrets.token_urlsafe(9),
            num_seats=seats,
            rules=parsed_rules,
            bot_level=bot_level,
            clock_seconds=clock_seconds,
            public=public,
            seats=[Seat(HUMAN, host_name, token_digest(token))]
            + [Seat(OPEN, "") for _ in range(seats - 1)],
        )
        await self.journal.call(
            self.storage.create_game,
            table.id,
            num_seats=seats,
            rules=parsed_rules.to_dict(),
            bot_level=bot_level,
            clock_seconds=clock_seconds,
            public=public,
            seats=seat_records(table),
        )
        if self.leases is None:
            self._hold(table)
        # else: the table is in the database only; the process the proxy routes its id to
        # takes it with its first request (no handover from the process that created it)
        log.info("table %s created (%d seats)", table.id, seats)
        return table, 0, token

    async def join(self, table_id: str, name: str, token: str | None = None) -> tuple[int, str]:
        """Claim the first open seat: in the lobby, or a seat its player left during play."""
        display = clean_name(name)
        return await self.actor(await self.held(table_id)).claim_seat(display, token)

    async def open_table(self, table: Table) -> None:
        """Store and hold a table made ready elsewhere (a rematch, its seats already set)."""
        await self.journal.call(
            self.storage.create_game,
            table.id,
            num_seats=table.num_seats,
            rules=table.rules.to_dict(),
            bot_level=table.bot_level,
            clock_seconds=table.clock_seconds,
            public=table.public,
            seats=seat_records(table),
        )
        if self.leases is None:
            self._hold(table)

    async def leave(self, table_id: str, token: str) -> None:
        """Free the token's seat and invalidate the token; its sockets are closed."""
        await self.actor(await self.held(table_id)).free_seat(token)

    async def start(self, table_id: str, token: str) -> None:
        """The host deals: empty seats get bots, the deck is shuffled here and stays here."""
        await self.actor(await self.held(table_id)).deal(token, self.dealer)

    def public_tables(self) -> list[TableInfo]:
        return [
            t.public_info()
            for t in self.tables.values()
            if t.public and t.status in (LOBBY, PLAYING)
        ]

    async def lobby_tables(self) -> list[TableInfo]:
        """Public tables waiting or in play: in a cluster, every process's, from the store
        (who is connected is known only for the tables held here)."""
        if self.leases is None:
            return self.public_tables()
        records = await self.journal.call(self.storage.load_unfinished)
        infos: list[TableInfo] = []
        for record in records:
            if not record.public:
                continue
            table = self.tables.get(record.id)
            if table is None:
                table = restore(record, replay=False)
            infos.append(table.public_info())
        return infos

    # -- connections ----------------------------------------------------------------------
    def authenticate(self, table: Table, hello: Hello) -> int | None:
        """The seat a hello's token holds; None for a spectator; ProtocolError otherwise."""
        return self.actor(table).authenticate(hello)

    def attach(self, table: Table, conn: Outbox) -> None:
        """A connection joins: it gets the full current view at once (reconnect = resync).
        If the table moved to another process meanwhile, the client is told to reconnect."""
        actor = self._actors.get(table.id)
        if actor is None or actor.table is not table:
            conn.close(CLOSE_MOVED, "this table moved to another server: reconnect")
            return
        actor.attach(conn)

    def detach(self, table: Table, conn: Outbox) -> None:
        actor = self._actors.get(table.id)
        if actor is None or actor.table is not table:
            table.connections.discard(conn)
            return
        if actor.detach(conn):
            self._retire(table.id)

    async def receive(self, table: Table, conn: Outbox, message: Message) -> None:
        """One parsed client message (shape was checked by the parser)."""
        actor = self._actors.get(table.id)
        if actor is None or actor.table is not table:  # moved while the socket was open
            conn.close(CLOSE_MOVED, "this table moved to another server: reconnect")
            return
        await actor.receive(conn, message)

    # -- archive --------------------------------------------------------------------------
    async def record(self, table_id: str) -> dict[str, Any]:
        """The full ``kingsbreakfast/1`` record, only once the game is over."""
        state, names = await self._finished(table_id)
        return Record.from_state(state, names).to_dict()

    async def replay_step(self, table_id: str, step: int) -> ReplayStep:
        """The finished game as it stood after ``step`` actions, every hand shown."""
        state, names = await self._finished(table_id)
        answer = replay_step(state, names, step)
        table = self.tables.get(table_id)
        if table is not None:
            answer["seats"] = seat_kinds([(s.kind, s.name) for s in table.seats], table.bot_level)
        else:
            record = await self.journal.call(self.storage.load, table_id)
            if record is not None:
                answer["seats"] = seat_kinds(
                    [(s.kind, s.name) for s in record.seats], record.bot_level
                )
        return answer

    async def _finished(self, table_id: str) -> tuple[State, list[str]]:
        table = self.tables.get(table_id)
        if table is not None and table.state is not None and table.status == OVER:
            return table.state, table.names()
        if table is not None:
            raise LobbyError(409, "not_over", "the record is served once the game is over")
        record = await self.journal.call(self.storage.load, table_id)
        if record is None:
            raise LobbyError(404, "no_table", "there is no such game")
        if record.status != OVER:
            raise LobbyError(409, "not_over", "the record is served once the game is over")
        restored = restore(record)
        assert restored.state is not None
        return restored.state, restored.names()

    async def archive(self, limit: int = 50) -> list[ArchivedGame]:
        return archived(await self.journal.call(self.storage.list_archive, limit))


async def _nothing(_table: Table) -> None:
    return None
