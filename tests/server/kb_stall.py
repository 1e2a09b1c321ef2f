"""An owner process frozen in the middle of its lease renewal, for the paused-owner test and
the stalled-owner benchmark: the owner's process row (its one lease) is held by the test so
the owner's renewal waits on it, the owner is stopped (SIGSTOP), the row let go; the renewal
then completes on the database under a stopped client. On PostgreSQL a renewal is one
statement with no transaction around it, so the stopped session is left idle, holding no
lock and no transaction."""

from __future__ import annotations

import asyncio
import os
import signal
import time

from sqlalchemy import Engine, text

from kingsbreakfast.server.lobby import LobbyError
from kingsbreakfast.server.master import Master
from kingsbreakfast.server.storage import Storage, StorageError
from server.kb_live import LiveServer


def freeze_inside_renewal(owner: LiveServer, engine: Engine, table_id: str) -> int:
    """Stop the owner just as its lease renewal completes on the server; the owner's
    database session (its pid) is answered once the renewal has finished there."""
    assert owner.process is not None
    with engine.connect() as holder:
        holder.execute(text("BEGIN"))
        holder.execute(text(
            "SELECT 1 FROM server_processes WHERE name = "
            "(SELECT owner FROM leases WHERE game_id = :g) FOR UPDATE"
        ), {"g": table_id})
        backend = wait_for(
            engine, "wait_event_type = 'Lock' AND query LIKE '%UPDATE server_processes%'"
        )
        os.kill(owner.process.pid, signal.SIGSTOP)
        holder.execute(text("COMMIT"))
    state = wait_for(engine, f"pid = {backend} AND state LIKE 'idle%'")
    assert state == backend
    return backend


def holds_nothing(engine: Engine, backend: int) -> bool:
    """The session is outside any transaction and holds no lock (its own virtual
    transaction id aside, which every session has)."""
    with engine.connect() as watcher:
        state = watcher.execute(
            text("SELECT state FROM pg_stat_activity WHERE pid = :p"), {"p": backend}
        ).scalar()
        locks = watcher.execute(text(
            "SELECT count(*) FROM pg_locks WHERE pid = :p AND locktype <> 'virtualxid'"
        ), {"p": backend}).scalar_one()
    return state == "idle" and locks == 0


def wait_for(engine: Engine, where: str, seconds: float = 10.0) -> int:
    """The pid of the first database session matching ``where``, polled for ``seconds``."""
    deadline = time.monotonic() + seconds
    with engine.connect() as watcher:
        while time.monotonic() < deadline:
            pid = watcher.execute(text(
                f"SELECT pid FROM pg_stat_activity WHERE {where} AND pid <> pg_backend_pid()"
            )).scalar()
            if pid is not None:
                return int(pid)
            time.sleep(0.005)
    raise AssertionError(f"no database session with {where} within {seconds} s")


async def take_over(url: str, table_id: str, lease: float, bound: float) -> float | None:
    """Take the table as a reconnecting client would make a process do: try, and on a
    refusal (the row still locked, the lease not yet run out) try again, up to a bound."""
    successor = Master(Storage(url), bot_delay=3600.0, lease_seconds=lease, owner="successor")
    await successor.open(migrate=False)
    started = time.monotonic()
    try:
        while time.monotonic() - started < bound:
            try:
                held = await successor.own(table_id, wait=1.0)
            except (StorageError, LobbyError):
                await asyncio.sleep(0.1)
                continue
            assert held is not None and held.table.version == 0
            return time.monotonic() - started
        return None
    finally:
        await successor.close()
