"""Play now's pool of waiting groups, in the database: one pool for the whole site.

Every process reads and changes the same rows (SQLite for one process, PostgreSQL for a
cluster), so two strangers who reach two processes meet, a group is never forgotten because
this process has not loaded its table, and any process answers a waiting page. Each change is
one transaction; on PostgreSQL every transaction that matches or deals takes one advisory
lock first, so two processes never fill one seat twice nor deal one group twice (on SQLite the
one process serialises them itself, and the file lock does the rest).

A seat is *reserved* when a newcomer is matched, and *present* once their socket reaches the
table (:mod:`.play_now_seats`); a reservation older than :data:`~.matching.ARRIVAL` seconds is
given back by the next transaction that looks.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import case, delete, func, insert, select, text, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError

from .matching import Group, Member, Pool
from .models import LeaseRow, ProcessRow, WaitingGroupRow, WaitingPlayerRow
from .store import StorageError

POOL_LOCK = 7014
"""The advisory lock every matching or dealing transaction takes (PostgreSQL)."""


@dataclass(frozen=True, slots=True)
class Wish:
    """What a newcomer asks for, and who they are."""

    seats: int
    speed: str
    name: str
    account: int | None
    rating: float | None
    avoids: frozenset[str]
    mine: frozenset[str]
    """Digests of the seat tokens this caller holds (its account's and its cookies')."""


@dataclass(frozen=True, slots=True)
class Seating:
    """Where a newcomer waits. ``opened``: a new group, whose table the caller creates;
    ``again``: the seat they already had; ``left``: a seat they gave up at another group
    (another size or speed)."""

    group: Group
    seat: int
    token: str | None = None
    """The seat's token (None: the seat held already, whose token the caller has)."""
    opened: bool = False
    again: bool = False
    left: Member | None = None
    left_table: str | None = None


class PoolStore:
    """The pool's rows, through one engine (the game store's)."""

    def __init__(self, engine: Engine, arrival: float) -> None:
        self.engine = engine
        self.arrival = arrival
        self.is_sqlite = engine.dialect.name == "sqlite"

    @contextmanager
    def _locked(self) -> Iterator[tuple[Connection, float]]:
        try:
            with self.engine.begin() as connection:
                if not self.is_sqlite:
                    connection.execute(text("SELECT pg_advisory_xact_lock(:k)"),
                                       {"k": POOL_LOCK})
                    now = float(connection.execute(
                        text("SELECT extract(epoch FROM clock_timestamp())")).scalar_one())
                else:
                    now = time.time()
                connection.execute(delete(WaitingPlayerRow).where(
                    WaitingPlayerRow.present.is_(False),
                    WaitingPlayerRow.reserved_at < now - self.arrival,
                ))
                yield connection, now
        except SQLAlchemyError as error:
            raise StorageError(f"the pool was not kept: {type(error).__name__}") from error

    # -- matching ---------------------------------------------------------------------------
    def again(self, wish: Wish) -> Seating | None:
        """The seat this caller already waits in for the same size and speed, if any."""
        with self._locked() as (connection, _now):
            for group in _pool(connection).groups.values():
                for member in group.members:
                    if _same_person(member, wish) and (group.seats, group.speed) == (
                        wish.seats, wish.speed
                    ):
                        return Seating(group, member.seat, again=True)
            return None

    def seat(
        self, wish: Wish, new_table: str | None, wait: float,
        token_for: Callable[[str], str], digest: Callable[[str], str],
    ) -> Seating | None:
        """Seat a newcomer: their own seat again for the same wish, else the group that
        suits them, else a new group at ``new_table``, a table the caller has already
        stored; None, with nothing changed, when no group suits and ``new_table`` is None
        (the caller stores a table and asks again). A group therefore never stands in the
        pool before its table does: a stranger matched to it on any process finds the table.
        The seat is reserved under ``token_for(table)``. Asking for another size or speed
        gives up the seat held elsewhere."""
        with self._locked() as (connection, now):
            pool = _pool(connection)
            held: tuple[Group, Member] | None = None
            for group in pool.groups.values():
                for member in group.members:
                    if not _same_person(member, wish):
                        continue
                    if group.seats == wish.seats and group.speed == wish.speed:
                        return Seating(group, member.seat, again=True)
                    held = group, member
            chosen = pool.choose(wish.seats, wish.speed, wish.name, wish.account, wish.rating,
                                 wish.avoids)
            if chosen is None and new_table is None:
                return None
            left: Member | None = None
            left_table: str | None = None
            if held is not None:
                group, left = held
                connection.execute(delete(WaitingPlayerRow).where(
                    WaitingPlayerRow.table_id == group.table,
                    WaitingPlayerRow.seat == left.seat,
                ))
                group.members.remove(left)
                left_table = group.table
            opened = chosen is None
            if chosen is None:
                assert new_table is not None
                chosen = pool.open(new_table, wish.seats, wish.speed, now + wait)
                connection.execute(insert(WaitingGroupRow).values(
                    table_id=new_table, seats=wish.seats, speed=wish.speed,
                    deadline=chosen.deadline,
                ))
            taken = {m.seat for m in chosen.members}
            seat = min(n for n in range(chosen.seats) if n not in taken)
            token = token_for(chosen.table)
            member = Member(seat, digest(token), wish.name, wish.account, wish.rating,
                            wish.avoids)
            connection.execute(insert(WaitingPlayerRow).values(
                table_id=chosen.table, seat=seat, token_hash=member.token, name=wish.name,
                account_id=wish.account, rating=wish.rating,
                avoids=json.dumps(sorted(wish.avoids)), reserved_at=now, present=False,
            ))
            chosen.members.append(member)
            return Seating(chosen, seat, token, opened=opened, left=left,
                           left_table=left_table)

    # -- arriving, and the deal -------------------------------------------------------------
    def reserved(self, table_id: str, digests: frozenset[str]) -> Member | None:
        """The seat reserved (or held) at the table by a socket holding one of
        ``digests``; None: it holds none here, or its reservation was given back."""
        if not digests:
            return None
        with self._locked() as (connection, _now):
            row = connection.execute(select(WaitingPlayerRow).where(
                WaitingPlayerRow.table_id == table_id,
                WaitingPlayerRow.token_hash.in_(sorted(digests)),
            )).first()
            return None if row is None else _member(row._mapping)

    def arrived(self, table_id: str, token_hash: str) -> bool:
        """The player sits at the table now: present (False: their reservation was given
        back meanwhile)."""
        with self._locked() as (connection, _now):
            return bool(connection.execute(update(WaitingPlayerRow).where(
                WaitingPlayerRow.table_id == table_id,
                WaitingPlayerRow.token_hash == token_hash,
            ).values(present=True)).rowcount)

    def due(self, owner: str | None) -> list[str]:
        """Groups to deal now (their deadline passed, or every seat is present), or to
        forget (nobody left in them): those whose table this process holds, or nobody
        living holds (``owner``: this process in a cluster; None, one process)."""
        with self._locked() as (connection, now):
            counts = (
                select(WaitingPlayerRow.table_id,
                       func.count().label("players"),
                       func.sum(case((WaitingPlayerRow.present, 1), else_=0))
                       .label("present"))
                .group_by(WaitingPlayerRow.table_id).subquery()
            )
            query = (
                select(WaitingGroupRow.table_id)
                .outerjoin(counts, counts.c.table_id == WaitingGroupRow.table_id)
                .where((WaitingGroupRow.deadline <= now)
                       | (func.coalesce(counts.c.players, 0) == 0)
                       | (func.coalesce(counts.c.present, 0) >= WaitingGroupRow.seats))
            )
            if owner is not None:
                query = (
                    query.outerjoin(LeaseRow, LeaseRow.game_id == WaitingGroupRow.table_id)
                    .outerjoin(ProcessRow, ProcessRow.name == LeaseRow.owner)
                    .where(LeaseRow.owner.is_(None) | (LeaseRow.owner == owner)
                           | ProcessRow.name.is_(None) | (ProcessRow.expires_at < now))
                )
            return [t for (t,) in connection.execute(query).all()]

    def claim(self, table_id: str) -> list[Member] | None:
        """Take a group out of the pool to deal it: its present players (who keep their
        seats), once; None when another process took it first."""
        with self._locked() as (connection, _now):
            gone = connection.execute(delete(WaitingGroupRow).where(
                WaitingGroupRow.table_id == table_id)).rowcount
            rows = connection.execute(select(WaitingPlayerRow).where(
                WaitingPlayerRow.table_id == table_id)).all()
            connection.execute(delete(WaitingPlayerRow).where(
                WaitingPlayerRow.table_id == table_id))
            if not gone:
                return None
            return [m for m in (_member(r._mapping) for r in rows) if m.present]

    def group(self, table_id: str) -> Group | None:
        """One waiting group, as every process sees it."""
        with self._locked() as (connection, _now):
            return _pool(connection, table_id).groups.get(table_id)

    def keeps(self, table_id: str) -> frozenset[str]:
        """The digests of every seat of the group that is not given back yet."""
        with self._locked() as (connection, _now):
            return frozenset(connection.execute(select(WaitingPlayerRow.token_hash).where(
                WaitingPlayerRow.table_id == table_id)).scalars())


def _same_person(member: Member, wish: Wish) -> bool:
    """The same account, or the same browser (it holds the seat's token)."""
    return member.token in wish.mine or (
        wish.account is not None and member.account == wish.account
    )


def _member(row: Any) -> Member:
    return Member(
        row["seat"], row["token_hash"], row["name"], row["account_id"], row["rating"],
        frozenset(json.loads(row["avoids"])), bool(row["present"]),
    )


def _pool(connection: Connection, table_id: str | None = None) -> Pool:
    groups = select(WaitingGroupRow)
    players = select(WaitingPlayerRow).order_by(WaitingPlayerRow.seat)
    if table_id is not None:
        groups = groups.where(WaitingGroupRow.table_id == table_id)
        players = players.where(WaitingPlayerRow.table_id == table_id)
    pool = Pool()
    for row in connection.execute(groups).all():
        pool.groups[row.table_id] = Group(row.table_id, row.seats, row.speed, row.deadline)
    for player in connection.execute(players).all():
        group = pool.groups.get(player.table_id)
        if group is not None:
            group.members.append(_member(player._mapping))
    return pool
