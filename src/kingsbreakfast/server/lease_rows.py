"""The lease rows of the SQL store: one owning process per table in play (see
:class:`~.models.LeaseRow` and docs/server.md, *Several processes*).

Expiry is measured by PostgreSQL's own clock, so several machines need not agree on the
time (SQLite, one machine, uses the server's).
"""

from __future__ import annotations

import time

from sqlalchemy import case, func, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError

from .models import GameRow, LeaseRow
from .store import Renewal, StorageError


class LeaseRows:
    """Taking, asking for, renewing and releasing table leases."""

    engine: Engine
    is_sqlite: bool

    def _now(self, connection: Connection) -> float:
        """The lease clock: the database's own on PostgreSQL, so several machines agree."""
        if self.is_sqlite:
            return time.time()
        return float(connection.execute(text("SELECT extract(epoch FROM clock_timestamp())"))
                     .scalar_one())

    def acquire_lease(self, game_id: str, owner: str, seconds: float) -> int | None:
        try:
            with self.engine.begin() as connection:
                insert_lease = (sqlite_insert if self.is_sqlite else pg_insert)(LeaseRow)
                connection.execute(
                    insert_lease.values(game_id=game_id, owner=None, epoch=0, expires_at=0.0)
                    .on_conflict_do_nothing(index_elements=["game_id"])
                )
                row = connection.execute(
                    select(LeaseRow.owner, LeaseRow.epoch, LeaseRow.expires_at,
                           LeaseRow.wanted_by)
                    .where(LeaseRow.game_id == game_id)
                    .with_for_update()
                ).one()
                now = self._now(connection)
                if row.owner == owner:
                    epoch = row.epoch
                elif row.wanted_by not in (None, owner) and now < row.expires_at + seconds:
                    return None  # another process asked first: it has the table's clients
                elif row.expires_at < now or (
                    row.owner is None and row.wanted_by in (None, owner)
                ):
                    epoch = row.epoch + 1
                else:
                    return None
                connection.execute(
                    update(LeaseRow)
                    .where(LeaseRow.game_id == game_id)
                    .values(owner=owner, epoch=epoch, expires_at=now + seconds, wanted_by=None)
                )
                return int(epoch)
        except SQLAlchemyError as error:
            raise StorageError(f"the lease was not taken: {type(error).__name__}") from error

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

    def renew_leases(self, owner: str, seconds: float) -> Renewal:
        try:
            with self.engine.begin() as connection:
                now = self._now(connection)
                rows = connection.execute(
                    update(LeaseRow)
                    .where(LeaseRow.owner == owner)
                    .values(expires_at=now + seconds)
                    .returning(LeaseRow.game_id, LeaseRow.epoch, LeaseRow.wanted_by)
                ).all()
        except SQLAlchemyError as error:
            raise StorageError(f"the leases were not renewed: {type(error).__name__}") from error
        return Renewal(
            kept={g: e for g, e, _w in rows},
            wanted=frozenset(g for g, _e, w in rows if w is not None),
        )

    def release_leases(self, owner: str, game_ids: list[str], seconds: float) -> None:
        if not game_ids:
            return
        try:
            with self.engine.begin() as connection:
                now = self._now(connection)
                connection.execute(
                    update(LeaseRow)
                    .where(LeaseRow.owner == owner, LeaseRow.game_id.in_(game_ids))
                    .values(
                        owner=None,
                        # kept for the process that asked, for one lease; free for all else
                        expires_at=case((LeaseRow.wanted_by.is_(None), 0.0),
                                        else_=now + seconds),
                    )
                )
        except SQLAlchemyError as error:
            raise StorageError(f"the leases were not released: {type(error).__name__}") from error

    def orphans(self, limit: int) -> list[str]:
        try:
            return self._orphans(limit)
        except SQLAlchemyError as error:
            raise StorageError(f"the orphans were not read: {type(error).__name__}") from error

    def _orphans(self, limit: int) -> list[str]:
        with self.engine.begin() as connection:
            now = self._now(connection)
            rows = connection.execute(
                select(GameRow.id)
                .outerjoin(LeaseRow, LeaseRow.game_id == GameRow.id)
                .where(
                    GameRow.status == "playing",
                    (LeaseRow.game_id.is_(None)) | (LeaseRow.expires_at < now)
                    | (LeaseRow.owner.is_(None) & LeaseRow.wanted_by.is_(None)),
                )
                .order_by(func.random())  # processes adopting at once rarely collide
                .limit(limit)
            ).all()
        return [row[0] for row in rows]

