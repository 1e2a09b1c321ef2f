"""Run one benchmark script against two checkouts, in turn, so that load hits both alike.

A before/after figure on a shared machine is only fair when both variants run under the
same load: this runs ``BENCHMARK`` from the ``--before`` checkout and from this one,
alternately, ``--rounds`` times, each in a fresh process with that checkout's sources first
on the path and a numba cache of its own (``--before-cache``; this checkout uses
``NUMBA_CACHE_DIR`` as set), and prints each run's output under its label.

    python benchmarks/before_after.py --before /tmp/main-worktree -- batch_speed.py --games 100000
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def run(checkout: Path, cache: str | None, script: str, arguments: list[str]) -> str:
    env = {**os.environ, "PYTHONPATH": str(checkout / "src")}
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    done = subprocess.run(
        ["nice", "-n", "10", sys.executable, str(checkout / "benchmarks" / script), *arguments],
        env=env, capture_output=True, text=True, check=True,
    )
    return done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the other checkout")
    parser.add_argument("--before-cache", default=None, help="its NUMBA_CACHE_DIR")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("benchmark", help="a script of benchmarks/, then its arguments")
    parser.add_argument("arguments", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    for round_ in range(args.rounds):
        for label, checkout, cache in (
            ("before", args.before, args.before_cache),
            ("after", HERE, os.environ.get("NUMBA_CACHE_DIR")),
        ):
            output = run(checkout, cache, args.benchmark, args.arguments)
            print(f"--- {label} (round {round_ + 1}): {checkout}")
            print(output.rstrip(), flush=True)


if __name__ == "__main__":
    main()
