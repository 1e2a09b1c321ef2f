"""ISMCTS speed: simulations per second on one core from mid-game positions, and per-move
latency at the expert budget.

    .venv/bin/python benchmarks/ismcts_speed.py --repeats 5

A simulation is one determinization (``sample_world``; with ``--world-reuse k`` one dealt
world serves k simulations, each on its own copy), one descent of the tree with one
expansion, a rollout (``--rollout-rounds``: 0 = none, the position is scored by the
card-counting evaluation; k = k rounds of uniform play then the evaluation; -1 = uniform play
to the end of the game, scored exactly) and one backup. Timings are best-of ``--repeats``
because the machine is shared. Each figure is given twice: per wall-clock second, and per
second of CPU time of this process (``time.process_time``), which is what one core delivers
when other programs share the machine.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from kingsbreakfast.bots import IsmctsBot, make_bot
from kingsbreakfast.engine import State, View


def mid_game_views(count: int, players: int, seed: int) -> list[View]:
    """Positions about a third of the way into a game, played by the random bot."""
    rng = random.Random(seed)
    views = []
    while len(views) < count:
        state = State.new(players, rng)
        for _ in range(18 * players // 4 * 1 + 10):
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        if not state.is_over and len(state.legal_actions()) > 1:
            views.append(state.view(state.to_move))
    return views


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--simulations", type=int, default=5000)
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rollout-rounds", type=int, nargs="*", default=[0, 1, -1])
    parser.add_argument("--world-reuse", type=int, nargs="*", default=[1, 4],
                        help="simulations per dealt world (1: a fresh determinization each)")
    parser.add_argument("--latency-moves", type=int, default=20)
    args = parser.parse_args()
    views = mid_game_views(args.positions, 4, 7)
    settings = [(r, 1) for r in args.rollout_rounds] + [
        (0, k) for k in args.world_reuse if k != 1
    ]
    for rollout, reuse in settings:
        bot = IsmctsBot(
            simulations=args.simulations, rollout_rounds=None if rollout < 0 else rollout,
            world_reuse=reuse,
        )
        best = []
        best_cpu = []
        for view in views:
            rates = []
            cpu_rates = []
            for r in range(args.repeats):
                start = time.perf_counter()
                cpu = time.process_time()
                bot.search(view, random.Random(r))
                rates.append(args.simulations / (time.perf_counter() - start))
                cpu_rates.append(args.simulations / max(1e-9, time.process_time() - cpu))
            best.append(max(rates))
            best_cpu.append(max(cpu_rates))
        print(json.dumps({
            "measure": "simulations_per_second", "rollout_rounds": rollout,
            "world_reuse": reuse,
            "positions": len(views), "best_of": args.repeats,
            "wall_median_over_positions": round(statistics.median(best)),
            "wall_min": round(min(best)), "wall_max": round(max(best)),
            "cpu_median_over_positions": round(statistics.median(best_cpu)),
            "cpu_min": round(min(best_cpu)), "cpu_max": round(max(best_cpu)),
        }), flush=True)
    expert = make_bot("expert")
    latencies = []
    cpu_latencies = []
    for view in mid_game_views(args.latency_moves, 4, 11):
        best_time = best_cpu_time = float("inf")
        for r in range(min(3, args.repeats)):
            start = time.perf_counter()
            cpu = time.process_time()
            expert.act(view, random.Random(r))
            best_time = min(best_time, time.perf_counter() - start)
            best_cpu_time = min(best_cpu_time, time.process_time() - cpu)
        latencies.append(best_time)
        cpu_latencies.append(best_cpu_time)
    for label, values in (("wall", sorted(latencies)), ("cpu", sorted(cpu_latencies))):
        print(json.dumps({
            "measure": f"expert_move_latency_seconds_{label}", "moves": len(values),
            "expert_simulations": getattr(expert, "simulations", None),
            "median": round(statistics.median(values), 3),
            "p90": round(values[int(0.9 * (len(values) - 1))], 3),
            "max": round(values[-1], 3),
        }), flush=True)


if __name__ == "__main__":
    main()
