"""What the hint's order changes: its first move against the first move of the old order.

    .venv/bin/python benchmarks/hint_order.py --seeds 4242,4243 --games 260

The positions are those of ``hint_calibration.py`` (the same games of master bots, the same
two moments a game). The old order sorted by the network's raw win share, then points; the
new one sorts the hint's rows (exact or calibrated) by ``win_chance + worth * points``
(``bots/hint.utility`` with ``worth`` = ``POINT_WORTH``), here for each ``--worth`` asked.
Where a first move differs from the old one, both are played out ``--playouts`` times by
master bots from the same deals of what the mover cannot see, and the mover's mean final
points (R11), share of the win (R12) and R12 place (1 = first) are compared.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from hint_calibration import outcome, play_out, positions  # type: ignore[import-not-found]

from kingsbreakfast.bots.hint import POINT_WORTH, rank_actions
from kingsbreakfast.bots.master import MasterBot, action_values
from kingsbreakfast.engine import Action, View, sample_world


def results(
    view: View, action: Action, key: int, playouts: int, bot: MasterBot
) -> list[float]:
    """Sum of (points, win share, place) over the playouts of ``action``."""
    mover = view.to_move
    assert mover is not None
    total = [0.0, 0.0, 0.0]
    for k in range(playouts):
        world = sample_world(view, random.Random(key * 100 + k))
        world.apply(action)
        play_out(world, bot, random.Random(k))
        points, win = outcome(world, mover)
        total[0] += points
        total[1] += win
        total[2] += world.score().places[mover]
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", default="4242,4243")
    parser.add_argument("--games", type=int, default=260)
    parser.add_argument("--playouts", type=int, default=4)
    parser.add_argument("--worth", default=f"{POINT_WORTH},0.0003,0.0001,0")
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    worths = [float(w) for w in args.worth.split(",")]
    if {0, 1} & set(seeds):
        parser.error("use seeds other than 0 and 1")
    bot = MasterBot()
    total = 0
    tally = {w: {"differ": 0, "old": [0.0, 0.0, 0.0], "new": [0.0, 0.0, 0.0]} for w in worths}
    for seed in seeds:
        for g in range(args.games):
            for at, view, _ in positions(seed, g, bot)[2]:
                total += 1
                valued = action_values(view, bot.weights)
                old = max(valued, key=lambda v: (min(1.0, max(0.0, v[1])), max(0.0, v[2])))[0]
                rows = rank_actions(view)
                cache: dict[Action, list[float]] = {}
                key = seed * 10**6 + g * 1000 + at
                for worth in worths:
                    new = max(rows, key=lambda e, w=worth: e.win_chance + w * e.expected_points)
                    if new.action == old:
                        continue
                    for action in (old, new.action):
                        if action not in cache:
                            cache[action] = results(view, action, key, args.playouts, bot)
                    entry = tally[worth]
                    entry["differ"] += 1  # type: ignore[operator]
                    for name, action in (("old", old), ("new", new.action)):
                        sums = entry[name]
                        assert isinstance(sums, list)
                        for i in range(3):
                            sums[i] += cache[action][i]
            if (g + 1) % 50 == 0:
                print(f"seed {seed}: {g + 1} games", file=sys.stderr, flush=True)
    out = {"positions": total, "playouts_each": args.playouts}
    for worth, entry in tally.items():
        runs = max(1, int(entry["differ"]) * args.playouts)  # type: ignore[call-overload]
        out[f"worth {worth}"] = {
            "first_move_differs": entry["differ"],
            **{f"{name}_{what}": round(entry[name][i] / runs, 4)  # type: ignore[index]
               for name in ("old", "new") for i, what in enumerate(("points", "win", "place"))},
        }
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
