"""Per-address counts that every process of one site shares, kept in PostgreSQL.

One process (SQLite) counts in memory (:mod:`.limits`); several processes behind a proxy
must count together, or each limit multiplies by the number of workers (one address got 30
tables where the limit was 10 with three workers). Two kinds of count live here:

* **Events in a window** (tables opened, failed log-ins, registrations): one row per event
  in ``address_events``, counted over the window by PostgreSQL's own clock. A check and its
  event are one transaction under an advisory lock of the (kind, address), so two
  processes can never both let the last one through. Rows older than the longest window
  of their kind are dropped as the address comes back.
* **Sockets held open**: each process publishes how many play sockets each address holds
  on it with its lease renewal (a column of its ``server_processes`` row, one statement a
  round together with the renewal, :meth:`~.lease_rows.LeaseRows.renew_process`), reads
  back what the other live processes published, and admits a socket when its own count
  plus the others' is under the cap. A dead process's sockets stop counting when its lease
  runs out. Between two renewals a burst spread over several processes may pass the cap by
  what arrived in that round (a second by default); and an address is published only where
  it holds two sockets or more (:meth:`SharedSocketGate.published`), so one holding a
  single socket on each of several processes may pass it by one socket per other process.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from sqlalchemy import delete, func, select, text
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError

from .limits import (
    DAY,
    HOUR,
    Refused,
    ServerLimits,
    SocketGate,
    login_refused,
    registrations_refused,
    tables_refused,
)
from .models import AddressEventRow
from .store import StorageError

SHARED_FROM = 2
"""Sockets an address must hold on a process before the process publishes its count."""

Window = tuple[int, float]
"""At most ``count`` events in any ``seconds``."""


class AddressEvents:
    """Events per (kind, address) in sliding windows, shared through the database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def take(self, kind: str, address: str, windows: Sequence[Window]) -> float | None:
        """Count one event unless a window is full; the seconds until there is room again
        (nothing counted), or None (counted)."""
        return self._run(kind, address, windows, add=True)

    def check(self, kind: str, address: str, windows: Sequence[Window]) -> float | None:
        """The seconds until there is room, or None, counting nothing."""
        return self._run(kind, address, windows, add=False)

    def seen(self, kind: str, address: str, seconds: float) -> int:
        """Events of the kind from the address in the last ``seconds``."""
        try:
            with self.engine.connect() as connection:
                now = _now(connection)
                return int(connection.execute(
                    select(func.count()).where(
                        AddressEventRow.kind == kind, AddressEventRow.address == address,
                        AddressEventRow.at > now - seconds,
                    )
                ).scalar_one())
        except SQLAlchemyError as error:
            raise StorageError(f"the count was not read: {type(error).__name__}") from error

    def add(self, kind: str, address: str, keep: float) -> None:
        """Count one event, kept ``keep`` seconds."""
        self._run(kind, address, [(1 << 30, keep)], add=True)

    def _run(
        self, kind: str, address: str, windows: Sequence[Window], add: bool
    ) -> float | None:
        longest = max(seconds for _count, seconds in windows)
        try:
            with self.engine.begin() as connection:
                connection.execute(text("SELECT pg_advisory_xact_lock(hashtext(:k))"),
                                   {"k": f"{kind}\n{address}"})
                now = _now(connection)
                where = (AddressEventRow.kind == kind) & (AddressEventRow.address == address)
                connection.execute(delete(AddressEventRow).where(
                    where, AddressEventRow.at < now - max(longest, 86_400.0)
                ))
                for count, seconds in windows:
                    seen, oldest = connection.execute(
                        select(func.count(), func.min(AddressEventRow.at))
                        .where(where, AddressEventRow.at > now - seconds)
                    ).one()
                    if seen >= count:
                        return max(0.1, float(oldest) + seconds - now)
                if add:
                    connection.execute(pg_insert(AddressEventRow).values(
                        kind=kind, address=address, at=now
                    ))
                return None
        except SQLAlchemyError as error:
            raise StorageError(f"the count was not kept: {type(error).__name__}") from error


Caller = Callable[..., Awaitable[Any]]
"""How a shared count reaches the database: the store's one thread (``Journal.call``)."""


class SharedAllowance:
    """An :class:`~.limits.Allowance` every process of a site counts together: ``admit``
    checks, ``count`` adds (a registration is counted once made, a failed log-in once
    failed), with the refusal of the in-memory bound it stands for."""

    def __init__(
        self, events: AddressEvents, call: Caller, kind: str, windows: Sequence[Window],
        refusal: Callable[[float], Refused],
    ) -> None:
        self.events = events
        self.call = call
        self.kind = kind
        self.windows = list(windows)
        self.refusal = refusal

    async def admit(self, address: str) -> None:
        wait = await self.call(self.events.check, self.kind, address[:64], self.windows)
        if wait is not None:
            raise self.refusal(wait)

    async def count(self, address: str) -> None:
        longest = max(seconds for _count, seconds in self.windows)
        await self.call(self.events.add, self.kind, address[:64], longest)


class SharedRegistrations(SharedAllowance):
    """The registrations' allowance of a site's processes together, which tells the
    address's accounts of the last hour too (:class:`~.limits.RegistrationAllowance`)."""

    async def recent(self, address: str) -> int:
        return int(await self.call(self.events.seen, self.kind, address[:64], HOUR))


class SharedTaking(SharedAllowance):
    """An allowance whose check and count are one (tables opened): no two processes can
    both let the last one through."""

    async def admit(self, address: str) -> None:
        wait = await self.call(self.events.take, self.kind, address[:64], self.windows)
        if wait is not None:
            raise self.refusal(wait)

    async def count(self, address: str) -> None:
        """Counted by :meth:`admit` already."""


class SharedSocketGate(SocketGate):
    """The socket gate of one process of several: the per-address cap counts the sockets
    every process of the site holds (see the module's note); the per-table cap stays local,
    since the proxy sends all of a table's sockets to its owner."""

    def __init__(self, per_address: int, per_table: int) -> None:
        super().__init__(per_address, per_table)
        self.elsewhere: dict[str, int] = {}
        """Address → sockets the other processes held at their last renewal (set by the
        lease keeper, :func:`~.leases.keep_leases`)."""

    def enter(self, address: str, table_id: str) -> None:
        if self.by_address.get(address, 0) + self.elsewhere.get(address, 0) >= self.per_address:
            raise Refused(
                "too_many_sockets", "too many connections from your address",
                limit=self.per_address,
            )
        super().enter(address, table_id)

    def published(self) -> dict[str, int]:
        """What this process tells the others: the addresses holding at least
        :data:`SHARED_FROM` sockets here. A player's one socket (the usual case) is left
        out, so what every renewal writes and reads grows with the addresses that hold
        several sockets, not with every player of the site (4,000 single-socket addresses
        over 25 processes made each renewal 13 ms of the database's time,
        ``benchmarks/keeper_scan.py``); the price is that an address holding one socket on
        each of several processes may pass the cap by one socket per other process."""
        return {a: n for a, n in self.by_address.items() if n >= SHARED_FROM}


def shared_bounds(
    bounds: ServerLimits, engine: Engine, call: Caller,
    login_failures: tuple[int, float],
) -> tuple[SharedSocketGate, SharedTaking, SharedRegistrations, SharedAllowance]:
    """The socket gate, the table openers', the registrations' and the failed log-ins'
    allowances of one process of several. The table openers' token bucket (``burst`` at
    once, ``per_minute`` after) becomes its sliding-window equal: ``burst`` in any
    ``burst / per_minute`` minutes."""
    events = AddressEvents(engine)
    burst, rate = bounds.tables_burst, bounds.tables_per_minute
    return (
        SharedSocketGate(bounds.sockets_per_address, bounds.sockets_per_table),
        SharedTaking(events, call, "tables", [(int(burst), burst * 60.0 / rate)],
                     lambda wait: tables_refused(rate, wait)),
        SharedRegistrations(
            events, call, "registrations",
            [(bounds.registrations_per_hour, HOUR), (bounds.registrations_per_day, DAY)],
            lambda wait: registrations_refused(
                bounds.registrations_per_hour, bounds.registrations_per_day, wait
            ),
        ),
        SharedAllowance(events, call, "logins", [login_failures], login_refused),
    )


def _now(connection: Connection) -> float:
    """PostgreSQL's clock, so several machines count alike."""
    return float(connection.execute(text("SELECT extract(epoch FROM clock_timestamp())"))
                 .scalar_one())
