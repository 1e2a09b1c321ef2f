"""The mutation score of each engine module, from the last ``mutmut run`` (docs/testing.md).

Goal: at least 90% of the mutants of every module in ``src/kingsbreakfast/engine`` caught by
the engine's tests. Equivalent mutants (a change no test can observe, because the program
behaves the same) are listed by name with a reason in ``benchmarks/equivalent_mutants.txt``
and left out of the score; they are counted separately so the exclusions stay visible.

    mutmut run --max-children 2            # writes mutants/ (about 5 minutes here)
    python benchmarks/mutation_score.py    # the table, as Markdown
    python benchmarks/mutation_score.py --survivors   # also list each survivor by name
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).parent
EQUIVALENT = HERE / "equivalent_mutants.txt"
CAUGHT = {"killed", "timeout", "caught by type check", "segfault"}
GOAL = 90.0
_LINE = re.compile(r"^\s*(kingsbreakfast\.engine\.(\w+)\.\S+):\s*(.+?)\s*$")


def equivalent_names() -> dict[str, str]:
    """Mutant name → why it is equivalent (``name  # reason`` per line)."""
    names: dict[str, str] = {}
    if EQUIVALENT.exists():
        for line in EQUIVALENT.read_text().splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                name, _, reason = line.partition("#")
                names[name.strip()] = reason.strip()
    return names


def results() -> list[tuple[str, str, str]]:
    """(mutant, module, status) for every mutant of the last run."""
    mutmut = Path(sys.executable).with_name("mutmut")
    out = subprocess.run(
        [str(mutmut), "results", "--all", "true"], capture_output=True, text=True, check=True
    ).stdout
    rows = []
    for line in out.splitlines():
        match = _LINE.match(line)
        if match:
            rows.append((match.group(1), match.group(2), match.group(3)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--survivors", action="store_true", help="list each survivor")
    args = parser.parse_args()
    equivalent = equivalent_names()
    by_module: dict[str, Counter[str]] = defaultdict(Counter)
    survivors: list[str] = []
    for name, module, status in results():
        counts = by_module[module]
        counts["mutants"] += 1
        if name in equivalent:
            counts["equivalent"] += 1
        elif status in CAUGHT:
            counts["caught"] += 1
        else:
            counts["survived"] += 1
            survivors.append(f"{name}: {status}")
    stale = sorted(set(equivalent) - {name for name, _, _ in results()})
    print("| module | mutants | caught | survived | equivalent | score | caught of all |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    total: Counter[str] = Counter()
    missed = []
    for module in sorted(by_module):
        counts = by_module[module]
        total.update(counts)
        judged = counts["mutants"] - counts["equivalent"]
        score = 100.0 * counts["caught"] / judged if judged else 100.0
        if score < GOAL:
            missed.append(module)
        print(
            f"| {module} | {counts['mutants']} | {counts['caught']} | {counts['survived']} "
            f"| {counts['equivalent']} | {score:.1f}% "
            f"| {100.0 * counts['caught'] / counts['mutants']:.1f}% |"
        )
    judged = total["mutants"] - total["equivalent"]
    print(
        f"| **all** | {total['mutants']} | {total['caught']} | {total['survived']} "
        f"| {total['equivalent']} | {100.0 * total['caught'] / max(judged, 1):.1f}% "
        f"| {100.0 * total['caught'] / max(total['mutants'], 1):.1f}% |"
    )
    print()
    print(f"goal {GOAL:.0f}% per module: " + ("met" if not missed else f"missed by {missed}"))
    if stale:
        print(f"equivalent_mutants.txt names {len(stale)} mutants that no longer exist: {stale}")
    if args.survivors:
        print()
        print("\n".join(survivors))


if __name__ == "__main__":
    main()
