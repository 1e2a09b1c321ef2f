"""Versions of the server under the same load: ``server_load.py`` run on each source tree
in turn, the order reversed every other round, so whatever else the machine is doing hits
them alike.

    python benchmarks/server_load_ab.py OLD_SRC NEW_SRC [MORE_SRC …] [--tables 500 1000]
        [--rounds 2] [--same-script] [-- extra server_load.py options]

The trees are ``src`` folders (e.g. of a ``git worktree`` of main and of this branch, or
``git archive`` exports of commits); each run's server (and its clients) import the package
from that folder, and each run is driven by its own tree's ``benchmarks/server_load.py``
(``--same-script``: the last tree's). Two trees are named old and new, more by their
folders' parents. Printed: every run's JSON line as it ends, then the server CPU per move of
each version at each table count.
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
    parser.add_argument("trees", type=Path, nargs="+", help="two or more src folders")
    parser.add_argument("--tables", type=int, nargs="+", default=[500, 1000])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--same-script", action="store_true",
                        help="drive every version with the last tree's server_load.py (only "
                        "the servers' sources differ, and all get the same figures)")
    args, extra = parser.parse_known_args()  # the rest goes to server_load.py
    args.extra = [word for word in extra if word != "--"]
    if len(args.trees) < 2:
        parser.error("give at least two src folders")
    names = (["old", "new"] if len(args.trees) == 2
             else [tree.resolve().parent.name for tree in args.trees])
    last = args.trees[-1]
    per: dict[tuple[str, int], list[float]] = {}
    for round_no in range(args.rounds):
        for tables in args.tables:
            order = list(zip(names, args.trees, strict=True))
            if round_no % 2:  # who goes first alternates too
                order.reverse()
            for name, src in order:
                script = (last.resolve().parent / "benchmarks" / "server_load.py"
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
        print(json.dumps({"tables": tables, **{
            f"{name}_cpu_ms_per_move{suffix}": per.get((name + suffix, tables), [])
            for name in names for suffix in ("", "_in_window")
        }}))


if __name__ == "__main__":
    main()
