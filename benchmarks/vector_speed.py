"""How many agent steps per second the vectorized environment takes, beside the C playout.

Goal: C playout decisions/s ÷ vector environment agent steps/s ≤ 10, on one core, with
B = 4,096 games of 4 players, observations and masks written at every step.

An agent step is one action chosen by the caller for one game, with everything the
environment does in answer: the built-in seats' moves (when any), the auto-reset of
finished games, the mover's 98-number view tensor and its 38-entry legal mask. Three tables
are timed: ``self-play`` (the caller plays all four seats), ``vs random`` (the caller
plays seat 0, three built-in random seats) and ``vs heuristic`` (three built-in card
counters, the ``hard`` level, as opponents; no goal is set for it). The caller's choice
here is the lowest legal action (one ``argmax`` over the masks, timed with the steps): a
learner's network costs more, but that is the learner's time, not the environment's.

    python benchmarks/vector_speed.py [--games 4096] [--steps 400] [--repeats 3]

The C playout (``c_playout/playout.c``) is built and timed by ``engine_speed.run_c``, in the
same run, by CPU time; its decisions per second are its actions per second. Prints
``N steps/s`` per table and the ratio C ÷ vector.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine_speed import run_c

from kingsbreakfast.sim.vector import VectorGames


def steps_per_second(
    games: int, players: int, seats: list[str], steps: int, repeats: int
) -> float:
    """Best agent steps per CPU second over ``repeats`` runs of ``steps`` calls."""
    table = VectorGames(games, players, seats)
    table.reset(seed=0)
    table.step(np.argmax(table.masks, axis=1))  # compile or load the kernel first
    best = 0.0
    for repeat in range(repeats):
        table.reset(seed=repeat + 1)
        start = time.process_time()
        masks = table.masks
        for _ in range(steps):
            table.step(np.argmax(masks, axis=1))
        cpu = time.process_time() - start
        best = max(best, games * steps / max(cpu, 1e-9))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4096)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--steps", type=int, default=400, help="calls of step per run")
    parser.add_argument("--repeats", type=int, default=3, help="report the best of this many")
    parser.add_argument("--c-games", type=int, default=500_000)
    args = parser.parse_args()
    tables = {
        "self-play": ["caller"] * args.players,
        "vs random": ["caller"] + ["random"] * (args.players - 1),
        "vs heuristic": ["caller"] + ["heuristic"] * (args.players - 1),
    }
    rates = {}
    for label, seats in tables.items():
        rate = steps_per_second(args.games, args.players, seats, args.steps, args.repeats)
        rates[label] = rate
        print(
            f"vector env {label:12} B={args.games}, {args.players} players: "
            f"{rate:,.0f} steps/s (CPU time, best of {args.repeats})"
        )
    measured = run_c(args.c_games, args.players, 1, args.repeats)
    if measured is None:
        return
    cpu, per_game = measured
    decisions = args.c_games * per_game / cpu
    print(
        f"C playout (cc -O2), {args.c_games} games of {args.players} players: "
        f"{decisions:,.0f} decisions/s of CPU time"
    )
    for label, rate in rates.items():
        goal = "no goal: the opponents think" if label == "vs heuristic" else "goal: at most 10"
        print(f"C ÷ vector env ({label}): {decisions / rate:.2f} ({goal})")


if __name__ == "__main__":
    main()
