"""The play-now pool's rows on SQLite and on a real PostgreSQL server: a group never stands
in the pool before its table is stored, so a stranger matched to it on any process finds
the table (the pool's seat call asks its caller for a stored table instead of opening a
group on a table still to come), and a caller asking for another size keeps its old seat
until it is really seated elsewhere."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kingsbreakfast.server.play_pool import PoolStore, Wish
from kingsbreakfast.server.storage import Storage
from kingsbreakfast.server.tables import token_digest
from server.conftest import POSTGRES_URL
from server.kb_schema import fresh_schema


@pytest.fixture(params=["sqlite", "postgresql"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'pool.db'}"
    else:
        if not POSTGRES_URL:
            pytest.skip("needs KINGSBREAKFAST_TEST_POSTGRES_URL (CI)")
        url = POSTGRES_URL
    fresh_schema(url)
    store = Storage(url)
    yield store
    store.dispose()


def wish(name: str, seats: int = 3, account: int | None = None,
         mine: frozenset[str] = frozenset()) -> Wish:
    return Wish(seats, "live", name, account, None, frozenset(), mine)


def store_table(storage: Storage, table_id: str, seats: int = 3) -> None:
    storage.create_game(table_id, num_seats=seats, rules={}, bot_level="medium",
                        clock_seconds=60, public=False, seats=[])


def token_for(table_id: str) -> str:
    return f"token-{table_id}"


def test_no_group_opens_before_its_table_is_stored(storage: Storage) -> None:
    """With no group to join and no stored table, the pool changes nothing and asks for a
    table; given one, the group opens on it; the next stranger joins that group."""
    pool = PoolStore(storage.engine, arrival=60)
    assert pool.seat(wish("Ann"), None, 30, token_for, token_digest) is None
    assert pool.group("t-ann") is None
    assert pool.due(None) == []

    store_table(storage, "t-ann")
    ann = pool.seat(wish("Ann"), "t-ann", 30, token_for, token_digest)
    assert ann is not None and ann.opened and ann.group.table == "t-ann" and ann.seat == 0
    assert storage.load("t-ann") is not None

    bob = pool.seat(wish("Bob"), None, 30, token_for, token_digest)
    assert bob is not None and not bob.opened
    assert (bob.group.table, bob.seat) == ("t-ann", 1)
    group = pool.group("t-ann")
    assert group is not None and [m.name for m in group.members] == ["Ann", "Bob"]


def test_every_group_in_the_pool_has_its_table(storage: Storage) -> None:
    """Whatever sizes strangers ask for, each group the pool shows is a stored table."""
    pool = PoolStore(storage.engine, arrival=60)
    for number, seats in enumerate([3, 4, 3, 5, 3, 4, 3, 3, 5]):
        seating = pool.seat(wish(f"P{number}", seats), None, 30, token_for, token_digest)
        if seating is None:
            table_id = f"t{number}"
            store_table(storage, table_id, seats)
            seating = pool.seat(wish(f"P{number}", seats), table_id, 30, token_for,
                                token_digest)
        assert seating is not None
        group = pool.group(seating.group.table)
        assert group is not None and group.seats == seats
    groups = {seating_table for seating_table in _groups(pool)}
    assert groups and all(storage.load(t) is not None for t in groups)


def test_asking_another_size_keeps_the_old_seat_until_seated_elsewhere(
        storage: Storage) -> None:
    """An account asking for five seats while it waits at three: the answer that asks for a
    table gives nothing up; the seat at three goes only when the five-seat group holds it."""
    pool = PoolStore(storage.engine, arrival=60)
    store_table(storage, "t3")
    first = pool.seat(wish("Ann", 3, account=7), "t3", 30, token_for, token_digest)
    assert first is not None and first.opened

    assert pool.seat(wish("Ann", 5, account=7), None, 30, token_for, token_digest) is None
    group = pool.group("t3")
    assert group is not None and [m.account for m in group.members] == [7]

    store_table(storage, "t5", 5)
    moved = pool.seat(wish("Ann", 5, account=7), "t5", 30, token_for, token_digest)
    assert moved is not None and moved.opened and moved.left_table == "t3"
    assert moved.left is not None and moved.left.account == 7
    left_behind = pool.group("t3")
    assert left_behind is not None and left_behind.members == []


def _groups(pool: PoolStore) -> list[str]:
    from sqlalchemy import select

    from kingsbreakfast.server.models import WaitingGroupRow

    with pool.engine.connect() as connection:
        return list(connection.execute(select(WaitingGroupRow.table_id)).scalars())
