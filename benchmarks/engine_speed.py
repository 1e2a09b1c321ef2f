"""How fast the rules engine plays uniformly random 4-player games through its public API.

Each game: ``State.new`` (shuffle and deal), then until the game is over, the legal actions
and one of them chosen uniformly at random, applied. Two loops are timed: ``apply`` (the
unchecked fast path for search, fed only legal actions) and ``play`` (the checked path that
user interfaces use). Prints games/s and actions/s for each on one core.

    python benchmarks/engine_speed.py [--games N] [--players 4] [--seed 1] [--repeats 3]

CPU time (``time.process_time``) is reported beside wall-clock time because the machine is
shared: other processes stretch the wall clock, not the CPU time this one used.

The same run also compiles ``c_playout/playout.c`` (random games by the same rules, written in
plain C) with ``cc -O2`` into a temporary directory, times it by its own CPU clock and prints
``C ÷ engine``: how many times faster C plays than the engine's ``apply`` loop. A ratio taken
in one run on one machine stays meaningful when the machine is busy or of another speed.
Without a C compiler the C half is skipped with a message.
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from kingsbreakfast.engine import State

C_SOURCE = Path(__file__).resolve().parent / "c_playout" / "playout.c"


def run(games: int, players: int, seed: int, checked: bool) -> tuple[float, float, int]:
    rng = random.Random(seed)
    pick = rng.random
    new = State.new
    actions = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    for _ in range(games):
        state = new(players, rng)
        step = state.play if checked else state.apply
        legal_actions = state.legal_actions
        legal = legal_actions()
        while legal:  # empty once the game is over
            step(legal[int(pick() * len(legal))])
            actions += 1
            legal = legal_actions()
    return time.perf_counter() - start, time.process_time() - cpu_start, actions


def run_c(games: int, players: int, seed: int, repeats: int) -> tuple[float, float] | None:
    """Best CPU time of ``repeats`` runs of the C playout and its actions per game, or None
    (with the reason printed) when it cannot be built."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        print("C playout skipped: no C compiler (cc, gcc or clang) on the PATH")
        return None
    with tempfile.TemporaryDirectory() as folder:
        program = str(Path(folder) / "playout")
        built = subprocess.run(
            [compiler, "-O2", "-o", program, str(C_SOURCE)], capture_output=True, text=True
        )
        if built.returncode != 0:
            print(f"C playout skipped: {compiler} failed:\n{built.stderr.strip()}")
            return None
        best = float("inf")
        actions = 0
        for repeat in range(repeats):
            out = subprocess.run(
                [program, str(games), str(players), str(seed + repeat)],
                capture_output=True, text=True, check=True,
            ).stdout.split()
            if float(out[2]) < best:
                best, actions = float(out[2]), int(out[1])
    return best, actions / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3, help="report the best of this many")
    parser.add_argument("--c-games", type=int, default=0,
                        help="games for the C playout (default: 25 times --games)")
    args = parser.parse_args()
    run(min(args.games, 2000), args.players, args.seed, False)  # warm up
    rates = {}
    for label, checked in (("apply (unchecked)", False), ("play (checked)", True)):
        runs = [run(args.games, args.players, args.seed, checked) for _ in range(args.repeats)]
        seconds, cpu, actions = min(runs, key=lambda r: r[1])
        rates[checked] = args.games / cpu
        print(
            f"{label:18} {args.games} games of {args.players} players, best of {args.repeats}: "
            f"{args.games / cpu:,.0f} games/s and {actions / cpu:,.0f} actions/s of CPU time "
            f"({args.games / seconds:,.0f} games/s wall clock), "
            f"{actions / args.games:.1f} actions/game"
        )
    c_games = args.c_games or 25 * args.games
    measured = run_c(c_games, args.players, args.seed, args.repeats)
    if measured is None:
        return
    cpu, per_game = measured
    print(
        f"{'C playout (cc -O2)':18} {c_games} games of {args.players} players, best of "
        f"{args.repeats}: {c_games / cpu:,.0f} games/s of CPU time, {per_game:.1f} actions/game"
    )
    print(f"C ÷ engine (apply): {c_games / cpu / rates[False]:.1f}")


if __name__ == "__main__":
    main()
