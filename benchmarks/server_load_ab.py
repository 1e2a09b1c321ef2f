"""Two versions of the server under the same load: ``server_load.py`` run on each source
tree in turn, alternating, so whatever else the machine is doing hits both alike.

    python benchmarks/server_load_ab.py OLD_SRC NEW_SRC [--tables 500 1000] [--rounds 2]
        [-- extra server_load.py options]

``OLD_SRC`` and ``NEW_SRC`` are ``src`` folders (e.g. of a ``git worktree`` of main and of
this branch); each run's server (and its clients) import the package from that folder, and
each run is driven by its own tree's ``benchmarks/server_load.py``. Printed: every run's JSON
line as it ends, then the server CPU per move of each version at each table count.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path


def run(src: Path, tables: int, extra: list[str], script: Path | None = None) -> dict[str, object]:
    script = script or src.parent / "benchmarks" / "server_load.py"
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(
        [sys.executable, str(script), "--tables", str(tables), *extra],
        env=env, capture_output=True, text=True, check=True,
    )
    start = done.stdout.index("{")
    report: dict[str, object] = json.loads(done.stdout[start:])
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--tables", type=int, nargs="+", default=[500, 1000])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--same-script", action="store_true",
                        help="drive both with NEW_SRC's server_load.py (only the servers' "
                        "sources differ, and both get the same figures)")
    args, extra = parser.parse_known_args()  # the rest goes to server_load.py
    args.extra = [word for word in extra if word != "--"]
    per: dict[tuple[str, int], list[float]] = {}
    for round_no in range(args.rounds):
        for tables in args.tables:
            order = [("old", args.old), ("new", args.new)]
            if round_no % 2:  # who goes first alternates too
                order.reverse()
            for name, src in order:
                script = (args.new.resolve().parent / "benchmarks" / "server_load.py"
                          if args.same_script else None)
                extra = [word.format(version=name, round=round_no, tables=tables)
                         for word in args.extra]  # e.g. --profile prof-{version}-{round}.raw
                report = run(src.resolve(), tables, extra, script)
                print(json.dumps({"version": name, "round": round_no, **report}), flush=True)
                for key in ("server_cpu_ms_per_move", "server_cpu_ms_per_move_in_window"):
                    cpu = report.get(key)
                    if isinstance(cpu, (int, float)):
                        per.setdefault((name + key[22:], tables), []).append(float(cpu))
    for tables in args.tables:
        print(json.dumps({
            "tables": tables,
            "old_cpu_ms_per_move": per.get(("old", tables), []),
            "new_cpu_ms_per_move": per.get(("new", tables), []),
            "old_cpu_ms_per_move_in_window": per.get(("old_in_window", tables), []),
            "new_cpu_ms_per_move_in_window": per.get(("new_in_window", tables), []),
        }))


if __name__ == "__main__":
    main()
