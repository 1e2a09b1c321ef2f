"""The chef level's time per move: every move it makes in whole games against three ``hard``
bots, through the engine's bot (the view turned into the kernel's row, then the compiled
search), timed one by one: wall clock and process CPU time, one process, one thread.

    nice -n 10 .venv/bin/python benchmarks/chef_speed.py --games 40 --players 4

The goal is a median of at most 0.5 s and a maximum of at most 2 s a move on one core. The
first move of the process (loading the weights and numba's cached machine code, or compiling
it when the cache is empty) is timed too and reported apart; moves with a single legal action
are not searched and are counted apart.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from kingsbreakfast.bots import make_bot
from kingsbreakfast.engine import State


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=4242)
    args = parser.parse_args()
    chef = make_bot("chef")
    hard = make_bot("hard")
    first = State.new(args.players, random.Random(args.seed))
    start = time.perf_counter()
    chef.act(first.view(first.to_move), random.Random(args.seed))
    first_move = time.perf_counter() - start
    wall: list[float] = []
    cpu: list[float] = []
    single = 0
    for g in range(args.games):
        rng = random.Random(args.seed * 100_000 + g)
        state = State.new(args.players, rng)
        mine = g % args.players
        while not state.is_over:
            seat = state.to_move
            view = state.view(seat)
            if seat == mine:
                w0, c0 = time.perf_counter(), time.process_time()
                action = chef.act(view, rng)
                w1, c1 = time.perf_counter(), time.process_time()
                if len(view.legal_actions()) > 1:
                    wall.append(w1 - w0)
                    cpu.append(c1 - c0)
                else:
                    single += 1
            else:
                action = hard.act(view, rng)
            state.play(action)
    wall.sort()
    cpu.sort()
    print(json.dumps({
        "games": args.games, "players": args.players, "searched_moves": len(wall),
        "single_action_moves": single, "first_move_seconds": round(first_move, 3),
        "wall_median": round(statistics.median(wall), 4),
        "wall_p90": round(wall[int(0.9 * (len(wall) - 1))], 4),
        "wall_max": round(wall[-1], 4),
        "cpu_median": round(statistics.median(cpu), 4),
        "cpu_p90": round(cpu[int(0.9 * (len(cpu) - 1))], 4), "cpu_max": round(cpu[-1], 4),
    }))


if __name__ == "__main__":
    main()
