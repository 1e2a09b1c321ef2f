"""The master level's time per move: every move it makes in whole games against three
``hard`` bots, timed one by one (wall clock and process CPU time, one process, one thread).

    .venv/bin/python benchmarks/master_speed.py --games 100

The goal is a median of at most 0.25 s and a maximum of at most 1 s a move on one core. The
first move of the process (which loads the weights) is timed too and reported apart.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core: numpy's BLAS on one thread
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from kingsbreakfast.bots import make_bot
from kingsbreakfast.engine import State


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    master = make_bot("master")
    first_load = time.perf_counter() - start
    hard = make_bot("hard")
    wall: list[float] = []
    cpu: list[float] = []
    for g in range(args.games):
        rng = random.Random(args.seed * 100_000 + g)
        state = State.new(4, rng)
        mine = g % 4
        while not state.is_over:
            seat = state.to_move
            view = state.view(seat)
            if seat == mine:
                w0, c0 = time.perf_counter(), time.process_time()
                action = master.act(view, rng)
                wall.append(time.perf_counter() - w0)
                cpu.append(time.process_time() - c0)
            else:
                action = hard.act(view, rng)
            state.play(action)
    wall.sort()
    print(json.dumps({
        "games": args.games, "moves": len(wall), "load_seconds": round(first_load, 4),
        "wall_median": round(statistics.median(wall), 5),
        "wall_p90": round(wall[int(0.9 * (len(wall) - 1))], 5),
        "wall_max": round(wall[-1], 5),
        "cpu_median": round(statistics.median(cpu), 5), "cpu_max": round(max(cpu), 5),
    }))


if __name__ == "__main__":
    main()
