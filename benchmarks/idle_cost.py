"""What a cluster process costs whatever its load: N server processes on PostgreSQL behind
HAProxy with no table in play, each left alone for a window; measured per process and
second, the CPU it used (its lease rounds, the proxy's health checks, its collector and
event loop) and, with ``pg_stat_statements`` loaded, the statements it sent, by kind.

At the same total load, a cluster of N processes pays this N times; per move that is
N × (this) ÷ (moves a second), the part of a cluster's cost per move that grows with its
size (benchmarks/cluster_cost.py measures the whole).

    python benchmarks/idle_cost.py --db postgresql://… [--servers 1 3] [--seconds 20]
        [--port-base 18400]

The database's tables are dropped before every run.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from server_load import Statements, cpu_seconds, statement_kind

from server.kb_cluster import Proxy, start_servers
from server.kb_schema import fresh_schema


def measure(db: str, servers: int, seconds: float, port_base: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        fresh_schema(db)
        ports = list(range(port_base, port_base + servers + 1))
        proxy = Proxy(ports[0], ports[1:], Path(tmp))
        processes = start_servers(db, ports[1:], Path(tmp), 3.0, start_timeout=180.0)
        try:
            proxy.start()
            time.sleep(3.0)  # past the start-up work: registration, the first rounds
            statements = Statements(db)
            pids = [s.process.pid for s in processes if s.process is not None]
            before = sum(cpu_seconds(pid) for pid in pids)
            statements.start()
            time.sleep(seconds)
            found = statements.end()
            (t0, c0), (t1, c1) = statements.marks
            used = sum(cpu_seconds(pid) for pid in pids) - before
        finally:
            proxy.stop()
            for process in processes:
                process.stop()
    span = t1 - t0
    kinds: dict[str, float] = {}
    for query, calls, _rows in found:
        kinds[statement_kind(query)] = kinds.get(statement_kind(query), 0) + calls
    per = span * servers
    return {
        "servers": servers, "window_s": round(span, 1),
        "server_cpu_ms_per_process_second": round(1000 * used / per, 2),
        "postgres_cpu_ms_per_second": round(1000 * (c1 - c0) / span, 2),
        "statements_per_process_second": round(sum(kinds.values()) / per, 2),
        "by_kind_per_process_second": {
            k: round(n / per, 2) for k, n in sorted(kinds.items(), key=lambda kv: -kv[1])},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True,
                        help="a PostgreSQL URL with pg_stat_statements (its tables are dropped)")
    parser.add_argument("--servers", type=int, nargs="+", default=[1, 3])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--port-base", type=int, default=18400)
    options = parser.parse_args()
    for servers in options.servers:
        print(json.dumps(measure(options.db, servers, options.seconds, options.port_base)),
              flush=True)


if __name__ == "__main__":
    main()
