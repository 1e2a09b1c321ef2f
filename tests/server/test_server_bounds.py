"""The server's bounds, in process: tables per address, sockets per address and table, body
size, lobby expiry, what the store keeps of expired tables and of seat holders, the log's
JSON lines, and the owner-only database file."""

from __future__ import annotations

import asyncio
import json
import logging
import math
import os
import stat
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from kingsbreakfast.server import logs
from kingsbreakfast.server.app import create_app
from kingsbreakfast.server.expiry import sweep
from kingsbreakfast.server.limits import PerAddress, Refused, ServerLimits, SocketGate
from kingsbreakfast.server.lobby import LobbyError, clean_name
from kingsbreakfast.server.master import Master
from kingsbreakfast.server.memory_store import MemoryStore
from kingsbreakfast.server.storage import Storage
from kingsbreakfast.server.store import GameStore, SeatHolder, SeatRecord
from server.kb_harness import Capture, seated_table


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_tables_per_address_come_in_a_burst_then_at_the_rate() -> None:
    clock = Clock()
    book = PerAddress(per_minute=6, burst=3, clock=clock)
    for _ in range(3):
        book.take("a")
    with pytest.raises(Refused) as refused:
        book.take("a")
    assert refused.value.code == "too_many_tables"
    assert refused.value.params == {"per_minute": 6, "retry_after": 10.0}
    book.take("b")  # another address has its own bucket
    clock.now = 10.0  # one table's worth has come back
    book.take("a")
    with pytest.raises(Refused):
        book.take("a")


def test_the_address_book_forgets_the_oldest_past_its_size() -> None:
    book = PerAddress(per_minute=6, burst=1)
    for n in range(10_050):
        book.take(f"10.0.{n // 256}.{n % 256}")
    assert len(book._buckets) == 10_000
    book.take("10.0.0.0")  # the oldest was forgotten: a fresh bucket


@given(st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from("xyz"), st.booleans()),
                max_size=60))
def test_the_socket_gate_never_passes_its_caps_and_forgets_what_left(
    steps: list[tuple[str, str, bool]],
) -> None:
    gate = SocketGate(per_address=3, per_table=4)
    held: list[tuple[str, str]] = []
    for address, table, enter in steps:
        if enter:
            try:
                gate.enter(address, table)
                held.append((address, table))
            except Refused as refused:
                assert refused.code in ("too_many_sockets", "table_crowded")
        elif (address, table) in held:
            held.remove((address, table))
            gate.leave(address, table)
        assert all(n <= 3 for n in gate.by_address.values())
        assert all(n <= 4 for n in gate.by_table.values())
        assert gate.open == len(held)
    for address, table in list(held):
        gate.leave(address, table)
    assert gate.by_address == {} and gate.by_table == {}


def test_a_body_over_the_cap_is_refused_with_413(sqlite_url: str) -> None:
    app = create_app(sqlite_url, limits=ServerLimits(body_bytes=1000))
    with TestClient(app) as client:
        reply = client.post("/api/tables", content=b"{" + b" " * 2000 + b"}",
                            headers={"content-type": "application/json"})
        assert reply.status_code == 413
        assert reply.json()["error"] == {
            "code": "body_too_large", "message": "a request body may hold at most 1000 bytes",
            "params": {"limit": 1000},
        }
        small = client.post("/api/tables", json={"name": "Ann"})
        assert small.status_code == 201


def test_a_refused_table_costs_no_allowance_and_the_lobby_is_paged(sqlite_url: str) -> None:
    app = create_app(sqlite_url, limits=ServerLimits(tables_burst=2, tables_per_minute=1))
    with TestClient(app) as client:
        assert client.post("/api/tables", json={"name": "Bot 1 (easy)"}).status_code == 422
        assert client.post("/api/tables", json={"name": "Ann", "seats": 9}).status_code == 422
        ids = [client.post("/api/tables", json={"name": f"P{n}"}).json()["table"]["id"]
               for n in range(2)]
        third = client.post("/api/tables", json={"name": "P3"})
        assert (third.status_code, third.json()["error"]["code"]) == (429, "too_many_tables")
        # a table a minute: the bucket fills again in about a minute, said in both places
        wait = third.json()["error"]["params"]["retry_after"]
        assert 55 <= wait <= 60
        assert third.headers["retry-after"] == str(math.ceil(wait))
        page = client.get("/api/tables", params={"offset": 1, "limit": 1})
        assert page.headers["x-total-count"] == "2"
        assert [t["id"] for t in page.json()] == ids[1:]


@pytest.mark.parametrize(("name", "code"), [
    ("Bot 2 (hard)", "reserved_name"), ("bot7", "reserved_name"), ("B0T 4", "reserved_name"),
    ("Robin (random)", "reserved_name"), ("Ann\u200f", "bad_name"), ("\u202eAnn", "bad_name"),
])
def test_names_passing_for_bots_or_hiding_characters_are_refused(name: str, code: str) -> None:
    with pytest.raises(LobbyError) as refused:
        clean_name(name)
    assert refused.value.code == code


@pytest.mark.parametrize("name", ["Botond", "Abbot", "Robot 3", "Ann (host)", "Zoë"])
def test_ordinary_names_pass(name: str) -> None:
    assert clean_name(name) == name


def test_idle_and_hostless_lobby_tables_expire_and_their_sockets_close() -> None:
    async def main() -> None:
        store = MemoryStore()
        master = Master(store, bot_delay=0.0)
        await master.open()
        idle, _ = await seated_table(master, 1, seats=3, start=False)
        waiting, _ = await seated_table(master, 1, seats=3, start=False)
        hostless, tokens = await seated_table(master, 1, seats=3, start=False)
        await master.leave(hostless.id, tokens[0])
        playing, _ = await seated_table(master, 1, seats=3)
        watcher, host = Capture(None), Capture(0)
        master.actor(idle).attach(watcher)
        master.actor(waiting).attach(host)  # a seated player waiting is activity
        now = max(a.active_at for a in master.actors.values())
        assert await sweep(master.actors.values(), 60.0, now) == [hostless.id]
        gone = await sweep(master.actors.values(), 60.0, now + 61.0)
        assert gone == [idle.id]
        assert watcher.closed == (4004, "this table expired")
        assert set(master.tables) == {waiting.id, playing.id}
        assert store.load(idle.id) is None and store.load(playing.id) is not None
        await master.close()

    asyncio.run(main())


def test_the_store_discards_lobby_tables_only_and_keeps_seat_holders(
    game_store: GameStore,
) -> None:
    rules = {"empty_table": "draw_or_feed", "dragon_min_on_table": 1}
    for game in ("lobby1", "played"):
        game_store.create_game(game, num_seats=3, rules=rules, bot_level="easy",  # type: ignore[arg-type]
                               clock_seconds=None, public=True,
                               seats=[SeatRecord(n, "open", "", None) for n in range(3)])
    game_store.start_game("played", tuple(["bread"] * 110), 0,
                          [SeatRecord(n, "bot", "", None) for n in range(3)])
    game_store.add_holders("played", [SeatHolder(0, 0, "human", "Ann"),
                                      SeatHolder(1, 0, "bot", "")])
    game_store.add_holders("played", [SeatHolder(1, 7, "human", "Eve")])
    assert game_store.discard_lobby("lobby1") is True
    assert game_store.discard_lobby("played") is False
    assert game_store.discard_lobby("nothing") is False
    assert game_store.load("lobby1") is None and game_store.load("played") is not None
    assert game_store.holders("played") == [
        SeatHolder(0, 0, "human", "Ann"), SeatHolder(1, 0, "bot", ""),
        SeatHolder(1, 7, "human", "Eve"),
    ]
    game_store.ping()


def test_the_sqlite_file_and_its_wal_are_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    path.touch(mode=0o644)
    os.chmod(path, 0o644)  # an old, too open file is narrowed too
    storage = Storage(f"sqlite:///{path}")
    storage.migrate()
    storage.ping()
    for name in (path, Path(f"{path}-wal")):
        assert name.exists(), name
        assert stat.S_IMODE(name.stat().st_mode) == 0o600, name
    storage.dispose()


def test_the_log_in_json_is_one_object_a_line() -> None:
    record = logging.LogRecord("kingsbreakfast.server", logging.INFO, __file__, 1,
                               "table %s created", ("abc",), None)
    record.table = "abc"
    line = json.loads(logs.JsonLines().format(record))
    assert {k: line[k] for k in ("level", "logger", "message", "table")} == {
        "level": "info", "logger": "kingsbreakfast.server", "message": "table abc created",
        "table": "abc",
    }
    with pytest.raises(ValueError):
        logs.check_level("loud")
    config = logs.uvicorn_config("warning", True)
    assert config["loggers"]["uvicorn.access"]["level"] == "WARNING"


def test_the_full_collection_runs_on_its_schedule_and_is_given_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gc

    from kingsbreakfast.server import collector

    before = gc.get_threshold()
    thresholds = collector.take_over()
    try:
        assert thresholds == before
        assert gc.get_threshold()[0] == max(before[0], collector.YOUNG)
        assert gc.get_threshold()[1] == before[1] and gc.get_threshold()[2] > 10**8
        assert gc.get_freeze_count() > 0  # what start-up built is frozen
    finally:
        collector.give_back(thresholds)
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0

    calls: list[str] = []
    monkeypatch.setattr(gc, "collect", lambda: calls.append("collect") or 0)
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(gc, "unfreeze", lambda: calls.append("unfreeze"))

    async def main() -> None:
        task = asyncio.get_running_loop().create_task(collector.full_passes(0.001))
        for _ in range(10_000):  # bounded: a few turns of the loop are enough
            if calls.count("collect") >= collector.SWEEP_EVERY + 1:
                break
            await asyncio.sleep(0.001)
        task.cancel()

    asyncio.run(main())
    passes = calls.count("collect")
    assert passes >= collector.SWEEP_EVERY + 1
    # each pass freezes what survived it; every SWEEP_EVERY-th thaws everything first
    one, sweep = ["collect", "freeze"], ["unfreeze", "collect", "freeze"]
    expected = [*(one * (collector.SWEEP_EVERY - 1)), *sweep, *one]
    assert calls[:len(expected)] == expected


def test_a_sweep_frees_the_cycles_of_what_was_frozen() -> None:
    """What was alive at a pass and became cyclic garbage later (a closed table's cycles)
    is freed by the next sweep, not kept for ever."""
    import gc
    import weakref

    from kingsbreakfast.server import collector

    class Node:
        pass

    thresholds = collector.take_over()
    try:
        node = Node()
        node.me = node  # type: ignore[attr-defined]  # a cycle: reference counting cannot free it
        alive = weakref.ref(node)
        collector.full_pass(1)  # node survives and is frozen
        del node
        for number in range(2, collector.SWEEP_EVERY):
            collector.full_pass(number)
            assert alive() is not None  # frozen: the ordinary passes leave it
        collector.full_pass(collector.SWEEP_EVERY)
        assert alive() is None
    finally:
        collector.give_back(thresholds)
    assert gc.get_freeze_count() == 0
