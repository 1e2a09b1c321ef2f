"""Database statements per move, and writes per idle table, of one cluster process.

Runs a real :class:`~kingsbreakfast.server.master.Master` on PostgreSQL with a lease (as a
``--workers``/cluster process does), seats four players at each of N tables through the
table actors (no sockets: only the database side is counted), and then:

1. plays R rounds in which every table makes one move at a random moment of ``--spread``
   seconds (1 s: every table moving about once a second), counting every statement the
   process sends, by kind;
2. leaves the tables idle for S seconds, counting the writes (the lease keeper runs).

    python benchmarks/db_statements.py --db postgresql://… [--tables 200] [--rounds 20]
        [--spread 1] [--idle 10] [--lease-seconds 3]

The database's tables are dropped first.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from sqlalchemy import event

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from kingsbreakfast.server.master import Master
from kingsbreakfast.server.storage import Storage
from kingsbreakfast.server.wire import Act
from server.kb_harness import Capture, seated_table
from server.kb_schema import fresh_schema


def kind(statement: str) -> str:
    words = statement.split()
    head = words[0].upper()
    if head in ("INSERT", "UPDATE", "DELETE"):
        table = words[2] if head != "UPDATE" else words[1]
        return f"{head} {table}"
    if head == "SELECT":
        lowered = statement.lower()
        for table in ("leases", "server_processes", "games", "actions", "seats"):
            if f"from {table}" in lowered:
                lock = " FOR SHARE" if "for share" in lowered else (
                    " FOR UPDATE" if "for update" in lowered else "")
                return f"SELECT {table}{lock}"
    return head


async def measure(url: str, tables: int, rounds: int, spread: float, idle: float,
                  lease: float) -> dict[str, Any]:
    storage = Storage(url)
    master = Master(storage, bot_delay=3600.0, lease_seconds=lease)
    await master.open(migrate=False)
    counts: collections.Counter[str] = collections.Counter()
    rows: collections.Counter[str] = collections.Counter()
    """Rows written, by statement kind (an UPDATE of every lease row is one statement)."""

    def note(_conn: Any, cursor: Any, statement: str, *_args: Any) -> None:
        counts[kind(statement)] += 1
        if statement.split()[0].upper() in ("INSERT", "UPDATE", "DELETE"):
            rows[kind(statement)] += max(0, cursor.rowcount)

    try:
        held = []
        for _ in range(tables):
            table, _tokens = await seated_table(master, 4)
            actor = await master.own(table.id)
            assert actor is not None
            conns = [Capture(seat) for seat in range(4)]
            for conn in conns:
                actor.attach(conn)
            held.append((actor, conns))
        rng = random.Random(1)
        event.listen(storage.engine, "after_cursor_execute", note)
        moves = 0
        started = time.monotonic()

        async def one(actor: Any, conns: list[Capture]) -> int:
            await asyncio.sleep(rng.random() * spread)
            state = actor.table.state
            if state is None or state.is_over:
                return 0
            action = rng.choice(state.legal_actions())
            await actor.receive(conns[state.to_move], Act(actor.table.version, action))
            return 1

        for _ in range(rounds):
            moves += sum(await asyncio.gather(*(one(a, c) for a, c in held)))
        playing = time.monotonic() - started
        played = dict(counts)
        counts.clear()
        rows.clear()
        await asyncio.sleep(idle)
        idle_counts = dict(counts)
        idle_rows = dict(rows)
    finally:
        event.remove(storage.engine, "after_cursor_execute", note)
        await master.close()
    table_rows = sum(n for k, n in idle_rows.items() if k.split()[1] != "server_processes")
    return {
        "tables": tables,
        "moves": moves,
        "seconds_playing": round(playing, 2),
        "statements_per_move": round(sum(played.values()) / moves, 3),
        "statements_while_playing": played,
        "idle_seconds": idle,
        "lease_seconds": lease,
        "statements_while_idle": idle_counts,
        "idle_rows_written": idle_rows,
        "idle_rows_written_per_minute": round(60 * sum(idle_rows.values()) / idle, 1),
        "idle_table_rows_written_per_minute": round(60 * table_rows / idle, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="a PostgreSQL URL (its tables are dropped)")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--spread", type=float, default=1.0)
    parser.add_argument("--idle", type=float, default=10.0)
    parser.add_argument("--lease-seconds", type=float, default=3.0)
    options = parser.parse_args()
    fresh_schema(options.db)
    print(json.dumps(asyncio.run(measure(options.db, options.tables, options.rounds,
                                         options.spread, options.idle,
                                         options.lease_seconds)), indent=2))


if __name__ == "__main__":
    main()
