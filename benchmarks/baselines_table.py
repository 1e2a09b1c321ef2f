"""The tables of docs/baselines.md from the curves ``benchmarks/baselines.sh`` wrote: for each
learner and opponent, at each evaluation point, the win share's mean over the seeds and its
spread (lowest and highest seed), beside the learner steps and CPU seconds (their mean).

    python benchmarks/baselines_table.py [benchmarks/results/baselines]
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any


def curves(folder: Path) -> dict[str, list[list[dict[str, Any]]]]:
    """Learner and opponents → one curve (a list of points) per seed."""
    found: dict[str, list[list[dict[str, Any]]]] = defaultdict(list)
    for path in sorted(folder.glob("vector-ppo-*.json")):
        data = json.loads(path.read_text())
        label = {"heuristic": "hard (heuristic)"}.get(data["opponents"], data["opponents"])
        found[f"numpy vector PPO vs 3 × {label}"].append(data["curve"])
    for path in sorted(folder.glob("jax-ppo-*.json")):
        data = json.loads(path.read_text())
        by_seed: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for point in data["curve"]:
            if point["learner_steps"]:
                by_seed[point["seed"]].append(point)
        found["JAX PPO vs 3 × random"] += list(by_seed.values())
    return found


def table(name: str, runs: list[list[dict[str, Any]]]) -> str:
    lines = [f"**{name}** ({len(runs)} seeds)", "",
             "| learner steps | CPU s (mean) | win share, mean | lowest seed | highest seed |",
             "|---|---|---|---|---|"]  # fmt: skip
    for points in zip(*runs, strict=False):
        shares = [p["win_share"] for p in points]
        lines.append(
            f"| {points[0]['learner_steps']:,} | {statistics.mean(p['cpu_s'] for p in points):.0f}"
            f" | {statistics.mean(shares):.1%} | {min(shares):.1%} | {max(shares):.1%} |"
        )
    return "\n".join(lines)


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent / "results"
                  / "baselines")  # fmt: skip
    for name, runs in curves(folder).items():
        print(table(name, runs))
        print()


if __name__ == "__main__":
    main()
