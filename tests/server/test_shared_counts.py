"""Per-address counts shared by several processes through PostgreSQL (server/shared_counts.py):
events in windows never pass their limit however many processes count at once, and the
socket cap counts the sockets every process holds."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from sqlalchemy import Engine

from kingsbreakfast.server.limits import Refused, ServerLimits
from kingsbreakfast.server.shared_counts import AddressEvents, SharedSocketGate, shared_bounds
from kingsbreakfast.server.storage import Storage
from server.conftest import POSTGRES_URL
from server.kb_schema import fresh_schema

pytestmark = pytest.mark.skipif(
    not POSTGRES_URL, reason="needs KINGSBREAKFAST_TEST_POSTGRES_URL (CI)"
)


@pytest.fixture
def engines() -> Iterator[list[Engine]]:
    """Three processes' engines on one fresh database."""
    assert POSTGRES_URL is not None
    fresh_schema(POSTGRES_URL)
    stores = [Storage(POSTGRES_URL) for _ in range(3)]
    yield [store.engine for store in stores]
    for store in stores:
        store.dispose()


def test_three_processes_counting_at_once_never_pass_the_limit(engines: list[Engine]) -> None:
    counters = [AddressEvents(engine) for engine in engines]
    windows = [(10, 60.0)]

    def attempt(number: int) -> float | None:
        return counters[number % 3].take("tables", "198.51.100.7", windows)

    with ThreadPoolExecutor(max_workers=6) as pool:
        answers = list(pool.map(attempt, range(30)))
    assert answers.count(None) == 10  # the limit holds across the three processes
    assert all(wait is not None and 0 < wait <= 60.0 for wait in answers if wait is not None)
    assert counters[0].take("tables", "203.0.113.9", windows) is None  # another address
    assert counters[1].check("logins", "198.51.100.7", windows) is None  # another kind


def test_check_counts_nothing_and_add_counts_one(engines: list[Engine]) -> None:
    counter = AddressEvents(engines[0])
    for _ in range(3):
        assert counter.check("registrations", "192.0.2.1", [(2, 3600.0)]) is None
    counter.add("registrations", "192.0.2.1", 3600.0)
    counter.add("registrations", "192.0.2.1", 3600.0)
    assert counter.check("registrations", "192.0.2.1", [(2, 3600.0)]) is not None
    assert AddressEvents(engines[1]).check("registrations", "192.0.2.1", [(2, 3600.0)])


def test_the_socket_cap_counts_every_processs_sockets(engines: list[Engine]) -> None:
    """The counts travel with the lease renewals: each process publishes its own and reads
    the others' live ones in the same statement."""
    stores = [Storage(POSTGRES_URL or "") for _ in range(3)]
    lives = [store.register_process(f"p{n}", 60.0) for n, store in enumerate(stores)]
    gates = [SharedSocketGate(4, 100) for _ in engines]

    def renew(n: int, seconds: float = 60.0) -> None:
        renewal = stores[n].renew_process(f"p{n}", lives[n], seconds, gates[n].published())
        assert renewal is not None
        gates[n].elsewhere = renewal.sockets_elsewhere

    for table in ("t1", "t2", "t3"):
        gates[0].enter("198.51.100.7", table)
    renew(0)
    renew(1)
    assert gates[1].elsewhere == {"198.51.100.7": 3}
    gates[1].enter("198.51.100.7", "t4")  # 3 elsewhere + 1 here = the cap
    with pytest.raises(Refused) as refused:
        gates[1].enter("198.51.100.7", "t5")
    assert refused.value.code == "too_many_sockets"
    gates[2].enter("203.0.113.9", "t1")  # another address is not held back
    gates[2].enter("192.0.2.44", "t1")
    gates[2].enter("192.0.2.44", "t2")
    renew(2)
    renew(1)  # a single socket is not published, two are
    assert gates[1].elsewhere == {"198.51.100.7": 3, "192.0.2.44": 2}
    gates[0].leave("198.51.100.7", "t1")
    renew(0)
    renew(1)
    gates[1].enter("198.51.100.7", "t5")  # one left on p0: room again
    renew(0, -1.0)  # p0's lease runs out (it died): its sockets count nowhere
    renew(1)
    assert gates[1].elsewhere == {"192.0.2.44": 2}
    stores[2].retire_process("p2")  # p2 stops
    renew(1)
    assert gates[1].elsewhere == {}
    for store in stores:
        store.dispose()


def test_the_shared_allowances_refuse_like_the_ones_in_memory(engines: list[Engine]) -> None:
    bounds = ServerLimits(tables_burst=2, tables_per_minute=1, registrations_per_hour=1)

    async def call(fn: Any, *args: Any) -> Any:
        return fn(*args)

    async def main() -> None:
        first = shared_bounds(bounds, engines[0], call, (2, 600.0))
        second = shared_bounds(bounds, engines[1], call, (2, 600.0))
        await first[1].admit("198.51.100.7")
        await second[1].admit("198.51.100.7")
        with pytest.raises(Refused) as tables:  # two tables from this address, any process
            await first[1].admit("198.51.100.7")
        assert tables.value.code == "too_many_tables" and tables.value.params["retry_after"] > 0
        await first[2].admit("198.51.100.7")
        await first[2].count("198.51.100.7")
        with pytest.raises(Refused) as registrations:
            await second[2].admit("198.51.100.7")
        assert registrations.value.code == "too_many_registrations"
        for process in (first, second):
            await process[3].admit("198.51.100.7")
            await process[3].count("198.51.100.7")
        with pytest.raises(Refused) as logins:
            await first[3].admit("198.51.100.7")
        assert logins.value.code == "login_locked"

    asyncio.run(main())
