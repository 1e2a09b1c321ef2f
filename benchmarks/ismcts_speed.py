"""ISMCTS speed: simulations per second on one core from mid-game positions, and per-move
latency at the expert budget.

    .venv/bin/python benchmarks/ismcts_speed.py --repeats 5

A simulation is one determinization (``sample_world``), one descent of the tree with one
expansion, a rollout (``--rollout-rounds``: 0 = none, the position is scored by the
card-counting evaluation; k = k rounds of uniform play then the evaluation; -1 = uniform play
to the end of the game, scored exactly) and one backup. Timings are best-of ``--repeats``
because the machine is shared.
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
    parser.add_argument("--latency-moves", type=int, default=20)
    args = parser.parse_args()
    views = mid_game_views(args.positions, 4, 7)
    for rollout in args.rollout_rounds:
        bot = IsmctsBot(
            simulations=args.simulations, rollout_rounds=None if rollout < 0 else rollout
        )
        best = []
        for view in views:
            rates = []
            for r in range(args.repeats):
                start = time.perf_counter()
                bot.search(view, random.Random(r))
                rates.append(args.simulations / (time.perf_counter() - start))
            best.append(max(rates))
        print(json.dumps({
            "measure": "simulations_per_second", "rollout_rounds": rollout,
            "positions": len(views), "best_of": args.repeats,
            "median_over_positions": round(statistics.median(best)),
            "min": round(min(best)), "max": round(max(best)),
        }), flush=True)
    expert = make_bot("expert")
    latencies = []
    rng = random.Random(3)
    lat_views = mid_game_views(args.latency_moves, 4, 11)
    for view in lat_views:
        best_time = float("inf")
        for r in range(min(3, args.repeats)):
            start = time.perf_counter()
            expert.act(view, random.Random(r))
            best_time = min(best_time, time.perf_counter() - start)
        latencies.append(best_time)
    latencies.sort()
    print(json.dumps({
        "measure": "expert_move_latency_seconds", "moves": len(latencies),
        "median": round(statistics.median(latencies), 3),
        "p90": round(latencies[int(0.9 * (len(latencies) - 1))], 3),
        "max": round(latencies[-1], 3), "rng": rng.random() >= 0,
    }), flush=True)


if __name__ == "__main__":
    main()
