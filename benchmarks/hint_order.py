"""What the hint's order changes: its first move against the first move of the old order.

    .venv/bin/python benchmarks/hint_order.py --seeds 4242,4243 --games 260

The positions are those of ``hint_calibration.py`` (the same games of master bots, the same
two moments a game). The old order sorted by the network's win share, then points; the new
one sorts by the expected result then points (``bots/hint.utility``). Where their first moves
differ, both are played out ``--playouts`` times by master bots from the same deals of what
the mover cannot see, and the mover's mean final points (R11) and share of the win (R12) are
compared, with the mean R12 place (1 = first; a shared place counts as shared).
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

from kingsbreakfast.bots.hint import rank_actions
from kingsbreakfast.bots.master import MasterBot, action_values
from kingsbreakfast.engine import sample_world


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", default="4242,4243")
    parser.add_argument("--games", type=int, default=260)
    parser.add_argument("--playouts", type=int, default=4)
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    if {0, 1} & set(seeds):
        parser.error("use seeds other than 0 and 1")
    bot = MasterBot()
    total = differ = 0
    sums = {"old": [0.0, 0.0, 0.0], "new": [0.0, 0.0, 0.0]}
    runs = 0
    for seed in seeds:
        for g in range(args.games):
            for at, view, _ in positions(seed, g, bot)[2]:
                total += 1
                mover = view.to_move
                assert mover is not None
                valued = action_values(view, bot.weights)
                old = max(valued, key=lambda v: (min(1.0, max(0.0, v[1])), max(0.0, v[2])))[0]
                new = rank_actions(view)[0].action
                if old == new:
                    continue
                differ += 1
                for k in range(args.playouts):
                    for name, action in (("old", old), ("new", new)):
                        deal = random.Random(seed * 10**7 + g * 100 + at * 7 + k)
                        world = sample_world(view, deal)
                        world.apply(action)
                        play_out(world, bot, random.Random(k))
                        points, win = outcome(world, mover)
                        place = world.score().places[mover]
                        s = sums[name]
                        s[0] += points
                        s[1] += win
                        s[2] += place
                    runs += 1
            if (g + 1) % 50 == 0:
                print(f"seed {seed}: {g + 1} games, {differ}/{total} differ", file=sys.stderr,
                      flush=True)
    print(json.dumps({
        "positions": total, "first_move_differs": differ, "playouts_each": args.playouts,
        **{f"{name}_{what}": round(s[i] / max(runs, 1), 4)
           for name, s in sums.items() for i, what in enumerate(("points", "win", "place"))},
    }, indent=1))


if __name__ == "__main__":
    main()
