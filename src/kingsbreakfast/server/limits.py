"""Bounds on what one stranger can make the server hold: request bodies, tables created per
address, play sockets per address and per table.

Each bound answers with a typed refusal (a stable code, the HTTP status or WebSocket close
code a client acts on), and each keeps its own bookkeeping bounded too: counters are dropped
when they reach zero, and the per-address buckets forget the oldest address past a fixed
number, so a flood from many addresses cannot grow them without end.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, Protocol

from orjson import dumps
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import metrics

MAX_BODY_BYTES: Final = 16 * 1024
"""No lobby request comes near this (a table's settings are a few hundred bytes)."""
ADDRESSES_KEPT: Final = 10_000
HOUR: Final = 3600.0
DAY: Final = 86_400.0


class Refused(Exception):
    """A limit was reached: ``code`` names which, ``params`` the limit."""

    def __init__(self, code: str, message: str, **params: float) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params


class BodyLimit:
    """Refuse a request body over ``limit`` bytes with 413 before the app sees any of it: by
    its announced length when it has one, else by reading (and keeping) at most ``limit``
    bytes of it; a body within the limit is handed on as it came."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                await self._refuse(send)
                return
        chunks: list[Message] = []
        seen = 0
        while True:
            message = await receive()
            chunks.append(message)
            if message["type"] != "http.request":
                break
            seen += len(message.get("body", b""))
            if seen > self.limit:
                await self._refuse(send)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            return chunks.pop(0) if chunks else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        metrics.refused("body_too_large")
        body = dumps({"error": {
            "code": "body_too_large",
            "message": f"a request body may hold at most {self.limit} bytes",
            "params": {"limit": self.limit},
        }})
        await send({
            "type": "http.response.start", "status": 413,
            "headers": [(b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode()),
                        (b"connection", b"close")],
        })
        await send({"type": "http.response.body", "body": body})


class Allowance(Protocol):
    """A per-address bound counted in this process (the classes here) or by every process
    of a site together (:mod:`.shared_counts`)."""

    async def admit(self, address: str) -> None:
        """Refused when the address has used its allowance."""

    async def count(self, address: str) -> None:
        """Count one more use."""


@dataclass(slots=True)
class PerAddress:
    """A token bucket per client address: ``burst`` at once, then ``per_minute``."""

    per_minute: float
    burst: float
    clock: Callable[[], float] = time.monotonic
    _buckets: OrderedDict[str, tuple[float, float]] = field(default_factory=OrderedDict)
    refusal: Callable[[float, float], Refused] | None = None
    """The refusal for (per minute, seconds to wait); tables opened (``too_many_tables``)
    unless given."""

    def take(self, address: str) -> None:
        """Spend one; Refused when the address has none left."""
        now = self.clock()
        left, then = self._buckets.pop(address, (self.burst, now))
        left = min(self.burst, left + (now - then) * self.per_minute / 60.0)
        if left < 1.0:
            self._buckets[address] = (left, now)
            refusal = self.refusal or tables_refused
            raise refusal(self.per_minute, (1.0 - left) * 60.0 / self.per_minute)
        self._buckets[address] = (left - 1.0, now)
        while len(self._buckets) > ADDRESSES_KEPT:
            self._buckets.popitem(last=False)

    async def admit(self, address: str) -> None:
        """:meth:`take`: checked and counted at once."""
        self.take(address)

    async def count(self, address: str) -> None:
        """Counted by :meth:`admit` already."""


class RegistrationAllowance(Allowance, Protocol):
    """The registrations' allowance, which also tells how many accounts an address made in
    the last hour (the cost of the next proof of work, :mod:`.proof`)."""

    async def recent(self, address: str) -> int:
        """Accounts made from the address in the last hour."""


@dataclass(slots=True)
class Registrations:
    """New accounts per client address: ``per_hour`` in any hour and ``per_day`` in any day
    (sliding windows), high enough for a classroom behind one address; past the first few
    of an hour each one costs a proof of work (:mod:`.proof`). One machine's crowd of
    puppets still cannot rate an account up: :mod:`.boosting` counts one address as one
    source, however many accounts it made."""

    per_hour: int
    per_day: int
    clock: Callable[[], float] = time.time
    _made: OrderedDict[str, list[float]] = field(default_factory=OrderedDict)

    def check(self, address: str) -> None:
        """Refused (``too_many_registrations``) when the address has used either bound."""
        now = self.clock()
        made = [t for t in self._made.pop(address, []) if t > now - DAY]
        if made:
            self._made[address] = made
        last_hour = [t for t in made if t > now - HOUR]
        if len(last_hour) >= self.per_hour or len(made) >= self.per_day:
            free_at = last_hour[0] + HOUR if len(last_hour) >= self.per_hour else made[0] + DAY
            raise registrations_refused(self.per_hour, self.per_day, free_at - now)

    async def admit(self, address: str) -> None:
        self.check(address)

    async def count(self, address: str) -> None:
        self.add(address)

    async def recent(self, address: str) -> int:
        now = self.clock()
        return sum(1 for t in self._made.get(address, []) if t > now - HOUR)

    def add(self, address: str) -> None:
        """Count one account made from ``address``."""
        self._made.setdefault(address, []).append(self.clock())
        self._made.move_to_end(address)
        while len(self._made) > ADDRESSES_KEPT:
            self._made.popitem(last=False)


@dataclass(slots=True)
class FailureWindow:
    """Failures per client address in a sliding window: ``limit`` in ``seconds``, then the
    address waits (``login_locked``: it says nothing of any name)."""

    limit: int
    seconds: float
    clock: Callable[[], float] = time.time
    _failures: OrderedDict[str, list[float]] = field(default_factory=OrderedDict)

    async def admit(self, address: str) -> None:
        now = self.clock()
        window = [t for t in self._failures.get(address, []) if t > now - self.seconds]
        if window:
            self._failures[address] = window
        else:
            self._failures.pop(address, None)
        if len(window) >= self.limit:
            raise login_refused(window[0] + self.seconds - now)

    async def count(self, address: str) -> None:
        self._failures.setdefault(address, []).append(self.clock())
        self._failures.move_to_end(address)
        while len(self._failures) > ADDRESSES_KEPT:
            self._failures.popitem(last=False)


def tables_refused(per_minute: float, wait: float) -> Refused:
    return Refused(
        "too_many_tables", "too many tables opened from your address: wait a while",
        per_minute=per_minute, retry_after=round(wait, 1),
    )


def lessons_refused(per_minute: float, wait: float) -> Refused:
    return Refused(
        "too_many_lessons", "too many lesson moves from your address: wait a moment",
        per_minute=per_minute, retry_after=round(wait, 1),
    )


def registrations_refused(per_hour: int, per_day: int, wait: float) -> Refused:
    return Refused(
        "too_many_registrations", "too many new accounts from your address: try again later",
        per_hour=per_hour, per_day=per_day, retry_after=max(1, int(wait) + 1),
    )


def login_refused(wait: float) -> Refused:
    return Refused(
        "login_locked", "too many wrong passwords from your address: try again later",
        retry_after=max(1, int(wait) + 1),
    )


@dataclass(slots=True)
class SocketGate:
    """How many play sockets each address and each table holds, hello said or not."""

    per_address: int
    per_table: int
    by_address: dict[str, int] = field(default_factory=dict)
    by_table: dict[str, int] = field(default_factory=dict)

    @property
    def open(self) -> int:
        return sum(self.by_address.values())

    def enter(self, address: str, table_id: str) -> None:
        """Count one more socket; Refused when a cap would be passed (nothing counted)."""
        if self.by_address.get(address, 0) >= self.per_address:
            raise Refused(
                "too_many_sockets", "too many connections from your address",
                limit=self.per_address,
            )
        if self.by_table.get(table_id, 0) >= self.per_table:
            raise Refused(
                "table_crowded", "this table has as many watchers as it can take",
                limit=self.per_table,
            )
        self.by_address[address] = self.by_address.get(address, 0) + 1
        self.by_table[table_id] = self.by_table.get(table_id, 0) + 1

    def enter_holding_a_seat(self, address: str, table_id: str) -> None:
        """Count a socket past the address's cap, for one that will show a seat's token
        (its session refuses it otherwise): a player who held a seat reconnects even when
        their address is full (many players behind one NAT after a failover). Up to twice
        the cap, so this door is no way around the cap either."""
        if self.by_address.get(address, 0) >= 2 * self.per_address:
            raise Refused(
                "too_many_sockets", "too many connections from your address",
                limit=self.per_address,
            )
        self.by_address[address] = self.by_address.get(address, 0) + 1
        self.by_table[table_id] = self.by_table.get(table_id, 0) + 1

    def leave(self, address: str, table_id: str) -> None:
        for book, key in ((self.by_address, address), (self.by_table, table_id)):
            left = book.get(key, 0) - 1
            if left > 0:
                book[key] = left
            else:
                book.pop(key, None)


@dataclass(frozen=True, slots=True)
class ServerLimits:
    """Every bound an operator may tune (``kingsbreakfast serve`` options)."""

    sockets_per_address: int = 64
    sockets_per_table: int = 1500
    """A thousand spectators at a final must fit; a crowd beyond is turned away."""
    tables_per_minute: float = 6.0
    tables_burst: float = 10.0
    lobby_expiry: float = 1800.0
    """Seconds a lobby table may go without activity (or stay without a host) before it is
    forgotten; 0 keeps lobby tables for ever."""
    body_bytes: int = MAX_BODY_BYTES
    registrations_per_hour: int = 30
    """New accounts one client address may make in an hour (a classroom behind one
    address fits)..."""
    registrations_per_day: int = 60
    """...and in a day (two classes, or a café)."""
    registrations_without_proof: int = 3
    """Accounts an address makes in an hour before each next one costs a proof of work,
    dearer as the hour fills (:mod:`.proof`): a household never sees one."""
