"""The registry of one process's tables: it finds a table's actor, and creates one.

It brings unfinished games back at start-up, takes a table from the store when another
process had it (cluster), opens new tables and answers the read-only archive calls. Play,
seats and a table's life belong to the table's :class:`~.actor.TableActor`; the registry
only learns, from :attr:`~.lifecycle.TableEvents.closed`, that an actor has closed, and then
forgets it and gives its lease back as the close reason asks. Lobby checks live in
:mod:`.lobby`, the lease keeper in :mod:`.leases`, lobby expiry in :mod:`.expiry`.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from contextlib import suppress
from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic import JsonValue

from kingsbreakfast.engine import Record, State

from .actor import TableActor
from .expiry import keep_lobby_fresh
from .hall import Dealer, Hall
from .leases import Leases, keep_leases
from .lifecycle import Closed, CloseReason, Phase, TableEvents
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
from .tables import HUMAN, LOBBY, OPEN, OVER, Seat, Table, new_token, token_digest
from .wire import TableInfo

__all__ = ["ArchivedGame", "LobbyError", "Master", "ReplayStep", "clean_name", "deal"]

log = logging.getLogger("kingsbreakfast.server")


class Master:
    """All tables of one server process, by id."""

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
        lobby_expiry: float = 0.0,
    ) -> None:
        self.storage = storage
        self.lobby_expiry = lobby_expiry
        """Seconds an idle or hostless lobby table lives (0: for ever); see :mod:`.expiry`."""
        self.journal = Journal(storage)
        self.dealer = dealer or deal
        self.hall = Hall(bot_delay=bot_delay, zombie_grace=zombie_grace, wall_clock=wall_clock)
        self.events.closed.connect(self._closed)
        self.actors: dict[str, TableActor] = {}
        self.leases: Leases | None = None
        """None: this process owns every table (one process, SQLite or PostgreSQL). Else
        several processes share the database and each table is held by lease (cluster)."""
        if lease_seconds is not None:
            self.leases = Leases(self.journal, lease_seconds, owner)
            self.journal.fence = self.leases.fence
        self._keeper: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._taking: dict[str, asyncio.Lock] = {}

    @property
    def events(self) -> TableEvents:
        """What this process's tables announce (subscribe with ``events.<kind>.connect``)."""
        return self.hall.events

    @property
    def tables(self) -> Mapping[str, Table]:
        """The record of every table held here, by id."""
        return {table_id: actor.table for table_id, actor in self.actors.items()}

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

    # -- the process's life -----------------------------------------------------------------
    async def open(self, migrate: bool = True) -> None:
        """Migrate the schema and bring back every unfinished table (restart recovery). In a
        cluster, tables are taken on demand and orphans by the lease keeper instead."""
        if migrate:
            await self.journal.call(self.storage.migrate)
        if self.lobby_expiry > 0:
            self._sweeper = asyncio.get_running_loop().create_task(keep_lobby_fresh(
                self.actors, self.lobby_expiry,
                unheld=None if self.leases is None else self._expire_unheld,
            ))
        if self.leases is not None:
            self._keeper = asyncio.get_running_loop().create_task(
                keep_leases(self.leases, self.actors, self._adopt)
            )
            return
        for record in await self.journal.call(self.storage.load_unfinished):
            table = restore(record)
            await self.events.restored.emit(table)
            actor = self._hold(table)
            actor.taken_over()
            actor.schedule()
        log.info("resumed %d unfinished tables", len(self.actors))

    async def close(self) -> None:
        """Stop every chore, close every table (:attr:`CloseReason.SHUTDOWN`), wait for the
        work in flight, then release every lease at once: a rolling restart waits for no
        lease to expire."""
        for chore in (self._keeper, self._sweeper):
            if chore is not None:
                chore.cancel()
                await asyncio.gather(chore, return_exceptions=True)
        for actor in list(self.actors.values()):
            actor.close(CloseReason.SHUTDOWN)
        await asyncio.gather(*self.hall.tasks, return_exceptions=True)
        self.hall.bot_thread.shutdown(wait=False, cancel_futures=True)
        if self.leases is not None and self.leases.life is not None:
            with suppress(StorageError):  # every table let go, the process's lease ended
                await self.journal.call(self.storage.retire_process, self.leases.owner)
        await self.journal.close()

    def _hold(self, table: Table) -> TableActor:
        actor = TableActor(table, self.journal, self.hall)
        old = self.actors.get(table.id)
        self.actors[table.id] = actor
        if old is not None:  # replaced: its sockets are told to reconnect if they act
            old.close(CloseReason.RETIRED)
        return actor

    def _closed(self, event: Closed) -> None:
        """An actor closed: forget it, and its lease as the reason asks."""
        table_id = event.actor.table.id
        if self.actors.get(table_id) is not event.actor:
            return  # an actor already replaced: the table itself stays
        del self.actors[table_id]
        leases = self.leases
        if leases is None or event.reason is CloseReason.SHUTDOWN:
            return  # (shutdown releases every lease at once, after the work in flight)
        held = leases.holds(table_id)
        leases.forget(table_id)
        if event.reason is CloseReason.RETIRED and held:
            # given back at once, so no process renews a finished game's lease for ever
            task = asyncio.get_running_loop().create_task(self._release(table_id))
            self.hall.keep(task)

    async def _release(self, table_id: str) -> None:
        assert self.leases is not None
        with suppress(StorageError):
            await self.journal.call(self.storage.release_leases, self.leases.owner, [table_id])

    # -- finding a table's actor --------------------------------------------------------------
    async def own(
        self, table_id: str, wait: float | None = None, ask: bool = True
    ) -> TableActor | None:
        """The table's actor, held by this process: taken from the store (its game replayed)
        when another process had it. None when there is no such table in the lobby or in
        play."""
        actor = self.actors.get(table_id)
        if self.leases is None or len(table_id) > 32:
            return actor
        if actor is not None and (self.leases.holds(table_id) or actor.phase is Phase.OVER):
            return actor
        if wait is None:
            wait = self.leases.seconds + 2.0
        lock = self._taking.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:  # two sockets of one table arriving together take it once
                return await self._take(table_id, wait, ask)
        finally:
            if not lock.locked():
                self._taking.pop(table_id, None)

    async def _expire_unheld(self) -> None:
        """Lobby tables older than the expiry that no living process holds: taken (refused
        when another process holds one) and expired unless someone sits there now."""
        oldest = datetime.now(UTC) - timedelta(seconds=self.lobby_expiry)
        for record in await self.journal.call(self.storage.load_unfinished):
            if (record.status != LOBBY or record.id in self.actors
                    or _aware(record.created_at) > oldest):
                continue
            try:
                actor = await self.own(record.id, wait=0.0, ask=False)
            except LobbyError:  # another process holds it: its own sweep decides
                continue
            if actor is not None and not actor.audience.any_seated() and await actor.expire():
                log.info("table %s: expired in the lobby (nobody held it)", record.id)

    async def _adopt(self, table_id: str) -> None:
        """An orphan (its owner died): taken at once, nobody asked."""
        await self.own(table_id, wait=0.0, ask=False)

    async def _take(self, table_id: str, wait: float, ask: bool) -> TableActor | None:
        assert self.leases is not None
        actor = self.actors.get(table_id)
        if actor is not None and (self.leases.holds(table_id) or actor.phase is Phase.OVER):
            return actor
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
        await self.events.restored.emit(table)
        actor = self._hold(table)
        actor.taken_over()
        actor.schedule()
        log.info("table %s: taken over at version %d", table_id, table.version)
        return actor

    async def held(self, table_id: str) -> TableActor:
        """The actor of the table a lobby call names (404 when there is none)."""
        actor = await self.own(table_id)
        if actor is None:
            raise LobbyError(404, "no_table", "there is no such table", table=table_id[:40])
        return actor

    def actor(self, table: Table) -> TableActor:
        """The actor holding this very record (404 when it left memory)."""
        actor = self.actors.get(table.id)
        if actor is None or actor.table is not table:
            raise LobbyError(404, "no_table", "there is no such table", table=table.id[:40])
        return actor

    async def find(self, table_id: str) -> TableActor | None:
        """A table's actor, or a finished game brought back from the archive so a returning
        player still sees the final view and the score."""
        actor = await self.own(table_id)
        if actor is not None or len(table_id) > 32:
            return actor
        record = await self.journal.call(self.storage.load, table_id)
        if record is None or record.status != OVER:
            return None
        actor = self.actors.get(table_id)
        if actor is None:
            actor = self._hold(restore(record))
        return actor

    # -- opening tables, and the lobby's calls on one ----------------------------------------
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

    async def discard_lobby(self, table_id: str) -> None:
        """Forget a table that never started (e.g. one stored for a play-now group that
        was not needed after all): held here, it is closed too."""
        actor = self.actors.get(table_id)
        if actor is not None:
            await actor.expire()
        else:
            await self.journal.call(self.storage.discard_lobby, table_id)

    async def join(
        self, table_id: str, name: str, token: str | None = None, holder: str | None = None
    ) -> tuple[int, str]:
        """Claim the first open seat in the lobby, or ask the host for a seat its player
        left during play (the token then holds nothing until the host accepts). ``token``:
        the seat token to use (an account's); ``holder``: one the newcomer already holds."""
        display = clean_name(name)
        return await (await self.held(table_id)).claim_seat(display, token, holder)

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
        await (await self.held(table_id)).free_seat(token)

    async def start(self, table_id: str, token: str) -> None:
        """The host deals: empty seats get bots, the deck is shuffled here and stays here."""
        await (await self.held(table_id)).deal(token, self.dealer)

    def public_tables(self) -> list[TableInfo]:
        return [
            actor.public_info()
            for actor in self.actors.values()
            if actor.table.public and actor.phase in (Phase.LOBBY, Phase.PLAYING)
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
            actor = self.actors.get(record.id)
            infos.append(
                actor.public_info() if actor is not None
                else restore(record, replay=False).public_info()
            )
        return infos

    # -- archive --------------------------------------------------------------------------
    async def record(self, table_id: str) -> dict[str, Any]:
        """The full ``kingsbreakfast/1`` record, only once the game is over."""
        state, names = await self.finished(table_id)
        return Record.from_state(state, names).to_dict()

    async def replay_step(self, table_id: str, step: int) -> ReplayStep:
        """The finished game as it stood after ``step`` actions, every hand shown."""
        state, names = await self.finished(table_id)
        answer = replay_step(state, names, step)
        actor = self.actors.get(table_id)
        if actor is not None:
            table = actor.table
            answer["seats"] = seat_kinds([(s.kind, s.name) for s in table.seats], table.bot_level)
        else:
            record = await self.journal.call(self.storage.load, table_id)
            if record is not None:
                answer["seats"] = seat_kinds(
                    [(s.kind, s.name) for s in record.seats], record.bot_level
                )
        return answer

    async def finished(self, table_id: str) -> tuple[State, list[str]]:
        """A game's final state and names, from its actor while it is in memory, else from
        the store; refused (409 ``not_over``) while it is being played, so no one reads the
        deck of a running game."""
        actor = self.actors.get(table_id)
        if actor is not None and actor.table.state is not None and actor.phase is Phase.OVER:
            return actor.table.state, actor.table.names()
        if actor is not None:
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


def _aware(moment: datetime) -> datetime:
    """SQLite gives back a naive time (stored as UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)

