"""The lease rows of the SQL store: a lease per server process, and per table in play the
process that owns it (see :class:`~.models.ProcessRow`, :class:`~.models.LeaseRow` and
docs/server.md, *Several processes*).

A process renews one row per round however many tables it holds, and a table's row is
written only when the table changes hands or is asked for: an idle table costs no write.
Expiry is measured by PostgreSQL's own clock, so several machines need not agree on the time
(SQLite, one machine, uses the server's).

Taking a table never waits on a row another session holds: a table's row that is locked (its
owner is committing a move, or is stopped in the middle of one) answers "not now" at once,
so the one database thread of a process is never parked behind someone else's stalled
transaction; and the process rows are only read by others, never locked.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager, suppress
from typing import Any

from sqlalchemy import ColumnElement, func, literal, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import OperationalError, SQLAlchemyError
from sqlalchemy.orm import aliased

from .models import GameRow, LeaseRow, ProcessRow
from .store import Renewal, StorageError

_RENEWAL = text("""
WITH clock AS MATERIALIZED (SELECT date_part('epoch', clock_timestamp()) AS now),
renewed AS (
    UPDATE server_processes
    SET expires_at = (SELECT now FROM clock) + :seconds, sockets = :sockets
    WHERE name = :owner AND epoch = :epoch
    RETURNING name
), others AS (
    SELECT server_processes.name, server_processes.sockets FROM server_processes, clock
    WHERE server_processes.expires_at >= clock.now AND server_processes.name <> :owner
)
SELECT 'renewed' AS kind, renewed.name, clock.now AS number FROM renewed, clock
UNION ALL
SELECT CASE WHEN leases.wanted_by IS NULL THEN 'held' ELSE 'wanted' END,
       leases.game_id, leases.epoch
FROM leases WHERE leases.owner = :owner AND EXISTS (SELECT 1 FROM renewed)
UNION ALL
SELECT 'alive', others.name, 0 FROM others
UNION ALL
SELECT 'sockets', counts.key, sum(CAST(counts.value AS integer))
FROM others, jsonb_each_text(CAST(others.sockets AS jsonb)) AS counts
WHERE others.sockets IS NOT NULL
GROUP BY counts.key
""")
"""LeaseRows.renew_process's one statement (PostgreSQL): the process's row renewed with its
socket counts; back come a ``renewed`` row (the lease clock; none: the row is not there
under this epoch), the tables it holds (``held``, or ``wanted`` by another process), the
other live processes (``alive``) and the sockets per address they hold (``sockets``)."""

STALE_PROCESS_SECONDS = 3600.0
"""A process row whose lease ran out this long ago and that no table names is deleted."""
_LOCK_NOT_AVAILABLE = "55P03"


class LeaseRows:
    """A process's lease; taking, asking for and releasing tables."""

    engine: Engine
    is_sqlite: bool
    _autocommit: Engine
    """The same pool, each statement its own transaction (no BEGIN, no COMMIT)."""
    _threads: threading.local
    """Per thread: the connection :meth:`_own_connection` keeps for it."""
    _kept: list[Connection]
    """Every connection kept so, closed by ``dispose``."""

    def _reading(self) -> AbstractContextManager[Connection]:
        """Where a round's statements run that need no transaction around them: on
        PostgreSQL each statement alone (read committed gives every statement of a
        transaction its own snapshot anyway), on the thread's own connection; SQLite keeps
        its transaction."""
        return self.engine.begin() if self.is_sqlite else self._own_connection()

    @contextmanager
    def _own_connection(self) -> Iterator[Connection]:
        """The calling thread's own connection (PostgreSQL, each statement its own
        transaction), kept open between calls: the database thread's group commits and
        lease rounds skip the pool's checkout, its reset and its liveness ping, which is a
        round trip of its own (together more than half of a one-move commit's CPU and
        time, measured). A call that fails drops the connection; the next one opens
        another, so a restarted database costs one refused call (a group commit then
        falls back to committing each action alone, on a fresh connection)."""
        connection: Connection | None = getattr(self._threads, "connection", None)
        if connection is None or connection.closed or connection.invalidated:
            connection = self._autocommit.connect()
            self._threads.connection = connection
            self._kept.append(connection)
        try:
            yield connection
        except Exception:
            self._threads.connection = None
            self._kept.remove(connection)
            with suppress(Exception):
                connection.invalidate()
            raise

    def _forget_connections(self) -> None:
        for connection in self._kept:
            with suppress(Exception):
                connection.close()
        self._kept.clear()

    def _now(self) -> ColumnElement[Any]:
        """The lease clock: the database's own on PostgreSQL, so several machines agree."""
        if self.is_sqlite:
            return literal(time.time())
        return func.date_part("epoch", func.clock_timestamp())

    def _insert(self) -> Any:
        return sqlite_insert if self.is_sqlite else pg_insert

    # -- the process ------------------------------------------------------------------------
    def register_process(self, owner: str, seconds: float) -> int:
        try:
            with self.engine.begin() as connection:
                expires = self._now() + seconds
                row = self._insert()(ProcessRow).values(
                    name=owner, epoch=1, expires_at=expires
                )
                connection.execute(row.on_conflict_do_update(
                    index_elements=["name"],
                    set_={"epoch": ProcessRow.epoch + 1, "expires_at": row.excluded.expires_at},
                ))
                epoch = connection.execute(
                    select(ProcessRow.epoch).where(ProcessRow.name == owner)
                ).scalar_one()
                self._forget_stale_processes(connection)
                return int(epoch)
        except SQLAlchemyError as error:
            raise StorageError(f"the process was not registered: {type(error).__name__}") from error

    def _forget_stale_processes(self, connection: Connection) -> None:
        named = select(LeaseRow.owner).where(LeaseRow.owner.is_not(None))
        wanting = select(LeaseRow.wanted_by).where(LeaseRow.wanted_by.is_not(None))
        connection.execute(
            ProcessRow.__table__.delete().where(  # type: ignore[attr-defined]
                ProcessRow.expires_at < self._now() - STALE_PROCESS_SECONDS,
                ProcessRow.name.not_in(named), ProcessRow.name.not_in(wanting),
            )
        )

    def renew_process(
        self, owner: str, epoch: int, seconds: float, sockets: Mapping[str, int] | None = None
    ) -> Renewal | None:
        published = None if sockets is None else json.dumps(
            {address[:64]: count for address, count in sockets.items() if count > 0},
            separators=(",", ":"),
        )
        try:
            if not self.is_sqlite:
                return self._renew_in_one(owner, epoch, seconds, published)
            with self._reading() as connection:
                now = time.time()
                renewed = connection.execute(
                    update(ProcessRow)
                    .where(ProcessRow.name == owner, ProcessRow.epoch == epoch)
                    .values(expires_at=now + seconds, sockets=published)
                ).rowcount
                if renewed == 0:
                    return None
                rows = connection.execute(
                    select(LeaseRow.game_id, LeaseRow.epoch, LeaseRow.wanted_by)
                    .where(LeaseRow.owner == owner)
                ).all()
                others = connection.execute(
                    select(ProcessRow.name, ProcessRow.sockets)
                    .where(ProcessRow.name != owner, ProcessRow.expires_at >= now)
                ).all()
        except SQLAlchemyError as error:
            raise StorageError(f"the lease was not renewed: {type(error).__name__}") from error
        elsewhere: dict[str, int] = {}
        for _name, counts in others:
            for address, count in json.loads(counts or "{}").items():
                elsewhere[address] = elsewhere.get(address, 0) + int(count)
        return Renewal(
            kept={g: e for g, e, _w in rows},
            wanted=frozenset(g for g, _e, w in rows if w is not None),
            others=tuple(sorted(name for name, _counts in others)), now=now,
            sockets_elsewhere=elsewhere,
        )

    def _renew_in_one(
        self, owner: str, epoch: int, seconds: float, sockets: str | None
    ) -> Renewal | None:
        """PostgreSQL: the renewal is one statement, with no transaction around it."""
        kept: dict[str, int] = {}
        wanted: set[str] = set()
        others: list[str] = []
        elsewhere: dict[str, int] = {}
        now: float | None = None
        with self._own_connection() as connection:
            for kind, name, number in connection.execute(_RENEWAL, {
                "owner": owner, "epoch": epoch, "seconds": seconds, "sockets": sockets,
            }):
                if kind == "held":
                    kept[name] = int(number)
                elif kind == "wanted":
                    kept[name] = int(number)
                    wanted.add(name)
                elif kind == "alive":
                    others.append(name)
                elif kind == "sockets":
                    elsewhere[name] = int(number)
                else:  # "renewed": the row was there under this epoch
                    now = float(number)
        if now is None:
            return None
        return Renewal(kept=kept, wanted=frozenset(wanted), others=tuple(sorted(others)),
                       now=now, sockets_elsewhere=elsewhere)

    def retire_process(self, owner: str) -> None:
        try:
            with self.engine.begin() as connection:
                connection.execute(
                    update(LeaseRow).where(LeaseRow.owner == owner).values(owner=None)
                )
                connection.execute(
                    ProcessRow.__table__.delete()  # type: ignore[attr-defined]
                    .where(ProcessRow.name == owner)
                )
        except SQLAlchemyError as error:
            raise StorageError(f"the process was not retired: {type(error).__name__}") from error

    # -- tables -------------------------------------------------------------------------------
    def acquire_lease(self, game_id: str, owner: str, epoch: int) -> int | None:
        try:
            with self.engine.begin() as connection:
                return self._acquire(connection, game_id, owner, epoch)
        except OperationalError as error:
            if getattr(error.orig, "sqlstate", None) == _LOCK_NOT_AVAILABLE:
                return None  # its owner is in the middle of a write: not now
            raise StorageError(f"the lease was not taken: {type(error).__name__}") from error
        except SQLAlchemyError as error:
            raise StorageError(f"the lease was not taken: {type(error).__name__}") from error

    def _acquire(self, connection: Connection, game_id: str, owner: str,
                 epoch: int) -> int | None:
        connection.execute(
            self._insert()(LeaseRow).values(game_id=game_id, owner=None, epoch=0)
            .on_conflict_do_nothing(index_elements=["game_id"])
        )
        row = connection.execute(
            select(LeaseRow.owner, LeaseRow.epoch, LeaseRow.wanted_by)
            .where(LeaseRow.game_id == game_id)
            .with_for_update(nowait=True)
        ).one()
        names = {name for name in (owner, row.owner, row.wanted_by) if name is not None}
        lives = {
            name: (life, alive) for name, life, alive in connection.execute(
                select(ProcessRow.name, ProcessRow.epoch, ProcessRow.expires_at >= self._now())
                .where(ProcessRow.name.in_(sorted(names)))
            )
        }
        if lives.get(owner) != (epoch, True):
            return None  # our own lease ran out (or is registered anew): not now
        if row.owner == owner:
            return int(row.epoch)
        if row.wanted_by not in (None, owner) and lives.get(row.wanted_by, (0, False))[1]:
            return None  # another process asked first: it has the table's clients
        if row.owner is not None and lives.get(row.owner, (0, False))[1]:
            return None
        taken = int(row.epoch) + 1
        connection.execute(
            update(LeaseRow).where(LeaseRow.game_id == game_id)
            .values(owner=owner, epoch=taken, wanted_by=None)
        )
        return taken

    def want_lease(self, game_id: str, owner: str) -> None:
        try:
            with self.engine.begin() as connection:
                connection.execute(
                    update(LeaseRow)
                    .where(LeaseRow.game_id == game_id, LeaseRow.owner.is_not(None),
                           LeaseRow.owner != owner)
                    .values(wanted_by=owner)
                )
        except SQLAlchemyError as error:
            raise StorageError(f"the lease was not asked for: {type(error).__name__}") from error

    def release_leases(self, owner: str, game_ids: list[str]) -> None:
        if not game_ids:
            return
        try:
            with self.engine.begin() as connection:
                connection.execute(
                    update(LeaseRow)
                    .where(LeaseRow.owner == owner, LeaseRow.game_id.in_(game_ids))
                    .values(owner=None)  # wanted_by stays: kept for the process that asked
                )
        except SQLAlchemyError as error:
            raise StorageError(f"the leases were not released: {type(error).__name__}") from error

    def orphans(self, limit: int) -> list[str]:
        try:
            return self._orphans(limit)
        except SQLAlchemyError as error:
            raise StorageError(f"the orphans were not read: {type(error).__name__}") from error

    def _orphans(self, limit: int) -> list[str]:
        holder = aliased(ProcessRow)
        asker = aliased(ProcessRow)
        now = self._now()
        with self._reading() as connection:
            rows = connection.execute(
                select(GameRow.id)
                .outerjoin(LeaseRow, LeaseRow.game_id == GameRow.id)
                .outerjoin(holder, holder.name == LeaseRow.owner)
                .outerjoin(asker, asker.name == LeaseRow.wanted_by)
                .where(
                    GameRow.status == "playing",
                    LeaseRow.game_id.is_(None)
                    | (LeaseRow.owner.is_not(None)
                       & (holder.name.is_(None) | (holder.expires_at < now)))
                    | (LeaseRow.owner.is_(None)
                       & (LeaseRow.wanted_by.is_(None) | asker.name.is_(None)
                          | (asker.expires_at < now))),
                )
                .order_by(func.random())  # processes adopting at once rarely collide
                .limit(limit)
            ).all()
        return [row[0] for row in rows]
