"""The tables, data and plot of docs/baselines.md from the curves ``benchmarks/baselines.sh``
wrote: for each learner and opponent, at each evaluation point, the win share's mean over the
seeds, its spread (lowest and highest seed), the pooled games' 95% Wilson interval, the
learner steps and the CPU seconds of training (their mean).

    python benchmarks/baselines_table.py [benchmarks/results/baselines] [--plot docs/baselines.png]

Prints the Markdown tables, writes every point of every seed to ``curves.csv`` in the same
folder, and draws the mean curves with their spread (matplotlib) into ``--plot``.
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

from curves import wilson  # type: ignore[import-not-found]

Curves = dict[tuple[str, str], list[list[dict[str, Any]]]]
LEARNERS = {"maskable-ppo": "MaskablePPO (sb3-contrib, Gymnasium)",
            "vector-ppo": "numpy vector PPO", "jax-ppo": "JAX PPO"}  # fmt: skip
OPPONENTS = {"random": "random", "hard": "hard", "heuristic": "hard"}


def curves(folder: Path) -> Curves:
    """(learner, opponents) → one curve (a list of points, fewest steps first) per seed."""
    found: Curves = defaultdict(list)
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text())
        if "curve" not in data:
            continue
        learner = next((k for k in LEARNERS if path.name.startswith(k)), None)
        if learner is None:
            continue
        opponents = OPPONENTS[data.get("opponents", "random")]
        by_seed: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for point in data["curve"]:
            by_seed[point["seed"]].append(point)
        if "final" in data:  # the numpy learner's separate final evaluation, at its last step
            last = by_seed[data["seed"]][-1]
            by_seed[data["seed"]].append({**data["final"], "seed": data["seed"], "final": True,
                                          "learner_steps": last["learner_steps"],
                                          "cpu_s": last["cpu_s"]})  # fmt: skip
        if data.get("complete"):  # MaskablePPO's last point is its larger final evaluation
            by_seed[data["seed"]][-1]["final"] = True
        for points in by_seed.values():
            found[(learner, opponents)].append(points)
    return found


def summary(points: tuple[dict[str, Any], ...]) -> dict[str, Any]:
    """One step of a curve over its seeds: mean, spread, pooled games and their interval."""
    shares = [p["win_share"] for p in points]
    games = sum(p.get("games", 0) for p in points)
    pooled = sum(p["win_share"] * p.get("games", 0) for p in points) / games if games else None
    low, high = wilson(pooled, games) if pooled is not None else (None, None)
    return {"learner_steps": points[0]["learner_steps"], "final": bool(points[0].get("final")),
            "cpu_s": statistics.mean(p["cpu_s"] for p in points), "mean": statistics.mean(shares),
            "lowest": min(shares), "highest": max(shares), "games": games, "pooled": pooled,
            "low": low, "high": high}  # fmt: skip


def table(name: str, runs: list[list[dict[str, Any]]]) -> str:
    lines = [f"**{name}** ({len(runs)} seeds: {', '.join(str(r[0]['seed']) for r in runs)})", "",
             "| learner steps | CPU s (mean) | win share, mean of seeds | lowest seed "
             "| highest seed | games (all seeds) | pooled, 95% Wilson |",
             "|---|---|---|---|---|---|---|"]  # fmt: skip
    for points in zip(*runs, strict=False):  # a seed stopped early shortens the table
        s = summary(points)
        steps = f"{s['learner_steps']:,}" + (" (final evaluation)" if s["final"] else "")
        interval = (
            "—" if s["pooled"] is None else (f"{s['pooled']:.1%} [{s['low']:.1%}–{s['high']:.1%}]")
        )
        games = f"{s['games']:,}" if s["games"] else "—"
        lines.append(f"| {steps} | {s['cpu_s']:.0f} | {s['mean']:.1%} | {s['lowest']:.1%} "
                     f"| {s['highest']:.1%} | {games} | {interval} |")  # fmt: skip
    return "\n".join(lines)


def write_csv(found: Curves, path: Path) -> None:
    fields = ["learner", "opponents", "seed", "learner_steps", "cpu_s", "win_share", "low",
              "high", "games", "final"]  # fmt: skip
    with path.open("w", newline="") as out:
        writer = csv.DictWriter(out, fields, extrasaction="ignore")
        writer.writeheader()
        for (learner, opponents), runs in found.items():
            for points in runs:
                for p in points:
                    writer.writerow({**p, "learner": learner, "opponents": opponents,
                                     "final": bool(p.get("final"))})  # fmt: skip


def plot(found: Curves, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=False)
    for axis, opponents in zip(axes, ("random", "hard"), strict=True):
        for learner, label in LEARNERS.items():
            runs = found.get((learner, opponents))
            if not runs:
                continue
            rows = [summary(points) for points in zip(*runs, strict=False)]
            # a separate final evaluation at the last curve point's steps is drawn once
            rows = [r for before, r in zip([None, *rows], rows, strict=False)
                    if not (r["final"] and before
                            and before["learner_steps"] == r["learner_steps"])]  # fmt: skip
            steps = [max(r["learner_steps"], 1) for r in rows]
            axis.plot(steps, [100 * r["mean"] for r in rows], marker="o", label=label)
            axis.fill_between(steps, [100 * r["lowest"] for r in rows],
                              [100 * r["highest"] for r in rows], alpha=0.25)  # fmt: skip
        axis.axhline(25, color="grey", linestyle="--", linewidth=1, label="parity (1 in 4)")
        axis.set_xscale("symlog", linthresh=10_000)
        axis.set_xlim(left=0)
        axis.set_ylim(bottom=0)
        axis.set_xlabel("learner steps (linear below 10,000, logarithmic above)")
        axis.set_ylabel("learner's win share, %")
        axis.set_title(f"against 3 × {opponents}")
        axis.grid(alpha=0.3)
        axis.legend(fontsize=8)
    figure.suptitle("line: mean over the seeds; band: lowest to highest seed", fontsize=9)
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def main() -> None:
    here = Path(__file__).parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=here / "results" / "baselines")
    parser.add_argument("--plot", type=Path, default=here.parent / "docs" / "baselines.png")
    args = parser.parse_args()
    found = curves(args.folder)
    for (learner, opponents), runs in found.items():
        print(table(f"{LEARNERS[learner]} vs 3 × {opponents}", runs))
        print()
    write_csv(found, args.folder / "curves.csv")
    plot(found, args.plot)


if __name__ == "__main__":
    main()
