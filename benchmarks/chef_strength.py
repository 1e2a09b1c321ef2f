"""The chef level's strength: win shares of one chef against the others, from the compiled
search (compiled/search.py, the very search the chef bot runs), seat-rotated.

    nice -n 10 .venv/bin/python benchmarks/chef_strength.py --decks 1000 --seeds 4242 4243 \
        --opponents hard master

Each seed deals ``--decks`` decks; each deck is played once with the chef in each seat, so a
seed gives ``decks x players`` games. Printed per seed and combined: the chef's win share
(R12, a shared win counted in part) with its Wilson 95% interval, the searches run and the
compiled search's mean time per search. ``--variant NAME=candidates,worlds,depth[,prior]``
(more than once) plays each variant on the same decks in turn, for paired comparisons.
"""

from __future__ import annotations

import argparse
import json
import math
import time

from kingsbreakfast.bots.chef import SearchBudget
from kingsbreakfast.compiled import search as kernel
from kingsbreakfast.sim.chef_evaluation import evaluate

OPPONENTS = {"hard": kernel.SEAT_COUNTER, "master": kernel.SEAT_MASTER}
Z = 1.959963984540054


def wilson(wins: float, games: int) -> tuple[float, float]:
    """Wilson's 95% interval for a share of ``wins`` in ``games``."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + Z * Z / (2 * games)) / (1 + Z * Z / games)
    half = Z * math.sqrt(p * (1 - p) / games + Z * Z / (4 * games * games)) / (1 + Z * Z / games)
    return centre - half, centre + half


def share_line(wins: float, games: int) -> dict[str, float | int]:
    low, high = wilson(wins, games)
    return {"games": games, "share": round(wins / games, 4), "low": round(low, 4),
            "high": round(high, 4)}


def parse_variant(text: str) -> tuple[str, SearchBudget]:
    name, _, numbers = text.partition("=")
    parts = numbers.split(",")
    candidates, worlds, depth = (int(x) for x in parts[:3])
    prior = float(parts[3]) if len(parts) > 3 else 0.0
    return name, SearchBudget(candidates, worlds, depth, prior)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--decks", type=int, default=500, help="decks a seed (games: x players)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[4242, 4243])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--opponents", nargs="+", default=["hard", "master"],
                        choices=sorted(OPPONENTS))
    parser.add_argument("--variant", action="append", default=[],
                        help="NAME=candidates,worlds,depth[,prior_weight] (default: the shipped "
                        "level)")
    args = parser.parse_args()
    variants = [parse_variant(v) for v in args.variant] or [("chef", SearchBudget())]
    for opponent in args.opponents:
        for name, budget in variants:
            per_seed = {}
            wins = 0.0
            games = 0
            seconds = 0.0
            searches = 0
            for seed in args.seeds:
                start = time.perf_counter()
                result = evaluate(args.decks, args.players, OPPONENTS[opponent], seed, budget)
                seconds += time.perf_counter() - start
                shares = result.chef_shares()
                searches += result.searches
                per_seed[seed] = share_line(float(shares.sum()), len(shares))
                wins += float(shares.sum())
                games += len(shares)
            print(json.dumps({
                "variant": name, "candidates": budget.candidates, "worlds": budget.worlds,
                "depth": budget.depth, "prior_weight": budget.prior_weight,
                "players": args.players, "opponents": opponent,
                "combined": share_line(wins, games), "per_seed": per_seed,
                "searches": searches, "seconds": round(seconds, 1),
                "ms_per_search": round(1000 * seconds / max(1, searches), 2),
            }), flush=True)


if __name__ == "__main__":
    main()
