"""The compiled simulators before and after a change, in many short rounds, on a busy machine.

``batch_speed.py`` and ``vector_speed.py`` keep the best of a few long runs; on a machine
shared with other jobs one long run is rarely left alone, so a few per cent between two
checkouts drown in the swing. This times short pieces instead (a batch of 2,000 random
games, 1,000 with greedy seats, 5 steps of 4,096 vector games) many times in one process
and keeps the best of each, which is the piece that ran undisturbed. ``--before`` names a
second checkout: each round then runs this script's measurement once under each checkout's
sources (its own ``src`` first on the path, its own numba cache), in turn, so load hits
both alike; the end prints the median and the spread of the rounds. Both checkouts need the
``simulate`` and ``VectorGames`` of today's interface. CPU time, 4 players.

    python benchmarks/simulator_rounds.py --before /path/to/old/checkout --before-cache DIR
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve()
TABLES = ("random", "greedy", "self-play", "vs-random")


def best(run: Callable[[int], object], units: int, repeats: int) -> float:
    """The best units per CPU second over ``repeats`` calls of ``run``."""
    top = 0.0
    for repeat in range(repeats):
        start = time.process_time()
        run(repeat)
        top = max(top, units / max(time.process_time() - start, 1e-9))
    return top


def measure(repeats: int) -> dict[str, float]:
    """Each table's best rate in this process (the sources on the path are measured)."""
    import numpy as np

    from kingsbreakfast.sim.batch import simulate
    from kingsbreakfast.sim.vector import VectorGames

    rates = {}
    simulate(10, 4, "random")
    rates["random"] = best(lambda r: simulate(2_000, 4, "random", seed=r), 2_000, repeats)
    simulate(10, 4, "greedy")
    rates["greedy"] = best(
        lambda r: simulate(1_000, 4, "greedy", seed=r), 1_000, max(1, repeats // 4)
    )
    for label, seats in (("self-play", ["caller"] * 4), ("vs-random", ["caller"] + ["random"] * 3)):
        games = VectorGames(4096, 4, seats)
        games.reset(seed=0)
        games.step(np.argmax(games.masks, axis=1))

        def steps(_: int, games: VectorGames = games) -> None:
            masks = games.masks
            for _ in range(5):
                games.step(np.argmax(masks, axis=1))

        rates[label] = best(steps, 4096 * 5, repeats)
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="the other checkout")
    parser.add_argument("--before-cache", help="its NUMBA_CACHE_DIR")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=150, help="pieces timed per table")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child or args.before is None:
        rates = measure(args.repeats)
        print(" ".join(f"{label}={rate:.0f}" for label, rate in rates.items()), flush=True)
        return
    here = HERE.parent.parent
    versions = (
        ("before", args.before, args.before_cache),
        ("after", here, os.environ.get("NUMBA_CACHE_DIR")),
    )
    seen: dict[tuple[str, str], list[float]] = {}
    for round_ in range(args.rounds):
        for label, checkout, cache in versions:
            env = {**os.environ, "PYTHONPATH": str(checkout / "src")}
            if cache is not None:
                env["NUMBA_CACHE_DIR"] = cache
            load = Path("/proc/loadavg").read_text().split()[0]
            done = subprocess.run(
                ["nice", "-n", "10", sys.executable, str(HERE), "--child", "--repeats",
                 str(args.repeats)],
                env=env, capture_output=True, text=True, check=True,
            )
            print(f"round {round_ + 1} {label:6} load {load:>5}  {done.stdout.strip()}", flush=True)
            for table, rate in re.findall(r"([\w-]+)=(\d+)", done.stdout):
                seen.setdefault((table, label), []).append(float(rate))
    print("median [lowest – highest] of the rounds, per CPU second:")
    for table in TABLES:
        for label, _, _ in versions:
            rates = seen.get((table, label), [])
            if rates:
                print(
                    f"  {table:10} {label:6} {statistics.median(rates):12,.0f} "
                    f"[{min(rates):,.0f} – {max(rates):,.0f}]"
                )


if __name__ == "__main__":
    main()
