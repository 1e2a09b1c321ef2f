"""How long a hint takes: every decision of whole master-bot games (4, 3 and 5 players in
turn), each hinted from the mover's view and timed (wall clock and process CPU time, one
process, one thread), the positions whose last turns the hint plays out reported apart from
the others (``bots/last_turns.py``).

    .venv/bin/python benchmarks/hint_speed.py --games 40 --seed 900

A hint is asked for by a person waiting at a table (the terminal's ``h``, the browser's
Hint button, a thread of its own on the server): it should come within a second.
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

from kingsbreakfast.bots.hint import rank_actions
from kingsbreakfast.bots.last_turns import is_played_out
from kingsbreakfast.bots.master import MasterBot
from kingsbreakfast.engine import State

PLAYERS = (4, 3, 5)


def figures(wall: list[float], cpu: list[float]) -> dict[str, float | int]:
    wall = sorted(wall)
    return {
        "hints": len(wall),
        "wall_median": round(statistics.median(wall), 4),
        "wall_p90": round(wall[int(0.9 * (len(wall) - 1))], 4),
        "wall_max": round(wall[-1], 4),
        "cpu_median": round(statistics.median(cpu), 4),
        "cpu_max": round(max(cpu), 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=900)
    args = parser.parse_args()
    bot = MasterBot()
    timed: dict[str, tuple[list[float], list[float]]] = {
        "played_out": ([], []), "other": ([], []),
    }
    for g in range(args.games):
        rng = random.Random(args.seed * 100_000 + g)
        state = State.new(PLAYERS[g % len(PLAYERS)], rng)
        while not state.is_over:
            view = state.view(state.to_move)
            if len(view.legal_actions()) > 1:
                w0, c0 = time.perf_counter(), time.process_time()
                rank_actions(view)
                wall, cpu = timed["played_out" if is_played_out(view) else "other"]
                wall.append(time.perf_counter() - w0)
                cpu.append(time.process_time() - c0)
            state.apply(bot.act(view, rng))
    print(json.dumps({"games": args.games, "seed": args.seed,
                      **{kind: figures(*pair) for kind, pair in timed.items() if pair[0]}}))


if __name__ == "__main__":
    main()
