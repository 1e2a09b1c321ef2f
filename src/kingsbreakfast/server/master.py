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
from collections.abc import Callable
from typing import Any

from pydantic import JsonValue

from kingsbreakfast.engine import Record, Rules, State

from .actor import Dealer, Hall, TableActor, make_bots
from .lobby import (
    ArchivedGame,
    LobbyError,
    ReplayStep,
    archived,
    check_table,
    clean_name,
    deal,
    replay_state,
    replay_step,
)
from .persistence import Journal
from .store import GameRecord, GameStore, SeatRecord
from .tables import HUMAN, LOBBY, OPEN, OVER, PLAYING, Outbox, Seat, Table, new_token, token_digest
from .wire import Hello, Message, TableInfo

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
    ) -> None:
        self.storage = storage
        self.journal = Journal(storage)
        self.dealer = dealer or deal
        self.hall = Hall(bot_delay=bot_delay, zombie_grace=zombie_grace, wall_clock=wall_clock)
        self.tables: dict[str, Table] = {}
        self._actors: dict[str, TableActor] = {}

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
    async def open(self) -> None:
        """Migrate the schema and bring back every unfinished table (restart recovery)."""
        await self.journal.call(self.storage.migrate)
        for record in await self.journal.call(self.storage.load_unfinished):
            actor = self._hold(restore(record))
            actor.schedule()
        log.info("resumed %d unfinished tables", len(self.tables))

    async def close(self) -> None:
        self.hall.closing = True
        for actor in self._actors.values():
            actor.stop()
        await asyncio.gather(*self.hall.tasks, return_exceptions=True)
        self.hall.bot_thread.shutdown(wait=False, cancel_futures=True)
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
        table = self.tables.get(table_id)
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
    ) -> tuple[Table, int, str]:
        """A new table in the lobby with its creator (the host) in seat 0."""
        host_name = clean_name(name)
        parsed_rules = check_table(seats, rules, bot_level, clock_seconds)
        token = new_token()
        table = Table(
            id=secrets.token_urlsafe(9),
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
            seats=_seat_records(table),
        )
        self._hold(table)
        log.info("table %s created (%d seats)", table.id, seats)
        return table, 0, token

    async def join(self, table_id: str, name: str) -> tuple[int, str]:
        """Claim the first open seat: in the lobby, or a seat its player left during play."""
        table = self.get(table_id)
        return await self.actor(table).claim_seat(clean_name(name))

    async def leave(self, table_id: str, token: str) -> None:
        """Free the token's seat and invalidate the token; its sockets are closed."""
        await self.actor(self.get(table_id)).free_seat(token)

    async def start(self, table_id: str, token: str) -> None:
        """The host deals: empty seats get bots, the deck is shuffled here and stays here."""
        await self.actor(self.get(table_id)).deal(token, self.dealer)

    def public_tables(self) -> list[TableInfo]:
        return [
            t.public_info()
            for t in self.tables.values()
            if t.public and t.status in (LOBBY, PLAYING)
        ]

    # -- connections ----------------------------------------------------------------------
    def authenticate(self, table: Table, hello: Hello) -> int | None:
        """The seat a hello's token holds; None for a spectator; ProtocolError otherwise."""
        return self.actor(table).authenticate(hello)

    def attach(self, table: Table, conn: Outbox) -> None:
        """A connection joins: it gets the full current view at once (reconnect = resync)."""
        self.actor(table).attach(conn)

    def detach(self, table: Table, conn: Outbox) -> None:
        actor = self._actors.get(table.id)
        if actor is None or actor.table is not table:
            table.connections.discard(conn)
            return
        if actor.detach(conn):
            # the last watcher of a finished game left: it lives on in the archive only
            self._drop(table.id)

    async def receive(self, table: Table, conn: Outbox, message: Message) -> None:
        """One parsed client message (shape was checked by the parser)."""
        await self.actor(table).receive(conn, message)

    # -- archive --------------------------------------------------------------------------
    async def record(self, table_id: str) -> dict[str, Any]:
        """The full ``kingsbreakfast/1`` record, only once the game is over."""
        state, names = await self._finished(table_id)
        return Record.from_state(state, names).to_dict()

    async def replay_step(self, table_id: str, step: int) -> ReplayStep:
        """The finished game as it stood after ``step`` actions, every hand shown."""
        state, names = await self._finished(table_id)
        return replay_step(state, names, step)

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


def restore(record: GameRecord) -> Table:
    """A stored table back in memory, its game replayed from the deck and the actions."""
    table = Table(
        id=record.id,
        num_seats=record.num_seats,
        rules=Rules.from_dict(record.rules),
        bot_level=record.bot_level,
        clock_seconds=record.clock_seconds,
        public=record.public,
        seats=[Seat(s.kind, s.name, s.token_hash) for s in record.seats],
        status=record.status,
    )
    if record.deck is not None:
        table.state = replay_state(record)
        table.version = len(record.actions)
        make_bots(table)
    return table


def _seat_records(table: Table) -> list[SeatRecord]:
    return [SeatRecord(n, s.kind, s.name, s.token_hash) for n, s in enumerate(table.seats)]
