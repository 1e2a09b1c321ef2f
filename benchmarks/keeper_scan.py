"""What a cluster's lease keepers cost as the tables in play grow: the next wall.

Every process of a cluster, once per renewal (a third of ``--lease-seconds``), renews its
own row in one statement that also publishes its play sockets per address and reads back
which tables are still its own and the other live processes' socket counts; and once per
round one process of the cluster (they take turns) looks for orphaned tables (in play, with
no living owner) to adopt. This fills an empty PostgreSQL database with T tables in play
spread over P processes (games, lease and process rows, through SQL; each table's four
sockets held ``--sockets-per-address`` to an address, published as a process does: the
addresses holding ``SHARED_FROM`` sockets or more on it), then times the real calls
(:meth:`Storage.renew_process` and :meth:`Storage.orphans`) for each T: as the caller
waits for them, and as the database spends executing them (``pg_stat_statements``, when
loaded), and says what the latter costs the database each second for the whole cluster
(P renewals and one search a round).

    python benchmarks/keeper_scan.py --db postgresql://… [--tables 1000 10000 100000]
        [--processes 25] [--repeats 7] [--lease-seconds 3] [--sockets-per-address 1]

The database's tables are dropped first.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from kingsbreakfast.server.leases import KEEPER_ORPHANS
from kingsbreakfast.server.shared_counts import SHARED_FROM
from kingsbreakfast.server.storage import Storage
from server.kb_schema import fresh_schema

SOCKETS = 4
"""Play sockets a table has (its four players)."""


def published(tables: range, per_address: int) -> dict[str, int] | None:
    """The socket counts a process holding these tables publishes: each table's sockets
    ``per_address`` to an address, the addresses holding ``SHARED_FROM`` or more."""
    if per_address < SHARED_FROM:
        return {}
    return {f"a{n}.{s}": per_address for n in tables for s in range(SOCKETS // per_address)}


def fill(storage: Storage, tables: int, processes: int,
         per_address: int) -> list[tuple[str, int]]:
    """T tables in play, table i owned by process i mod P (all alive for a minute), each
    process's row holding the socket counts it publishes."""
    with storage.engine.begin() as connection:
        for table in ("leases", "seats", "actions", "games", "server_processes"):
            connection.execute(text(f"DELETE FROM {table}"))
        connection.execute(text(
            "INSERT INTO games (id, created_at, status, num_seats, rules, bot_level, public,"
            " first_cook) SELECT 'g' || n, now(), 'playing', 4, '{}', 'random', false, 0"
            " FROM generate_series(1, :n) AS n"), {"n": tables})
        connection.execute(text("ANALYZE games"))
    lives = [(f"keeper:{p}", storage.register_process(f"keeper:{p}", 60.0))
             for p in range(processes)]
    with storage.engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO leases (game_id, owner, epoch) SELECT 'g' || n,"
            " 'keeper:' || (n % :p), 1 FROM generate_series(1, :n) AS n"),
            {"n": tables, "p": processes})
        connection.execute(text("ANALYZE leases"))
        if per_address >= SHARED_FROM:
            connection.execute(text(
                "UPDATE server_processes SET sockets = (SELECT json_object_agg("
                " 'a' || n || '.' || s, :k) FROM generate_series(1, :n) AS n,"
                " generate_series(0, :s - 1) AS s"
                " WHERE 'keeper:' || (n % :p) = server_processes.name)"),
                {"n": tables, "p": processes, "s": SOCKETS // per_address, "k": per_address})
    return lives


def timed(storage: Storage, call: Callable[[], object], repeats: int) -> tuple[float, float]:
    """Median milliseconds of ``call()`` as the caller waits for it, and the mean the
    database spent executing its statements (``pg_stat_statements``, when loaded)."""
    try:
        with storage.engine.begin() as connection:
            connection.execute(text("CREATE EXTENSION IF NOT EXISTS pg_stat_statements"))
            connection.execute(text("SELECT pg_stat_statements_reset()"))
        counted = True
    except SQLAlchemyError:  # not loaded in this server: the caller's times only
        counted = False
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        call()
        times.append(1000 * (time.perf_counter() - started))
    executing = float("nan")
    if counted:
        with storage.engine.begin() as connection:
            executing = connection.execute(text(
                "SELECT coalesce(sum(total_exec_time), 0) FROM pg_stat_statements"
                " WHERE query NOT LIKE '%pg_stat_statements%'"
                " AND dbid = (SELECT oid FROM pg_database WHERE datname = current_database())"
            )).scalar_one() / repeats
    return statistics.median(times), float(executing)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="a PostgreSQL URL (its tables are dropped)")
    parser.add_argument("--tables", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--processes", type=int, default=25)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--lease-seconds", type=float, default=3.0)
    parser.add_argument("--sockets-per-address", type=int, default=1, choices=[1, 2, 4],
                        help="of each table's four sockets, how many share an address")
    options = parser.parse_args()
    fresh_schema(options.db)
    storage = Storage(options.db)
    rounds_per_s = 1 / (options.lease_seconds / 3)
    try:
        for tables in options.tables:
            lives = fill(storage, tables, options.processes, options.sockets_per_address)
            name, life = lives[0]
            mine = published(range(options.processes, tables + 1, options.processes),
                             options.sockets_per_address)
            renew, renew_db = timed(
                storage, lambda n=name, e=life, m=mine: storage.renew_process(n, e, 60.0, m),
                options.repeats)
            orphans, orphans_db = timed(
                storage, lambda: storage.orphans(KEEPER_ORPHANS), options.repeats)
            print(json.dumps({
                "tables_in_play": tables, "processes": options.processes,
                "renew_ms": round(renew, 2), "renew_db_ms": round(renew_db, 2),
                "orphans_ms": round(orphans, 2), "orphans_db_ms": round(orphans_db, 2),
                "sockets_per_address": options.sockets_per_address,
                "keepers_db_ms_per_s": round(
                    rounds_per_s * (options.processes * renew_db + orphans_db), 1),
            }), flush=True)
    finally:
        storage.dispose()


if __name__ == "__main__":
    main()
