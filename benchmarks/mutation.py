"""Mutation score of a chosen set of modules beyond the engine, each with its own tests.

``[tool.mutmut]`` in pyproject.toml stays the engine's run (``benchmarks/mutation_score.py``).
This script runs mutmut on another set of modules in a scratch copy of the project, where it
rewrites only that copy's ``[tool.mutmut]``: which files to mutate and which tests to run
against them (the tests that cover them, nothing else: a mutant costs one run of them).
Then it prints the score of each module, Markdown, as mutation_score.py does: caught /
(mutants - equivalent), with the equivalent mutants named with a reason in
``benchmarks/equivalent_mutants_beyond_engine.txt``.

    python benchmarks/mutation.py settled last_turns # bots/settled.py, bots/last_turns.py
    python benchmarks/mutation.py lesson review      # several sets, one after the other
    python benchmarks/mutation.py lesson --survivors # and name each survivor
    python benchmarks/mutation.py --list             # the sets

Each survivor is run once more in a fresh process (:func:`recheck`), which catches the
mutants of code that runs at import.

The scratch copy is kept in ``mutants-beyond/SET`` (git ignores it); each run starts mutmut
afresh there (its cached verdicts would not see new tests), and ``--report-only`` prints the
last run's table again.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "benchmarks"
EQUIVALENT = HERE / "equivalent_mutants_beyond_engine.txt"
CAUGHT = {"killed", "timeout", "caught by type check", "segfault"}
GOAL = 90.0
COPIED = ("src", "tests", "examples", "babel.cfg", "README.md")

SETS: dict[str, tuple[list[str], list[str]]] = {
    "settled": (
        ["src/kingsbreakfast/bots/settled.py"],
        ["tests/bots/test_settled.py", "tests/bots/test_settled_known.py",
         "tests/bots/test_settled_bounds.py"],
    ),
    "last_turns": (
        ["src/kingsbreakfast/bots/last_turns.py"],
        ["tests/bots/test_last_turns.py", "tests/bots/test_last_turns_known.py"],
    ),
    "last_turns_quick": (
        ["src/kingsbreakfast/bots/last_turns.py"],
        ["tests/bots/test_last_turns_known.py",
         "tests/bots/test_last_turns.py::test_only_the_last_turns_of_the_last_round_are_played_out",
         "tests/bots/test_last_turns.py::test_many_choices_get_fewer_worlds_but_never_too_few",
         "tests/bots/test_last_turns.py::test_the_hint_shows_the_played_out_numbers_where_nothing_is_settled",
         "tests/bots/test_last_turns.py::test_worlds_that_differ_only_in_the_deck_s_order_are_played_each"],
    ),
    "lesson": (
        ["src/kingsbreakfast/lesson/*"],
        ["tests/lesson"],
    ),
    "review": (
        ["src/kingsbreakfast/server/routes/review.py"],
        ["tests/server/test_server_review.py", "tests/server/test_server_review_route.py"],
    ),
    "rating_rules": (
        ["src/kingsbreakfast/server/rating_rules.py"],
        ["tests/server/test_rating_rules.py", "tests/server/test_rating_rules_edges.py",
         "tests/server/test_people.py::test_a_friendly_challenge_is_not_rated"],
    ),
}
"""Set name -> (files mutmut mutates, the tests run against each mutant).

``last_turns_quick`` leaves out last_turns' three properties that play out hundreds of
positions (minutes for each surviving mutant on two shared cores): its score is a lower
bound of the ``last_turns`` set's. ``rating_rules`` is :mod:`kingsbreakfast.server.rating_rules`,
the pure rules (which games count, the leaver's place, the provisional swing), without the
storage around them in ``ratings.py``."""

_RESULT = re.compile(r"^\s*(kingsbreakfast\.[\w.]+?\.x\S*__mutmut_\d+):\s*(.+?)\s*$")


def equivalent_names() -> dict[str, str]:
    names: dict[str, str] = {}
    if EQUIVALENT.exists():
        for line in EQUIVALENT.read_text().splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                name, _, reason = line.partition("#")
                names[name.strip()] = reason.strip()
    return names


def _toml_list(items: list[str]) -> str:
    return "[" + ", ".join(f'"{item}"' for item in items) + "]"


def prepare(name: str, timeout_multiplier: float, timeout_constant: float) -> Path:
    """The scratch copy for set ``name``, its ``[tool.mutmut]`` set to mutate the set's
    files and run the set's tests (the rest of pyproject.toml as it is). A mutant's tests
    get ``timeout_multiplier`` times their unmutated time plus ``timeout_constant`` seconds
    (mutmut doubles it again, as CPU time): a mutant that loops for ever is a timeout,
    caught, within minutes. The constant keeps a loaded machine's slow but finished runs
    from being counted as timeouts (mutmut's wall-clock limit is the same product)."""
    mutate, tests = SETS[name]
    work = ROOT / "mutants-beyond" / name
    work.mkdir(parents=True, exist_ok=True)
    for part in COPIED:
        source, target = ROOT / part, work / part
        if source.is_dir():
            shutil.copytree(source, target, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("__pycache__", ".hypothesis"))
        elif source.exists():
            shutil.copy2(source, target)
    text = (ROOT / "pyproject.toml").read_text()
    start = text.index("[tool.mutmut]")
    end = text.index("\n[", start + 1)
    section = (
        "[tool.mutmut]\n"
        'source_paths = ["src/"]\n'
        f"only_mutate = {_toml_list(mutate)}\n"
        'pytest_add_cli_args = ["--hypothesis-profile=mutation", "-p", "no:cacheprovider"]\n'
        f"pytest_add_cli_args_test_selection = {_toml_list(tests)}\n"
        f"timeout_multiplier = {timeout_multiplier}\n"
        f"timeout_constant = {timeout_constant}\n"
    )
    (work / "pyproject.toml").write_text(text[:start] + section + text[end:])
    return work


def run(work: Path, children: int) -> None:
    mutmut = Path(sys.executable).with_name("mutmut")
    shutil.rmtree(work / "mutants", ignore_errors=True)  # verdicts of other tests are stale
    mutated = work / "mutants" / "src"
    mutated.mkdir(parents=True, exist_ok=True)  # there before Python starts: on its path
    env = {**os.environ, "PYTHONPATH": str(mutated)}
    # a server process a test starts imports the mutated code too
    subprocess.run([str(mutmut), "run", "--max-children", str(children)], cwd=work, env=env,
                   check=False)


def results(work: Path) -> list[tuple[str, str, str]]:
    """(mutant, module, status) of every mutant of the set's last run."""
    mutmut = Path(sys.executable).with_name("mutmut")
    out = subprocess.run([str(mutmut), "results", "--all", "true"], cwd=work,
                         capture_output=True, text=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        match = _RESULT.match(line)
        if match:
            mutant = match.group(1)
            module = ".".join(mutant.split(".")[:-1]).removeprefix("kingsbreakfast.")
            rows.append((mutant, module, match.group(2)))
    return rows


def recheck(work: Path, name: str, rows: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """Each survivor run again in a fresh process. mutmut forks its test runs from a process
    that has imported the project unmutated, so a mutant of code that runs at import (the
    lesson's steps and rounds are built there) is never active in them; a fresh process
    imports the project under the mutant. A survivor its tests now fail on is caught."""
    tests = SETS[name][1]
    env = {**os.environ, "PYTHONPATH": str(work / "mutants" / "src")}
    checked = []
    for mutant, module, status in rows:
        if status == "survived":
            run_again = subprocess.run(
                [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                 "--hypothesis-profile=mutation", *tests],
                cwd=work / "mutants", env={**env, "MUTANT_UNDER_TEST": mutant},
                capture_output=True, check=False,
            )
            if run_again.returncode not in (0, 5):
                status = "killed"
        checked.append((mutant, module, status))
    return checked


def table(rows: list[tuple[str, str, str]], survivors: bool) -> bool:
    """Print the scores; True when every module meets the goal."""
    equivalent = equivalent_names()
    by_module: dict[str, Counter[str]] = defaultdict(Counter)
    left: list[str] = []
    for name, module, status in rows:
        counts = by_module[module]
        counts["mutants"] += 1
        if name in equivalent:
            counts["equivalent"] += 1
        elif status in CAUGHT:
            counts["caught"] += 1
            counts["timed out" if status == "timeout" else "killed"] += 1
        else:
            counts["survived"] += 1
            left.append(f"{name}: {status}")
    print("| module | mutants | killed | timed out | survived | equivalent | score |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    met = True
    for module in sorted(by_module):
        counts = by_module[module]
        judged = counts["mutants"] - counts["equivalent"]
        score = 100.0 * counts["caught"] / judged if judged else 100.0
        met &= score >= GOAL
        print(f"| {module} | {counts['mutants']} | {counts['killed']} | {counts['timed out']} "
              f"| {counts['survived']} | {counts['equivalent']} | {score:.1f}% |")
    if survivors and left:
        print()
        print("\n".join(left))
    return met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", help="sets to run (see --list)")
    parser.add_argument("--list", action="store_true", help="name the sets and stop")
    parser.add_argument("--survivors", action="store_true", help="name each survivor")
    parser.add_argument("--report-only", action="store_true",
                        help="print the last run's scores without running mutmut again")
    parser.add_argument("--no-recheck", action="store_true",
                        help="skip the fresh-process run of each survivor (a set with no "
                             "code run at import: bots, the review route, ratings)")
    parser.add_argument("--max-children", type=int, default=2)
    parser.add_argument("--timeout-multiplier", type=float, default=3.0,
                        help="a mutant's tests may take this many times their usual time")
    parser.add_argument("--timeout-constant", type=float, default=30.0,
                        help="... plus this many seconds")
    args = parser.parse_args()
    if args.list or not args.sets:
        for name, (mutate, tests) in SETS.items():
            print(f"{name}: mutates {', '.join(mutate)}; runs {', '.join(tests)}")
        return
    unknown = [name for name in args.sets if name not in SETS]
    if unknown:
        parser.error(f"unknown set {unknown[0]!r}: choose from {', '.join(SETS)}")
    met = True
    for name in args.sets:
        work = ROOT / "mutants-beyond" / name
        if not args.report_only:
            work = prepare(name, args.timeout_multiplier, args.timeout_constant)
            run(work, args.max_children)
        print(f"\n### {name}\n")
        rows = results(work)
        met &= table(rows if args.no_recheck else recheck(work, name, rows), args.survivors)
    print(f"\ngoal {GOAL:.0f}% per module: " + ("met" if met else "missed"))


if __name__ == "__main__":
    main()
