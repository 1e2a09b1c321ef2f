"""How fast the rules engine plays uniformly random 4-player games through its public API.

Each game: ``State.new`` (shuffle and deal), then until the game is over, the legal actions
and one of them chosen uniformly at random, applied. Two loops are timed: ``apply`` (the
unchecked fast path for search, fed only legal actions) and ``play`` (the checked path that
user interfaces use). Prints games/s and actions/s for each on one core.

    python benchmarks/engine_speed.py [--games N] [--players 4] [--seed 1] [--repeats 3]

CPU time (``time.process_time``) is reported beside wall-clock time because the machine is
shared: other processes stretch the wall clock, not the CPU time this one used.
"""

from __future__ import annotations

import argparse
import random
import time

from kingsbreakfast.engine import State


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3, help="report the best of this many")
    args = parser.parse_args()
    run(min(args.games, 2000), args.players, args.seed, False)  # warm up
    for label, checked in (("apply (unchecked)", False), ("play (checked)", True)):
        runs = [run(args.games, args.players, args.seed, checked) for _ in range(args.repeats)]
        seconds, cpu, actions = min(runs, key=lambda r: r[1])
        print(
            f"{label:18} {args.games} games of {args.players} players, best of {args.repeats}: "
            f"{args.games / cpu:,.0f} games/s and {actions / cpu:,.0f} actions/s of CPU time "
            f"({args.games / seconds:,.0f} games/s wall clock), "
            f"{actions / args.games:.1f} actions/game"
        )


if __name__ == "__main__":
    main()
