"""Combine a ladder rung measured in several processes (``ladder.py --first``) into one figure.

    .venv/bin/python benchmarks/combine_segments.py LOG [LOG ...]

Each log's last progress line gives its games' win share and 95% interval. The segments hold
different decks (disjoint seat-rotation blocks), so they are independent: the combined share is
their game-weighted mean and its standard error the weighted root-sum-square of theirs.
"""

from __future__ import annotations

import json
import math
import sys


def last_progress(path: str) -> dict[str, object]:
    with open(path) as handle:
        rows = [json.loads(line) for line in handle if '"games_so_far"' in line]
    if not rows:
        raise SystemExit(f"{path}: no progress line")
    return rows[-1]


def main() -> None:
    parts = [last_progress(path) for path in sys.argv[1:]]
    total = sum(int(p["games_so_far"]) for p in parts)  # type: ignore[call-overload]
    mean = 0.0
    variance = 0.0
    for part in parts:
        weight = int(part["games_so_far"]) / total  # type: ignore[call-overload]
        low, high = part["ci95"]  # type: ignore[misc]
        se = (high - low) / (2 * 1.959964)
        mean += weight * float(part["win_share"])  # type: ignore[arg-type]
        variance += (weight * se) ** 2
    se = math.sqrt(variance)
    print(json.dumps({
        "segments": [{"first_game": p.get("first_game", 0), "games": p["games_so_far"],
                      "win_share": p["win_share"], "ci95": p["ci95"]} for p in parts],
        "games": total, "win_share": round(mean, 4),
        "ci95": [round(mean - 1.959964 * se, 4), round(mean + 1.959964 * se, 4)],
    }))


if __name__ == "__main__":
    main()
