"""Turn-based tables: a clock of hours or days, a deadline that survives a restart, and a
timeout that lets a bot play that one move without taking the seat over."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from kingsbreakfast.engine import State
from kingsbreakfast.server.app import create_app
from kingsbreakfast.server.master import Master
from kingsbreakfast.server.site import Site
from kingsbreakfast.server.storage import Storage
from server.kb_harness import seated_table, until

DAY = 24 * 3600


def fixed_dealer(n: int) -> tuple[tuple[int, ...], int]:
    return State.new(n, 8).initial_deck, 0


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as test_client:
        yield test_client


def test_a_table_may_have_a_clock_of_hours_or_days(client: TestClient) -> None:
    base = {"name": "Ann", "seats": 3, "bot_level": "random"}
    for clock in (3600, 12 * 3600, DAY, 14 * DAY, 5, 90):
        made = client.post("/api/tables", json={**base, "clock_seconds": clock})
        assert made.status_code == 201 and made.json()["table"]["clock_seconds"] == clock
    odd = client.post("/api/tables", json={**base, "clock_seconds": 5000})
    assert odd.status_code == 422 and odd.json()["error"]["code"] == "bad_clock"
    assert odd.json()["error"]["params"]["max_hours"] == 14 * 24
    assert client.post("/api/tables", json={**base, "clock_seconds": 15 * DAY}).status_code == 422


async def _open(url: str, clock: list[float]) -> tuple[Master, Site]:
    master = Master(Storage(url), bot_delay=0.0, dealer=fixed_dealer,
                    wall_clock=lambda: clock[0])
    site = Site(master)
    await master.open()
    await site.open()
    return master, site


async def _close(master: Master, site: Site) -> None:
    await master.close()
    site.close()


def test_a_turn_based_deadline_survives_a_restart(db_url: str) -> None:
    clock = [1_000.0]

    async def main() -> None:
        master, site = await _open(db_url, clock)
        table, _ = await seated_table(master, humans=3, clock_seconds=DAY)
        assert table.state is not None and table.state.to_move == 0
        assert table.deadline == 1_000.0 + DAY
        await _close(master, site)  # nobody connected: everyone closed their browser
        clock[0] = 50_000.0
        master, site = await _open(db_url, clock)
        back = master.tables[table.id]
        assert back.deadline == 1_000.0 + DAY  # not a fresh day from the restart
        await _close(master, site)

    asyncio.run(main())


@pytest.mark.parametrize(("clock_seconds", "taken_over"), [(3600, False), (60, True)])
def test_a_timeout_at_a_turn_based_table_costs_one_move_not_the_seat(
    sqlite_url: str, clock_seconds: int, taken_over: bool
) -> None:
    clock = [1_000.0]

    async def main() -> None:
        master, site = await _open(sqlite_url, clock)
        table, _ = await seated_table(master, humans=3, clock_seconds=clock_seconds)
        clock[0] += clock_seconds + 1  # seat 0 let its clock run out, away
        master.actor(table).schedule()
        await until(lambda: table.version >= 1)
        assert table.seats[0].zombie is taken_over
        if not taken_over:  # whoever moves next (seat 0 too, after a drawn dragon) gets a
            assert table.deadline == clock[0] + clock_seconds  # clock of their own
        await _close(master, site)

    asyncio.run(main())
