"""One owner per table and one lease per process: a table is taken over only when its
owner's lease ran out or it was handed over; fencing — a process that lost a table can never
commit a move for it again; and a process renews one row however many tables it holds."""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg
import pytest
from sqlalchemy import event, text

from kingsbreakfast.engine import State
from kingsbreakfast.server.leases import searches_now
from kingsbreakfast.server.master import Master
from kingsbreakfast.server.storage import Storage
from kingsbreakfast.server.store import GameStore, LeaseLost, Renewal, SeatRecord, StorageError
from kingsbreakfast.server.wire import CLOSE_MOVED
from server.kb_harness import Capture, act, seated_table, until


def fixed_dealer(n: int) -> tuple[tuple[int, ...], int]:
    return State.new(n, 8).initial_deck, 0


def _game(store: GameStore, game_id: str) -> None:
    store.create_game(game_id, num_seats=3, rules={}, bot_level="easy", clock_seconds=None,
                      public=True, seats=[SeatRecord(n, "human", "P", None) for n in range(3)])
    store.start_game(game_id, ("7",) * 110, 0, [SeatRecord(n, "human", "P", None)
                                                for n in range(3)])


@pytest.fixture
def store(game_store: GameStore) -> GameStore:
    return game_store


def test_a_table_has_one_owner_until_its_lease_runs_out_and_then_a_new_epoch(
    store: GameStore,
) -> None:
    _game(store, "g")
    a, b, c = (store.register_process(name, 60.0) for name in "ABC")
    assert store.acquire_lease("g", "A", a) == 1
    assert store.acquire_lease("g", "A", a) == 1  # taking one's own keeps the epoch
    assert store.acquire_lease("g", "B", b) is None
    assert store.orphans(10) == []
    store.want_lease("g", "B")
    renewal = store.renew_process("A", a, 60.0)
    assert renewal is not None and renewal.kept == {"g": 1} and renewal.wanted == {"g"}
    store.release_leases("A", ["g"])  # B asked: g is kept for B while B lives
    assert store.acquire_lease("g", "C", c) is None and store.orphans(10) == []
    assert store.acquire_lease("g", "B", b) == 2
    store.release_leases("B", ["g"])  # nobody asked: free for all
    assert store.orphans(10) == ["g"]
    assert store.acquire_lease("g", "B", b) == 3
    assert store.renew_process("B", b, -1.0) is not None  # B's lease has run out ...
    assert store.orphans(10) == ["g"]
    assert store.acquire_lease("g", "B", b) is None  # (B may take nothing meanwhile)
    assert store.acquire_lease("g", "C", c) == 4  # ... so C takes g
    renewal = store.renew_process("B", b, 60.0)  # B, awake again, learns it
    assert renewal is not None and renewal.kept == {}
    b2 = store.register_process("B", 60.0)  # registered anew (its row was gone) ...
    assert b2 > b and store.renew_process("B", b, 60.0) is None  # ... the old epoch is over


def test_a_stalled_process_wakes_with_the_tables_nobody_took(store: GameStore) -> None:
    for name in ("g", "h"):
        _game(store, name)
    a = store.register_process("A", 60.0)
    b = store.register_process("B", 60.0)
    assert store.acquire_lease("g", "A", a) == 1 and store.acquire_lease("h", "A", a) == 1
    store.renew_process("A", a, -1.0)  # A is paused past its lease
    assert sorted(store.orphans(10)) == ["g", "h"]
    assert store.acquire_lease("g", "B", b) == 2
    assert store.orphans(10) == ["h"]
    renewal = store.renew_process("A", a, 60.0)  # A wakes: g was taken, h is still its own
    assert renewal is not None and renewal.kept == {"h": 1}
    assert store.orphans(10) == []


def test_a_fenced_write_is_refused_and_stores_nothing(store: GameStore) -> None:
    _game(store, "g")
    _game(store, "h")
    a = store.register_process("A", 60.0)
    b = store.register_process("B", 60.0)
    assert store.acquire_lease("g", "A", a) == 1
    assert store.acquire_lease("h", "A", a) == 1
    store.release_leases("A", ["g"])  # A let g go ...
    assert store.acquire_lease("g", "B", b) == 2  # ... and B took g over
    results = store.append_actions(
        [("g", 0, 0, 1, False), ("h", 0, 0, 1, False)], ("A", {"g": 1, "h": 1})
    )
    assert isinstance(results[0], LeaseLost) and results[0].code == "storage_unavailable"
    assert results[1] is None  # the other table's action is not taken down with it
    with pytest.raises(LeaseLost):
        store.save_seat("g", SeatRecord(0, "open", "", None), ("A", {"g": 1}))
    assert store.append_actions([("g", 0, 1, 2, False)], ("B", {"g": 2})) == [None]
    loaded = store.load("g")
    assert loaded is not None and loaded.actions == ((1, 2),)  # B's move only
    store.dispose()


def test_a_fenced_group_commit_is_one_statement_on_postgresql(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cluster process's group commit on PostgreSQL sends one statement however many
    tables share it (the lease check, the actions and a finished game's archiving together),
    so the statements a move costs do not grow as the batch shrinks; a table whose lease
    moved on is still refused alone."""
    storage = Storage(postgres_url)
    storage.migrate()
    life = storage.register_process("A", 60.0)
    other = storage.register_process("B", 60.0)
    for name in ("g", "h", "k"):
        _game(storage, name)
        assert storage.acquire_lease(name, "A", life) == 1
    storage.release_leases("A", ["k"])
    assert storage.acquire_lease("k", "B", other) == 2
    sent: list[str] = []  # every statement the driver sends, SQLAlchemy's or not
    execute = psycopg.Cursor.execute

    def counted(cursor: psycopg.Cursor[Any], query: Any, *args: Any, **kwargs: Any) -> Any:
        sent.append(str(query))
        return execute(cursor, query, *args, **kwargs)

    fence = ("A", {"g": 1, "h": 1, "k": 1})
    assert storage.append_actions([("g", 0, 0, 1, False)], fence) == [None]
    monkeypatch.setattr(psycopg.Cursor, "execute", counted)
    results = storage.append_actions(
        [("h", 0, 0, 1, True), ("k", 0, 0, 1, False), ("g", 1, 1, 2, False)], fence
    )
    monkeypatch.undo()
    assert len(sent) == 1  # (and no ping before it: the database thread keeps its connection)
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], LeaseLost)
    g, h, k = (storage.load(name) for name in ("g", "h", "k"))
    assert g is not None and g.actions == ((0, 1), (1, 2))
    assert h is not None and h.actions == ((0, 1),) and h.status == "over"
    assert h.finished_at is not None
    assert k is not None and k.actions == () and k.status == "playing"
    storage.dispose()


def test_renewing_writes_one_row_however_many_tables_are_held(db_url: str) -> None:
    """An idle table costs no database write: the renewal updates the process's row only
    (and reads which tables are still its own). On PostgreSQL it is one statement a round,
    the socket counts it shares included."""
    storage = Storage(db_url)
    storage.migrate()
    life = storage.register_process("A", 60.0)
    for number in range(40):
        _game(storage, f"g{number}")
        assert storage.acquire_lease(f"g{number}", "A", life) == 1
    statements: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    event.listen(storage.engine, "after_cursor_execute", note)
    try:
        for _ in range(3):
            renewal = storage.renew_process("A", life, 60.0, {"198.51.100.7": 2})
            assert renewal is not None and len(renewal.kept) == 40
    finally:
        event.remove(storage.engine, "after_cursor_execute", note)
    writes = [s for s in statements if "UPDATE" in s]
    assert len(writes) == 3 and all("UPDATE server_processes" in s for s in writes)
    assert not any("UPDATE leases" in s or "INSERT" in s or "DELETE" in s for s in statements)
    if not storage.is_sqlite:
        assert len(statements) == 3  # one statement a round, no BEGIN or COMMIT
    storage.dispose()


def test_the_processes_take_turns_at_the_orphan_search(store: GameStore) -> None:
    """One search a round for the whole cluster, each live process in turn; a process whose
    lease ran out drops out of the turns (its tables are then the orphans)."""
    lives = {name: store.register_process(name, 60.0) for name in "ABC"}
    turns: dict[str, list[bool]] = {name: [] for name in "ABC"}
    for name, life in lives.items():
        renewal = store.renew_process(name, life, 60.0)
        assert renewal is not None and renewal.others == tuple(n for n in "ABC" if n != name)
        for round_no in range(6):
            moved = Renewal(renewal.kept, renewal.wanted, renewal.others, now=round_no * 1.0)
            turns[name].append(searches_now(name, moved, 1.0))
    assert [sum(column) for column in zip(*turns.values(), strict=True)] == [1] * 6
    assert all(sum(taken) == 2 for taken in turns.values())
    store.renew_process("C", lives["C"], -1.0)  # C died
    renewal = store.renew_process("A", lives["A"], 60.0)
    assert renewal is not None and renewal.others == ("B",)
    store.dispose()


def test_an_owner_that_stopped_renewing_can_never_commit_again(db_url: str) -> None:
    """Process A owns a table and then stops (a paused process renews nothing). Process B
    takes the table over once A's lease has run out and plays on; when A wakes with a move
    in hand, the store refuses it by its stale epoch, A lets the table go and closes its
    sockets so their clients reconnect to B. No move is stored twice or lost."""

    async def main() -> None:
        a = Master(Storage(db_url), bot_delay=3600.0, dealer=fixed_dealer,
                   lease_seconds=0.5, owner="A")
        b = Master(Storage(db_url), bot_delay=3600.0, dealer=fixed_dealer,
                   lease_seconds=0.5, owner="B")
        await a.open()
        await b.open(migrate=False)
        created, _ = await seated_table(a, 3)
        table_a = a.tables[created.id]  # created in the store, taken by its first request
        mover = Capture(0)
        a.actor(table_a).attach(mover)
        await act(a, table_a, mover, "draw")
        assert table_a.version == 1
        assert a._keeper is not None
        a._keeper.cancel()  # A is paused: it renews nothing from here on

        held = await b.own(table_a.id, wait=5.0)  # waits for A's lease to run out
        table_b = None if held is None else held.table
        assert table_b is not None and table_b.version == 1
        assert b.leases is not None and b.leases.epochs[table_a.id] == 2
        assert table_b.state is not None and table_a.state is not None
        assert table_b.state.view(None) == table_a.state.view(None)
        seat = table_b.state.to_move
        assert seat is not None
        on_b = Capture(seat)
        b.actor(table_b).attach(on_b)
        await act(b, table_b, on_b, table_b.state.legal_actions()[0])
        assert table_b.version == 2

        # A wakes up and its player's move arrives: A's memory still says version 1
        stale = Capture(seat)
        a.actor(table_a).attach(stale)
        await act(a, table_a, stale, table_a.state.legal_actions()[-1])
        assert stale.errors()[-1]["code"] == "storage_unavailable"
        assert table_a.version == 1  # memory unchanged by the refused move
        assert table_a.id not in a.tables  # A let the table go ...
        assert stale.closed is not None and stale.closed[0] == CLOSE_MOVED  # ... and its sockets

        stored = b.storage.load(table_a.id)
        assert stored is not None and len(stored.actions) == 2
        assert stored.actions[1] == (seat, int(table_b.state.actions[-1]))
        await b.close()
        await a.close()

    asyncio.run(main())


def test_a_wanted_table_is_handed_over_at_once(db_url: str) -> None:
    """A process with a client for a table asks the owner for it; the owner finishes what
    is in flight, lets go and releases, so the asker needs no lease to expire."""

    async def main() -> None:
        a = Master(Storage(db_url), bot_delay=3600.0, dealer=fixed_dealer,
                   lease_seconds=30.0, owner="A")
        b = Master(Storage(db_url), bot_delay=3600.0, dealer=fixed_dealer,
                   lease_seconds=30.0, owner="B")
        assert a.leases is not None
        a.leases.renew_every = 0.05  # A looks for requests often; its lease lasts 30 s
        await a.open()
        await b.open(migrate=False)
        created, _ = await seated_table(a, 3)
        table_a = a.tables[created.id]
        watcher = Capture(None)
        a.actor(table_a).attach(watcher)
        taking = asyncio.ensure_future(b.own(table_a.id, wait=20.0))
        held = await asyncio.wait_for(taking, 25.0)  # far less than the 30 s lease
        table_b = None if held is None else held.table
        assert table_b is not None and table_b.id == table_a.id
        assert watcher.closed is not None and watcher.closed[0] == CLOSE_MOVED
        assert table_a.id not in a.tables
        await b.close()
        await a.close()

    asyncio.run(main())


def test_a_dead_owners_table_goes_to_the_process_that_asked_for_it(store: GameStore) -> None:
    """The process with the table's clients asked first; another process adopting orphans
    must not take the table from under it (the clients would have to chase it)."""
    _game(store, "g")
    a = store.register_process("A", 60.0)
    b, c = store.register_process("B", 60.0), store.register_process("C", 60.0)
    assert store.acquire_lease("g", "A", a) == 1
    store.renew_process("A", a, -1.0)  # A died: its lease has run out
    store.want_lease("g", "B")
    assert store.acquire_lease("g", "C", c) is None
    assert store.acquire_lease("g", "B", b) == 2
    store.dispose()


def test_after_a_database_outage_every_process_keeps_its_own_tables() -> None:
    """The database away longer than a lease: every process's lease ran out. Back again,
    no process takes another's tables for orphans before the other had a round to renew."""
    from kingsbreakfast.server.memory_store import MemoryStore

    async def main() -> None:
        store = MemoryStore()
        a = Master(store, bot_delay=3600.0, dealer=fixed_dealer, lease_seconds=0.3, owner="A")
        b = Master(store, bot_delay=3600.0, dealer=fixed_dealer, lease_seconds=0.3, owner="B")
        assert a.leases is not None and b.leases is not None
        await a.open()
        await b.open(migrate=False)
        created, _ = await seated_table(a, 3)
        assert await a.own(created.id) is not None and a.leases.holds(created.id)
        b.leases.renew_every = 0.02  # B looks for orphans far more often than A renews
        a.leases.renew_every = 0.25
        loop = asyncio.get_running_loop()
        renewals: list[tuple[str, float, bool]] = []  # (owner, when, went through)
        searches: list[float] = []  # when someone looked for orphaned tables
        renew, orphans = store.renew_process, store.orphans

        def watched_renew(owner: str, *args: Any, **kwargs: Any) -> Any:
            try:
                answer = renew(owner, *args, **kwargs)
            except StorageError:
                renewals.append((owner, loop.time(), False))
                raise
            renewals.append((owner, loop.time(), True))
            return answer

        def watched_orphans(limit: int) -> list[str]:
            searches.append(loop.time())
            return orphans(limit)

        store.renew_process = watched_renew  # type: ignore[method-assign]
        store.orphans = watched_orphans  # type: ignore[method-assign]

        def renewed(owner: str, since: float, went: bool, times: int = 1) -> bool:
            return sum(o == owner and t > since and ok == went
                       for o, t, ok in renewals) >= times

        await until(lambda: renewed("A", 0.0, True) and renewed("B", 0.0, True))
        store.failing = True
        away = loop.time()
        # away longer than a lease: both keepers have failed to renew after it ran out
        await until(lambda: all(renewed(o, away + 0.3, False) for o in ("A", "B")))
        store.failing = False
        back = loop.time()
        # back: A has renewed, B has had many rounds and has looked for orphans since
        await until(lambda: renewed("A", back, True) and renewed("B", back, True, 10)
                    and any(t > back for t in searches))
        assert a.leases.holds(created.id) and created.id in a.actors
        assert created.id not in b.actors
        await b.close()
        await a.close()

    asyncio.run(main())


def test_a_group_commit_outlives_the_loss_of_its_kept_connection(postgres_url: str) -> None:
    """The database thread keeps one connection for its commits; when the database ends it
    (a restart, a terminated session) the commit in hand falls back to each action alone on
    a fresh connection, nothing is refused, and the next commit keeps a new connection."""
    storage = Storage(postgres_url)
    storage.migrate()
    life = storage.register_process("A", 60.0)
    _game(storage, "g")
    assert storage.acquire_lease("g", "A", life) == 1
    fence = ("A", {"g": 1})
    assert storage.append_actions([("g", 0, 0, 1, False)], fence) == [None]
    with storage.engine.connect() as other:
        kept = other.execute(text(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() AND query LIKE '%INSERT INTO actions%'"
        )).scalars().all()
        assert len(kept) == 1
        other.execute(text("SELECT pg_terminate_backend(:p)"), {"p": kept[0]})
    assert storage.append_actions([("g", 1, 1, 2, False)], fence) == [None]
    assert storage.append_actions([("g", 2, 2, 3, False)], fence) == [None]
    record = storage.load("g")
    assert record is not None and record.actions == ((0, 1), (1, 2), (2, 3))
    storage.dispose()
