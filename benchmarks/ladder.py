"""Strength ladder: each level against the others of the level below, seat-rotated, on two or
more seeds, with 95% Wilson intervals and each seed's share (``strength.py`` plays them).

    python benchmarks/ladder.py --seeds 4242,4243 --games 2000 --players 4 \\
        --out benchmarks/results/ladder
    python benchmarks/ladder.py --rungs expert --games 200 --out benchmarks/results/ladder

Rungs: ``easy`` (vs random), ``medium`` (vs easy), ``hard`` (vs medium), ``expert`` (vs hard),
``master`` (vs expert), and the pairings ``master-hard`` (master vs hard) and ``hard-master``
(one hard among masters). A rung passes when its Wilson interval lies above parity (one
player's share, 1/players). Rungs whose levels play in compiled code (every level but
``expert``) cost seconds; ``expert`` plays on the rules engine at about 0.07 s a move, so its
rungs take hours for thousands of games: give them their own ``--games``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from strength import measure, table_line  # type: ignore[import-not-found]

RUNGS = {
    "easy": ("easy", "random"),
    "medium": ("medium", "easy"),
    "hard": ("hard", "medium"),
    "expert": ("expert", "hard"),
    "master": ("master", "expert"),
    "master-hard": ("master", "hard"),
    "hard-master": ("hard", "master"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rungs", default="easy,medium,hard,master-hard",
                        help=f"comma-separated, of {', '.join(RUNGS)}")
    parser.add_argument("--players", default="4", help="table sizes, comma-separated")
    parser.add_argument("--seeds", default="4242,4243")
    parser.add_argument("--games", type=int, default=2000, help="games per seed and rung")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/ladder"))
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    lines = []
    for n in (int(p) for p in args.players.split(",")):
        for rung in args.rungs.split(","):
            upper, lower = RUNGS[rung]
            row = measure(upper, lower, n, seeds, args.games - args.games % n,
                          args.out / f"{rung}-{n}p.json")
            verdict = "pass" if row["wilson95"][0] > row["parity"] else "not shown"
            lines.append(f"{table_line(row)} {verdict} |")
    print("| pairing | games | win share [Wilson 95%] | per seed | |")
    print("|---|---|---|---|---|")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
