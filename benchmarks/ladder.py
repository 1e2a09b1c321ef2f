"""Strength ladder: each level against three of the level below, seat-rotated, 4 players.

    .venv/bin/python benchmarks/ladder.py --games 2000 --workers 1 --out benchmarks/results

A rung passes when the upper level's win share has its 95% confidence interval above 25%
(parity for 1 against 3). ISMCTS budgets are options so that the ladder fits the machine:
``--expert expert:simulations=...``; the budgets used are
written into the results.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from kingsbreakfast.sim import TournamentConfig, parse_lineup
from kingsbreakfast.sim.report import build_report, write_csv, write_json
from kingsbreakfast.sim.stats import summarize_bots
from kingsbreakfast.sim.tournament import play_chunk

SEGMENT = 100
"""Games between progress lines (a multiple of 4: whole seat rotations)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--segment", type=int, default=SEGMENT,
                        help="games between progress lines (a multiple of 4)")
    parser.add_argument("--first", type=int, default=0,
                        help="first game number (a multiple of 4), to split a rung between "
                        "processes; the games are the same as in one long run")
    parser.add_argument("--random", default="random")
    parser.add_argument("--easy", default="easy")
    parser.add_argument("--medium", default="medium")
    parser.add_argument("--hard", default="hard")
    parser.add_argument("--expert", default="expert")
    parser.add_argument("--master", default="master")
    parser.add_argument("--rungs", default="easy,medium,hard,expert,master",
                        help="upper levels to measure, comma-separated")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    below = {"easy": args.random, "medium": args.easy, "hard": args.medium,
             "expert": args.hard, "master": args.expert}
    upper = {"easy": args.easy, "medium": args.medium, "hard": args.hard,
             "expert": args.expert, "master": args.master}
    for rung in args.rungs.split(","):
        lineup = parse_lineup(f"{upper[rung]},{below[rung]}*3", 4)
        config = TournamentConfig(lineup, args.games, args.seed)
        start = time.perf_counter()
        games = []
        end = args.first + args.games
        for first in range(args.first, end, args.segment):
            games.extend(play_chunk(config, first, min(end, first + args.segment)))
            partial = TournamentConfig(lineup, len(games), args.seed)
            share = summarize_bots(partial, games)[0].win_share
            print(json.dumps({"rung": rung, "first_game": args.first,
                              "games_so_far": len(games),
                              "win_share": round(share.mean, 4),
                              "ci95": [round(share.low, 4), round(share.high, 4)],
                              "seconds": round(time.perf_counter() - start, 1)}), flush=True)
        elapsed = time.perf_counter() - start
        report = build_report(config, games)
        report["elapsed_seconds"] = elapsed
        suffix = f"-from{args.first}" if args.first else ""
        write_json(report, args.out / f"ladder-{rung}{suffix}.json")
        write_csv(report, args.out / f"ladder-{rung}{suffix}.csv")
        top = report["bots"][0]
        share = top["win_share"]
        verdict = "PASS" if share["low"] > 0.25 else "not shown"
        print(json.dumps({
            "rung": f"{lineup[0].label} vs 3x {lineup[1].label}",
            "games": args.games, "win_share": round(share["mean"], 4),
            "ci95": [round(share["low"], 4), round(share["high"], 4)],
            "verdict": verdict, "seconds": round(elapsed, 1),
        }), flush=True)


if __name__ == "__main__":
    main()
