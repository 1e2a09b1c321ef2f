"""What the first use of the compiled simulators costs on an empty numba cache.

Each case runs in a fresh Python process whose ``NUMBA_CACHE_DIR`` is an empty temporary
folder, so everything it needs is compiled; the figure is that child's CPU time (user +
system, from the operating system's account of the finished child), which a shared machine
disturbs far less than wall time. Both are printed. The cases (goals of the cold start):

- ``simulate``: the first ``kingsbreakfast.sim.batch.simulate(100)`` (goal ≤ 8 s of CPU);
- ``vector``: the first ``VectorGames(64).reset()`` and one ``step`` (goal ≤ 8 s);
- ``vector-card-counter``: the same with three card counter seats, ``heuristic`` (≤ 15 s);
- ``simulate-card-counter``: ``simulate(100, 4, "heuristic")``, for information.

Each case's time includes starting Python and importing numpy and numba (``import`` is
printed on its own as the ``baseline`` case). ``--src`` measures another checkout's
sources (for a before/after figure: a worktree of the main branch); with several ``--src``
the checkouts are measured case by case in turn, so that load on the machine hits them
alike.

    python benchmarks/cold_start.py [--src DIR ...] [--cases simulate vector ...]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CASES = {
    "baseline": "import numpy, numba",
    "simulate": "from kingsbreakfast.sim.batch import simulate\nsimulate(100)",
    "vector": (
        "import numpy as np\n"
        "from kingsbreakfast.sim.vector import VectorGames\n"
        "games = VectorGames(64)\n"
        "_, masks = games.reset()\n"
        "games.step(np.argmax(masks, axis=1))"
    ),
    "vector-card-counter": (
        "import numpy as np\n"
        "from kingsbreakfast.sim.vector import VectorGames\n"
        "games = VectorGames(64, 4, ['caller', 'heuristic', 'heuristic', 'heuristic'])\n"
        "_, masks = games.reset()\n"
        "games.step(np.argmax(masks, axis=1))"
    ),
    "simulate-card-counter": (
        "from kingsbreakfast.sim.batch import simulate\nsimulate(100, 4, 'heuristic')"
    ),
}
GOALS = {"simulate": 8.0, "vector": 8.0, "vector-card-counter": 15.0}


def run(case: str, src: Path) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one fresh process running ``case`` from ``src``."""
    with tempfile.TemporaryDirectory(prefix="numba-cold-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(src)}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall = time.perf_counter()
        subprocess.run([sys.executable, "-c", CASES[case]], env=env, check=True)
        wall = time.perf_counter() - wall
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = Path(__file__).resolve().parent.parent / "src"
    parser.add_argument("--src", type=Path, nargs="+", default=[here])
    parser.add_argument("--cases", nargs="+", choices=list(CASES), default=list(CASES))
    args = parser.parse_args()
    print(f"{'case':24} {'source':40} {'CPU s':>7} {'wall s':>7}  goal")
    for case in args.cases:
        for src in args.src:
            cpu, wall = run(case, src)
            goal = GOALS.get(case)
            verdict = "" if goal is None else f"≤ {goal:g} s: {'met' if cpu <= goal else 'missed'}"
            print(f"{case:24} {str(src)[-40:]:40} {cpu:7.1f} {wall:7.1f}  {verdict}", flush=True)


if __name__ == "__main__":
    main()
