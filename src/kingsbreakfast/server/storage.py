"""Durable storage of tables, seats and actions through SQLAlchemy (SQLite or PostgreSQL).

Calls are synchronous and short; :mod:`.persistence` runs them in one worker thread, in order,
so the event loop never waits on a disk. Actions are written by group commit: the actions
of every table that arrive while a transaction is running go together in the next one
(:meth:`Storage.append_actions`), so under load many tables share a commit instead of one
each. A table broadcasts its action only once the transaction holding it has committed, so
what a player saw acknowledged survives a ``kill -9`` of the server; if a shared transaction
fails, each of its actions is retried in a transaction of its own and only the refused ones
are refused.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime
from importlib import resources
from typing import Any, cast

import psycopg
from sqlalchemy import (
    Table,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from kingsbreakfast.engine import RulesDict

from .database import DatabaseWaits, normalize_url, owner_only, sqlite_pragmas, unit_of_work
from .lease_rows import LeaseRows
from .models import ActionRow, Base, GameRow, LeaseRow, SeatHolderRow, SeatRow
from .store import (
    ActionItem,
    Fence,
    GameRecord,
    LeaseLost,
    SeatHolder,
    SeatRecord,
    StorageError,
)

__all__ = [
    "DEFAULT_URL", "DatabaseWaits", "GameRecord", "SeatRecord", "Storage", "StorageError",
    "normalize_url",
]

DEFAULT_URL = "sqlite:///kingsbreakfast.db"
_INSERT_ACTION = insert(cast(Table, ActionRow.__table__))  # Core, not the ORM's bulk path
_INSERT_GAME = insert(cast(Table, GameRow.__table__))
_INSERT_SEAT = insert(cast(Table, SeatRow.__table__))
_INSERT_HOLDER = insert(cast(Table, SeatHolderRow.__table__))
_SEATS = cast(Table, SeatRow.__table__)
_UPDATE_SEAT = (
    update(_SEATS)
    .where(_SEATS.c.game_id == bindparam("at_game"), _SEATS.c.seat == bindparam("at_seat"))
    .values(kind=bindparam("kind"), name=bindparam("name"),
            token_hash=bindparam("token_hash"))
)
"""One seat's kind, name and token digest (executed with one parameter set per seat)."""
_LAST_HOLDERS = (
    select(SeatHolderRow.seat, func.max(SeatHolderRow.number))
    .where(SeatHolderRow.game_id == bindparam("game_id"),
           SeatHolderRow.seat.in_(bindparam("seats", expanding=True)))
    .group_by(SeatHolderRow.seat)
)


def _seat_values(game_id: str, seat: SeatRecord) -> dict[str, object]:
    return {"at_game": game_id, "at_seat": seat.seat, "kind": seat.kind, "name": seat.name,
            "token_hash": seat.token_hash}


_FENCED_APPEND = """
WITH held AS (
    SELECT leases.game_id FROM leases
    WHERE (leases.game_id, leases.epoch) IN (
        SELECT * FROM unnest(CAST(%(lease_games)s AS varchar[]),
                             CAST(%(lease_epochs)s AS integer[])))
      AND leases.owner = %(owner)s
    FOR SHARE OF leases
), stored AS (
    INSERT INTO actions (game_id, number, seat, action)
    SELECT * FROM unnest(CAST(%(games)s AS varchar[]), CAST(%(numbers)s AS integer[]),
                         CAST(%(seats)s AS smallint[]), CAST(%(actions)s AS smallint[]))
        AS batch (game_id, number, seat, action)
    WHERE batch.game_id IN (SELECT game_id FROM held)
), finished AS (
    UPDATE games SET status = 'over', finished_at = %(now)s
    WHERE games.id = ANY(CAST(%(over)s AS varchar[])) AND games.id IN (SELECT game_id FROM held)
)
SELECT game_id FROM held
"""
"""Storage._append_fenced's one statement (PostgreSQL, psycopg's own placeholders: it is sent
by the driver directly): the tables whose lease is still the fence's, their actions written
and their finished games archived in the same statement."""


class Storage(LeaseRows):
    """Tables, seats and actions in one SQL database (a :class:`~.store.GameStore`)."""

    def __init__(
        self, url: str = DEFAULT_URL, *, busy_ms: int = 5000, waits: DatabaseWaits | None = None
    ) -> None:
        self.url = normalize_url(url)
        self.waits = waits or DatabaseWaits.from_env()
        self.is_sqlite = self.url.startswith("sqlite")
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            kwargs["connect_args"] = {"check_same_thread": False}
            owner_only(self.url)
        else:
            kwargs["pool_pre_ping"] = True
            kwargs["pool_size"] = 4
            kwargs["connect_args"] = {"options": self.waits.options()}
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine, "connect", sqlite_pragmas(busy_ms))
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        """The pool's connections, each statement a transaction of its own (no BEGIN and
        COMMIT around a statement that is one already)."""
        self._threads = threading.local()
        self._kept = []

    # -- schema ---------------------------------------------------------------------------
    def migrate(self) -> None:
        """Bring the schema to the newest alembic revision (idempotent)."""
        from alembic import command
        from alembic.config import Config

        config = Config()
        location = resources.files("kingsbreakfast.server").joinpath("migrations")
        config.set_main_option("script_location", str(location))
        with self.engine.begin() as connection:
            if not self.is_sqlite:
                # several processes may start at once: one migrates, the others wait for it
                connection.execute(text("SET LOCAL lock_timeout = 0"))
                connection.execute(text("SET LOCAL statement_timeout = 0"))
                connection.execute(text("SELECT pg_advisory_xact_lock(7013)"))
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    def dispose(self) -> None:
        self._forget_connections()
        self.engine.dispose()

    def _session(self) -> AbstractContextManager[Session]:
        return unit_of_work(self._sessions)

    @contextmanager
    def _transaction(self) -> Iterator[Connection]:
        """One transaction of Core statements (the lobby's writes: no ORM session to build,
        flush and tear down), the driver's errors as :class:`StorageError` like
        :func:`unit_of_work`'s."""
        try:
            with self.engine.begin() as connection:
                yield connection
        except SQLAlchemyError as error:
            raise StorageError(
                f"the database refused the change: {type(error).__name__}"
            ) from error

    # -- housekeeping ---------------------------------------------------------------------
    def discard_lobby(self, game_id: str) -> bool:
        """Forget a table that never started; a started game is kept (True if discarded).
        Every row that points at it goes too, whatever table it lives in (a seat an account
        owned, a chat line said in the lobby): one left behind would make the delete fail,
        and with it every later sweep of the lobby."""
        with self._session() as session:
            game = session.get(GameRow, game_id)
            if game is None or game.status != "lobby":
                return False
            for table in _pointing_at_games():
                session.execute(delete(table).where(table.c.game_id == game_id))
            session.delete(game)
            return True

    def ping(self) -> None:
        with self._session() as session:
            session.execute(text("SELECT 1"))

    def add_holders(
        self, game_id: str, holders: list[SeatHolder], fence: Fence | None = None
    ) -> None:
        """Each holder numbered after the seat's last one: one read of the seats' last
        numbers and one insert for all (a start records every seat at once)."""
        with self._transaction() as connection:
            if fence is not None:
                self._check_fence(connection, fence, game_id)
            last = dict(connection.execute(
                _LAST_HOLDERS, {"game_id": game_id, "seats": sorted({h.seat for h in holders})}
            ).all())
            rows = []
            for holder in holders:
                number = last.get(holder.seat, -1) + 1
                last[holder.seat] = number
                rows.append({"game_id": game_id, "seat": holder.seat, "number": number,
                             "since": holder.since, "kind": holder.kind, "name": holder.name})
            if rows:
                connection.execute(_INSERT_HOLDER, rows)

    def holders(self, game_id: str) -> list[SeatHolder]:
        with self._session() as session:
            rows = session.scalars(
                select(SeatHolderRow).where(SeatHolderRow.game_id == game_id)
                .order_by(SeatHolderRow.seat, SeatHolderRow.number)
            )
            return [SeatHolder(r.seat, r.since, r.kind, r.name) for r in rows]

    # -- writing --------------------------------------------------------------------------
    def create_game(
        self,
        game_id: str,
        *,
        num_seats: int,
        rules: RulesDict,
        bot_level: str,
        clock_seconds: int | None,
        public: bool,
        seats: list[SeatRecord],
    ) -> None:
        with self._transaction() as connection:
            connection.execute(_INSERT_GAME, {
                "id": game_id, "created_at": datetime.now(UTC), "status": "lobby",
                "num_seats": num_seats, "rules": json.dumps(rules, sort_keys=True),
                "bot_level": bot_level, "clock_seconds": clock_seconds, "public": public,
                "first_cook": 0, "deck": None, "finished_at": None,
            })
            if seats:
                connection.execute(_INSERT_SEAT, [
                    {"game_id": game_id, "seat": seat.seat, "kind": seat.kind,
                     "name": seat.name, "token_hash": seat.token_hash}
                    for seat in seats
                ])

    def save_seat(self, game_id: str, seat: SeatRecord, fence: Fence | None = None) -> None:
        with self._transaction() as connection:
            if fence is not None:
                self._check_fence(connection, fence, game_id)
            connection.execute(_UPDATE_SEAT, [_seat_values(game_id, seat)])

    def start_game(
        self,
        game_id: str,
        deck: tuple[str, ...],
        first_cook: int,
        seats: list[SeatRecord],
        fence: Fence | None = None,
        public: bool | None = None,
    ) -> None:
        """The deal and the final seating, in one transaction."""
        listed = {} if public is None else {"public": public}
        with self._transaction() as connection:
            if fence is not None:
                self._check_fence(connection, fence, game_id)
            connection.execute(
                update(GameRow)
                .where(GameRow.id == game_id)
                .values(status="playing", deck=",".join(deck), first_cook=first_cook, **listed)
            )
            if seats:
                connection.execute(_UPDATE_SEAT, [_seat_values(game_id, s) for s in seats])

    def append_action(
        self, game_id: str, number: int, seat: int, action: int, *, game_over: bool,
        fence: Fence | None = None,
    ) -> None:
        """Commit one accepted action; the game's last action also archives it.

        The hot path of play: a Core insert on a pooled connection, no ORM session.
        """
        try:
            with self.engine.begin() as connection:
                if fence is not None:
                    self._check_fence(connection, fence, game_id)
                self._write(connection, [(game_id, number, seat, action, game_over)])
        except SQLAlchemyError as error:
            raise StorageError(
                f"the database refused the change: {type(error).__name__}"
            ) from error

    def append_actions(
        self, items: list[ActionItem], fence: Fence | None = None
    ) -> list[StorageError | None]:
        """Group commit: several tables' actions (game, number, seat, action, game over) in
        one transaction. If that fails, each is committed alone, so one refused action never
        takes the others down; the answer says which failed. With a ``fence``, the tables'
        lease rows are read and locked in the same transaction, and the actions of tables
        whose lease moved on are refused with :class:`LeaseLost`."""
        if fence is not None and not self.is_sqlite:
            try:
                return self._append_fenced(items, fence)
            except (SQLAlchemyError, psycopg.Error):
                pass  # (each alone below, on a fresh connection)
        elif len(items) > 1:
            try:
                with self.engine.begin() as connection:
                    held = (
                        None if fence is None
                        else self._fenced(connection, fence, {item[0] for item in items})
                    )
                    good = [item for item in items if held is None or item[0] in held]
                    self._write(connection, good)
                return [
                    None if held is None or item[0] in held else _lost(item[0])
                    for item in items
                ]
            except SQLAlchemyError:
                pass
        results: list[StorageError | None] = []
        for g, n, s, a, over in items:
            try:
                self.append_action(g, n, s, a, game_over=over, fence=fence)
                results.append(None)
            except StorageError as error:
                results.append(error)
        return results

    def _append_fenced(
        self, items: list[ActionItem], fence: Fence
    ) -> list[StorageError | None]:
        """The group commit of a cluster process on PostgreSQL: one statement, in a
        transaction of its own, checks the leases (locking them shared, so no takeover slips
        in before the commit), writes the actions of the tables still held and archives the
        finished ones. One statement a batch, however many tables share it, and one round
        trip: the statements a move costs fall as the batch grows, never rise with it."""
        owner, epochs = fence
        games = sorted({item[0] for item in items})
        with self._own_connection() as connection:
            # the driver itself, prepared on the server: SQLAlchemy's execution machinery
            # was a third of the CPU of a one-move commit (measured), and this statement is
            # the one every move takes
            driver = connection.connection.driver_connection
            assert driver is not None
            held = {row[0] for row in driver.execute(_FENCED_APPEND, {
                "owner": owner, "lease_games": games,
                "lease_epochs": [epochs.get(g, -1) for g in games],
                "games": [i[0] for i in items], "numbers": [i[1] for i in items],
                "seats": [i[2] for i in items], "actions": [i[3] for i in items],
                "over": [i[0] for i in items if i[4]], "now": datetime.now(UTC),
            }, prepare=True).fetchall()}
        return [None if item[0] in held else _lost(item[0]) for item in items]

    @staticmethod
    def _write(connection: Connection, items: list[ActionItem]) -> None:
        if not items:
            return
        connection.execute(
            _INSERT_ACTION,
            [{"game_id": g, "number": n, "seat": s, "action": a} for g, n, s, a, _o in items],
        )
        for g, _n, _s, _a, over in items:
            if over:
                connection.execute(
                    update(GameRow)
                    .where(GameRow.id == g)
                    .values(status="over", finished_at=datetime.now(UTC))
                )

    # -- leases ---------------------------------------------------------------------------
    @staticmethod
    def _fenced(connection: Connection, fence: Fence, game_ids: set[str]) -> set[str]:
        """The tables among ``game_ids`` whose lease is still the fence's. Their rows stay
        locked (shared) until the transaction ends, so no takeover can slip in between this
        check and the commit."""
        owner, epochs = fence
        rows = connection.execute(
            select(LeaseRow.game_id, LeaseRow.owner, LeaseRow.epoch)
            .where(LeaseRow.game_id.in_(sorted(game_ids)))
            .with_for_update(read=True)
        ).all()
        return {g for g, o, e in rows if o == owner and epochs.get(g) == e}

    def _check_fence(self, connection: Connection, fence: Fence, game_id: str) -> None:
        if game_id not in self._fenced(connection, fence, {game_id}):
            raise _lost(game_id)

    # -- reading --------------------------------------------------------------------------
    def load(self, game_id: str) -> GameRecord | None:
        with self._session() as session:
            row = session.get(GameRow, game_id)
            if row is None:
                return None
            return self._record(session, row)

    def load_unfinished(self) -> list[GameRecord]:
        """Every table in the lobby or in play, to resume after a restart."""
        with self._session() as session:
            rows = session.scalars(
                select(GameRow).where(GameRow.status.in_(("lobby", "playing")))
            ).all()
            return [self._record(session, row) for row in rows]

    def list_archive(self, limit: int = 50) -> list[GameRecord]:
        """The most recently finished games."""
        with self._session() as session:
            rows = session.scalars(
                select(GameRow)
                .where(GameRow.status == "over")
                .order_by(GameRow.finished_at.desc())
                .limit(limit)
            ).all()
            return [self._record(session, row, with_actions=False) for row in rows]

    def _record(self, session: Session, row: GameRow, with_actions: bool = True) -> GameRecord:
        seats = session.scalars(
            select(SeatRow).where(SeatRow.game_id == row.id).order_by(SeatRow.seat)
        ).all()
        actions: tuple[tuple[int, int], ...] = ()
        if with_actions:
            actions = tuple(
                (a.seat, a.action)
                for a in session.scalars(
                    select(ActionRow).where(ActionRow.game_id == row.id).order_by(ActionRow.number)
                ).all()
            )
        return GameRecord(
            id=row.id,
            status=row.status,
            num_seats=row.num_seats,
            rules=json.loads(row.rules),
            bot_level=row.bot_level,
            clock_seconds=row.clock_seconds,
            public=row.public,
            first_cook=row.first_cook,
            deck=tuple(row.deck.split(",")) if row.deck else None,
            created_at=row.created_at,
            finished_at=row.finished_at,
            seats=tuple(SeatRecord(s.seat, s.kind, s.name, s.token_hash) for s in seats),
            actions=actions,
        )


def _pointing_at_games() -> list[Table]:
    """Every table with a foreign key to ``games`` (the accounts' among them, once their
    models are loaded, as they are in a server), dependents first."""
    games = cast(Table, GameRow.__table__)
    return [
        table for table in reversed(Base.metadata.sorted_tables)
        if table is not games and "game_id" in table.c
        and any(fk.column.table is games for fk in table.foreign_keys)
    ]


def _lost(game_id: str) -> LeaseLost:
    return LeaseLost(f"the lease of table {game_id} moved to another process")
