"""How many complete games per second the batch simulator plays on one core (issue 4).

Goal: at least 300,000 complete 4-player uniformly random games per second on one core.
Each measurement runs ``simulate(B, players, policy)`` ``--repeats`` times (greedy seats on
a quarter as many games, card counter seats, ``heuristic``, on a twentieth: they think at
every turn) and keeps the best, both in wall-clock time and in CPU time of this process
(the machine is shared, so CPU time is the fairer figure; both are printed). The first
call loads or compiles the numba kernel and is not timed. For comparison, the rules
engine's own Python loop is timed on a few thousand games, and the heuristic bot itself
(Python) on a few games.

    python benchmarks/batch_speed.py [--games 200000] [--repeats 5] [--players 3 4 5]
"""

from __future__ import annotations

import argparse
import random
import time

from kingsbreakfast.bots import HeuristicBot
from kingsbreakfast.engine import State
from kingsbreakfast.sim.batch import simulate, warm_up


def best_of(repeats: int, games: int, players: int, policy: str) -> tuple[float, float]:
    """Best games/s over the repeats: (wall clock, CPU time)."""
    best_wall = best_cpu = 0.0
    for repeat in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        simulate(games, players, policy, seed=repeat)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        best_wall = max(best_wall, games / wall)
        best_cpu = max(best_cpu, games / max(cpu, 1e-9))
    return best_wall, best_cpu


def engine_rate(games: int, players: int) -> float:
    rng = random.Random(1)
    start = time.process_time()
    for _ in range(games):
        state = State.new(players, rng)
        legal = state.legal_actions()
        while legal:
            state.apply(legal[int(rng.random() * len(legal))])
            legal = state.legal_actions()
    return games / (time.process_time() - start)


def bot_rate(games: int, players: int) -> float:
    """Games/s of CPU time with the heuristic bot, in Python, in every seat."""
    rng = random.Random(1)
    bot = HeuristicBot()
    start = time.process_time()
    for _ in range(games):
        state = State.new(players, rng)
        while not state.is_over:
            state.apply(bot.act(state.view(state.to_move), rng))
    return games / (time.process_time() - start)


SHARE = {"random": 1, "greedy": 4, "heuristic": 20}
"""Each policy's batch is the --games divided by this (the bots think at every turn)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5])
    parser.add_argument("--million", action="store_true", help="also time one batch of 10^6")
    args = parser.parse_args()
    warm_up()
    print(f"batch simulator, {args.games:,} games a batch, best of {args.repeats}")
    for players in args.players:
        for policy, share in SHARE.items():
            games = args.games // share
            wall, cpu = best_of(args.repeats, games, players, policy)
            print(
                f"  {players} players, {policy:9}: {wall:12,.0f} games/s wall  "
                f"{cpu:12,.0f} games/s CPU"
            )
    for batch in (1, 100, 10_000):
        wall, cpu = best_of(args.repeats, batch, 4, "random")
        print(f"  batch of {batch:>6,}, 4 players random: {wall:12,.0f} games/s wall")
    if args.million:
        wall, cpu = best_of(1, 1_000_000, 4, "random")
        print(f"  batch of 1,000,000, 4 players random: {wall:12,.0f} games/s wall "
              f"{cpu:12,.0f} CPU")
    rate = engine_rate(3000, 4)
    print(f"rules engine (Python, apply), 4 players random: {rate:,.0f} games/s CPU")
    rate = bot_rate(20, 4)
    print(f"heuristic bot (Python), 4 players, every seat: {rate:,.1f} games/s CPU")


if __name__ == "__main__":
    main()
