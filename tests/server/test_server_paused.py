"""Fencing with a real paused process: a server process that owns a table is stopped with
SIGSTOP, another takes the table over once the lease runs out and plays on, and when the
first is continued with a move in hand for that table, it commits nothing: it finds it lost
the table, tells its sockets to reconnect (1012), and the stored game holds only the new
owner's moves. An owner stopped in the middle of its lease renewal holds no lock and no
transaction (the renewal is one statement with none around it), so the successor waits for
the lease to run out, never more.

Every test here is bounded (pytest-timeout, thread method: a hang in a database call
inside a worker thread ends the run with every thread's stack instead of stalling CI)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest
import websockets
from sqlalchemy import create_engine

from kingsbreakfast.engine import Action
from kingsbreakfast.server.master import Master
from kingsbreakfast.server.storage import Storage, normalize_url
from kingsbreakfast.server.wire import CLOSE_MOVED
from server.conftest import POSTGRES_URL
from server.kb_cluster import port_range
from server.kb_harness import Capture, act
from server.kb_live import LiveServer
from server.kb_schema import empty_database
from server.kb_stall import freeze_inside_renewal, holds_nothing, take_over

LEASE = 1.0
IDLE = 3.0
"""The owner's ``--db-idle-timeout`` in the stalled-transaction test."""

pytestmark = [
    pytest.mark.skipif(not POSTGRES_URL, reason="needs KINGSBREAKFAST_TEST_POSTGRES_URL (CI)"),
    pytest.mark.timeout(180, method="thread"),
]


def test_a_paused_owner_never_commits_after_its_table_was_taken_over(tmp_path: Path) -> None:
    assert POSTGRES_URL is not None
    url = empty_database(POSTGRES_URL)
    storage = Storage(url)
    storage.migrate()
    owner = LiveServer(url, bot_delay=3600.0, port=port_range()[15],
                       log_path=tmp_path / "owner.log",
                       extra=("--lease-seconds", "1", "--no-migrate"))
    owner.start()
    try:
        status, grant = owner.request("POST", "/api/tables", {"name": "Ann", "seats": 3})
        assert status == 201
        table_id, tokens = grant["table"]["id"], [grant["token"]]
        for name in ("Bob", "Cy"):
            tokens.append(owner.request("POST", f"/api/tables/{table_id}/join",
                                        {"name": name})[1]["token"])
        assert owner.request("POST", f"/api/tables/{table_id}/start", None, tokens[0])[0] == 200
        asyncio.run(_pause_take_over_and_wake(owner, url, table_id, tokens))
        stored = storage.load(table_id)
        assert stored is not None and len(stored.actions) == 1  # the new owner's move only
    finally:
        assert owner.process is not None
        if owner.process.poll() is None:
            os.kill(owner.process.pid, signal.SIGCONT)
        owner.stop()
        storage.dispose()


async def _pause_take_over_and_wake(
    owner: LiveServer, url: str, table_id: str, tokens: list[str]
) -> None:
    assert owner.process is not None
    sockets = []
    frames: list[dict[str, Any]] = []
    for token in tokens:
        ws = await websockets.connect(f"{owner.ws_base}/ws/tables/{table_id}")
        await ws.send(json.dumps({"type": "hello", "token": token}))
        frames.append(json.loads(await ws.recv()))
        sockets.append(ws)
    view = frames[-1]["view"]
    seat, version = view["to_move"], frames[-1]["version"]
    assert version == 0

    os.kill(owner.process.pid, signal.SIGSTOP)  # the owner is paused from here on
    successor = Master(Storage(url), bot_delay=3600.0, lease_seconds=1.0, owner="successor")
    await successor.open(migrate=False)
    try:
        held = await successor.own(table_id, wait=15.0)  # once the paused lease ran out
        table = None if held is None else held.table
        assert table is not None and table.state is not None and table.version == 0
        # The paused owner's player sends a move on version 0, then the owner wakes. The new
        # owner has not moved yet, so action number 0 is free: only the fence stands between
        # the stale owner and the store.
        words = view["legal"][-1].split()
        move: dict[str, Any] = {"type": words[0]}
        if words[0] == "take":
            move["dish"] = words[1]
        elif words[0] == "feed":
            move["dishes"] = words[1:]
        await sockets[seat].send(json.dumps({"type": "act", "version": 0, "action": move}))
        os.kill(owner.process.pid, signal.SIGCONT)
        codes = []
        with pytest.raises(websockets.ConnectionClosed) as closed:
            async with asyncio.timeout(30):
                while True:
                    frame = json.loads(await sockets[seat].recv())
                    if frame["type"] == "error":
                        codes.append(frame["code"])
                    elif frame["type"] == "state":
                        assert frame["version"] == 0  # never the paused owner's move
        assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_MOVED
        assert set(codes) <= {"storage_unavailable"}
        assert Action.parse(view["legal"][-1]) is not None  # a legal move in the owner's eyes
        assert successor.storage.load(table_id).actions == ()  # type: ignore[union-attr]

        # the new owner plays on from where the store is
        player = Capture(seat)
        successor.actor(table).attach(player)
        await act(successor, table, player, table.state.legal_actions()[0])
        assert table.version == 1
    finally:
        for ws in sockets:
            await ws.close()
        await successor.close()


def test_an_owner_stalled_inside_its_lease_renewal_loses_the_table_in_bounded_time(
    tmp_path: Path,
) -> None:
    """The CI hang of before: the owner frozen between its renewal's ``UPDATE`` and its
    commit, the successor's take waiting on the row lock for ever. Here the owner is frozen
    exactly in its renewal, every time: the test holds the owner's process row so that the
    renewal waits on it, stops the owner, and lets the row go; the renewal completes on the
    server under a stopped client. It ran without a transaction around it, so the stopped
    session holds no lock, and a successor (which only reads process rows) takes the table
    once the unrenewed lease runs out."""
    assert POSTGRES_URL is not None
    url = empty_database(POSTGRES_URL)
    storage = Storage(url)
    storage.migrate()
    owner = LiveServer(url, bot_delay=3600.0, port=port_range()[16],
                       log_path=tmp_path / "owner.log",
                       extra=("--lease-seconds", str(LEASE), "--no-migrate",
                              "--db-idle-timeout", str(IDLE)))
    owner.start()
    engine = create_engine(normalize_url(url), isolation_level="AUTOCOMMIT")
    try:
        status, grant = owner.request("POST", "/api/tables", {"name": "Ann", "seats": 3})
        assert status == 201
        table_id = grant["table"]["id"]
        assert owner.request("POST", f"/api/tables/{table_id}/start", None,
                             grant["token"])[0] == 200
        backend = freeze_inside_renewal(owner, engine, table_id)
        stalled_at = time.monotonic()
        assert holds_nothing(engine, backend), "a stopped renewal still holds a lock"
        taken_after = asyncio.run(take_over(url, table_id, LEASE, 4 * (IDLE + LEASE) + 10))
        assert taken_after is not None, "the successor never got the table"
        waited = time.monotonic() - stalled_at
        assert waited <= LEASE + 5.0, waited  # the lease, and a margin
        stored = storage.load(table_id)
        assert stored is not None and stored.status == "playing" and stored.actions == ()
    finally:
        assert owner.process is not None
        if owner.process.poll() is None:
            os.kill(owner.process.pid, signal.SIGCONT)
        owner.stop()
        engine.dispose()
        storage.dispose()
