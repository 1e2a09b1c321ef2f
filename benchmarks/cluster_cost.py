"""Cost per move of a cluster of 1, 2 and 3 server processes at the same total load.

Runs ``server_load.py --servers N --proxy --pg-statements`` (PostgreSQL, every process behind
HAProxy, the clients through the proxy; the same tables, think time and seed) for each N in
turn, round after round with the order rotating, so that whatever else the machine is doing
hits each size alike. Each run counts, over its measurement window: the statements PostgreSQL
ran (``pg_stat_statements``, which must be loaded in the server: ``shared_preload_libraries``)
and the CPU of the server processes, of HAProxy and of PostgreSQL, each per move, the moves
a group commit held, and how the servers' threads spent the window (the system's share of
their CPU, their waits and preemptions per move). Printed: every run's figures, then each
size's median and its ratio to one process.

On a machine with fewer cores than processes (plus proxy, database and clients), more
processes cannot serve more moves a second; what does show is whether a move costs more
when the tables are spread over more processes. That cost per move staying flat is the
honest proxy for linear scaling there.

    python benchmarks/cluster_cost.py --db postgresql://… [--servers 1 2 3] [--tables 300]
        [--seconds 30] [--rounds 2] [--port-base 18400] [--by-kind]

The database's tables are dropped before every run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from server_load_ab import run

SRC = Path(__file__).resolve().parents[1] / "src"
FIGURES = (
    ("statements_per_move_in_window", "statements"),
    ("server_cpu_ms_per_move_in_window", "server ms"),
    ("postgres_cpu_ms_per_move_in_window", "PostgreSQL ms"),
    ("proxy_cpu_ms_per_move_in_window", "HAProxy ms"),
    ("moves_per_commit", "moves a commit"),
    ("server_system_cpu_share_in_window", "server system share"),
    ("server_waits_per_move_in_window", "server waits"),
    ("server_preemptions_per_move_in_window", "server preempted"),
)
GROUP_COMMIT = "WITH … INSERT actions"
"""The group commit's one statement, as ``server_load.statement_kind`` names it."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True,
                        help="a PostgreSQL URL with pg_stat_statements (its tables are dropped)")
    parser.add_argument("--servers", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--client-procs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--port-base", type=int, default=18400)
    parser.add_argument("--by-kind", action="store_true",
                        help="also print the statements per move of each kind and size")
    options = parser.parse_args()
    runs: dict[int, list[dict[str, object]]] = {n: [] for n in options.servers}
    for round_no in range(options.rounds):
        shift = round_no % len(options.servers)
        for servers in options.servers[shift:] + options.servers[:shift]:
            try:
                report = run(SRC, options.tables, [
                    "--db", options.db, "--servers", str(servers), "--proxy",
                    "--pg-statements", "--seconds", str(options.seconds),
                    "--think", str(options.think), "--client-procs", str(options.client_procs),
                    "--port-base", str(options.port_base), "--seed", str(round_no + 1),
                ])
            except subprocess.CalledProcessError as error:  # told, and left out
                print(json.dumps({"round": round_no, "servers": servers,
                                  "failed": error.stderr[-600:]}), flush=True)
                continue
            commits = report.get("statements_per_move_by_kind", {}).get(GROUP_COMMIT)  # type: ignore[attr-defined]
            if commits:
                report["moves_per_commit"] = round(1 / commits, 2)
            runs[servers].append(report)
            print(json.dumps({"round": round_no, **report}), flush=True)

    def median(servers: int, key: str) -> float | None:
        values = [r[key] for r in runs[servers] if isinstance(r.get(key), (int, float))]
        return statistics.median(values) if values else None  # type: ignore[type-var]

    base = options.servers[0]
    print()
    print(f"{options.tables} tables, think {options.think} s, {options.seconds:.0f} s windows, "
          f"{options.rounds} rounds; median per move (ratio to {base} process"
          f"{'es' if base > 1 else ''})")
    head = ["processes", "moves/s", "p50 ms", "p99 ms", "errors/closes/lost",
            *[name for _key, name in FIGURES]]
    print(" | ".join(head))
    for servers in options.servers:
        cells = [str(servers)]
        for key in ("moves_per_s", "p50_ms", "p99_ms"):
            value = median(servers, key)
            cells.append("—" if value is None else f"{value:g}")
        cells.append("/".join(str(sum(int(r[k]) for r in runs[servers]))  # type: ignore[call-overload]
                              for k in ("error_frames", "unexpected_closes",
                                        "lost_actions_tables")))
        for key, _name in FIGURES:
            value, first = median(servers, key), median(base, key)
            if value is None:
                cells.append("—")
            elif first:
                cells.append(f"{value:.3f} ({value / first:.2f}×)")
            else:
                cells.append(f"{value:.3f}")
        print(" | ".join(cells))
    if options.by_kind:
        print()
        kinds = sorted({k for n in options.servers for r in runs[n]
                        for k in r.get("statements_per_move_by_kind", {})})  # type: ignore[attr-defined]
        print(" | ".join(["statement", *[f"{n} process(es)" for n in options.servers]]))
        for kind in kinds:
            cells = [kind]
            for servers in options.servers:
                values = [r["statements_per_move_by_kind"].get(kind, 0.0)  # type: ignore[index]
                          for r in runs[servers] if "statements_per_move_by_kind" in r]
                cells.append(f"{statistics.median(values):.4f}" if values else "—")
            print(" | ".join(cells))


if __name__ == "__main__":
    main()
