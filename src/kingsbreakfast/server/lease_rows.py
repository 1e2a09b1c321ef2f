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

import time
from contextlib import AbstractContextManager
from typing import Any

from sqlalchemy import ColumnElement, func, literal, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import OperationalError, SQLAlchemyError
from sqlalchemy.orm import aliased

from .models import GameRow, LeaseRow, ProcessRow
from .store import Renewal, StorageError

STALE_PROCESS_SECONDS = 3600.0
"""A process row whose lease ran out this long ago and that no table names is deleted."""
_LOCK_NOT_AVAILABLE = "55P03"


class LeaseRows:
    """A process's lease; taking, asking for and releasing tables."""

    engine: Engine
    is_sqlite: bool
    _autocommit: Engine
    """The same pool, each statement its own transaction (no BEGIN, no COMMIT)."""

    def _reading(self) -> AbstractContextManager[Connection]:
        """Where a round's statements run that need no transaction around them: on
        PostgreSQL each statement alone (read committed gives every statement of a
        transaction its own snapshot anyway), so a renewal is two statements, not four;
        SQLite keeps its transaction."""
        return self.engine.begin() if self.is_sqlite else self._autocommit.connect()

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

    def renew_process(self, owner: str, epoch: int, seconds: float) -> Renewal | None:
        try:
            with self._reading() as connection:
                renewed = connection.execute(
                    update(ProcessRow)
                    .where(ProcessRow.name == owner, ProcessRow.epoch == epoch)
                    .values(expires_at=self._now() + seconds)
                ).rowcount
                if renewed == 0:
                    return None
                rows = connection.execute(
                    select(LeaseRow.game_id, LeaseRow.epoch, LeaseRow.wanted_by)
                    .where(LeaseRow.owner == owner)
                ).all()
        except SQLAlchemyError as error:
            raise StorageError(f"the lease was not renewed: {type(error).__name__}") from error
        return Renewal(
            kept={g: e for g, e, _w in rows},
            wanted=frozenset(g for g, _e, w in rows if w is not None),
        )

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
