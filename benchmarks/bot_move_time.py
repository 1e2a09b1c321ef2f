"""How long every registered bot thinks per move: the figures behind each registry entry's
``thinks_long`` (a bot that thinks long plays in the server's bot thread, off the event
loop, so one table's search never delays another table's frames).

Every name in ``kingsbreakfast.bots.BOTS`` plays seat-rotated four-player games against three
``random`` bots (cheap, so the run is spent on the bot measured); each of its moves is timed
on its own (wall clock, one process, one thread). A bot stops after ``--moves`` timed moves
or ``--seconds`` of its own thinking, whichever comes first (a search at a thousand
simulations a move would otherwise take minutes), never before ``--min-moves``.

    python benchmarks/bot_move_time.py [--moves 400] [--seconds 20] [--seed 1]

Printed: one JSON line per bot (moves, median, p90 and max in milliseconds, the registry's
``thinks_long``, and what the figures say it should be under ``LOOP_BUDGET_MS``), then
``"agree": true`` when the registry matches the figures for every bot.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core: numpy's BLAS on one thread
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from kingsbreakfast.bots import BOTS, make_bot
from kingsbreakfast.engine import State

LOOP_BUDGET_MS = 1.0
"""A bot whose median move takes longer than this leaves the event loop."""


def measure(name: str, moves: int, seconds: float, min_moves: int, seed: int) -> list[float]:
    bot = make_bot(name)
    filler = make_bot("random")
    bot.act(State.new(4, random.Random(seed)).view(0), random.Random(seed))  # warm-up (loads)
    times: list[float] = []
    spent = 0.0
    game = 0
    while len(times) < moves and (spent < seconds or len(times) < min_moves):
        rng = random.Random(seed * 100_000 + game)
        state = State.new(4, rng)
        mine = game % 4
        while not state.is_over and len(times) < moves:
            if spent >= seconds and len(times) >= min_moves:
                break
            seat = state.to_move
            view = state.view(seat)
            if seat == mine:
                start = time.perf_counter()
                action = bot.act(view, rng)
                took = time.perf_counter() - start
                times.append(took)
                spent += took
            else:
                action = filler.act(view, rng)
            state.play(action)
        game += 1
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--min-moves", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    agree = True
    for entry in BOTS:
        try:
            times = measure(entry.name, args.moves, args.seconds, args.min_moves, args.seed)
        except Exception as error:  # e.g. master without numpy: say so, measure the rest
            print(json.dumps({"bot": entry.name, "error": str(error)}))
            continue
        ms = sorted(1000 * t for t in times)
        median = statistics.median(ms)
        should = median > LOOP_BUDGET_MS
        agree = agree and should == entry.thinks_long
        print(json.dumps({
            "bot": entry.name, "moves": len(ms), "median_ms": round(median, 3),
            "p90_ms": round(ms[int(0.9 * (len(ms) - 1))], 3), "max_ms": round(ms[-1], 3),
            "thinks_long": entry.thinks_long, "figures_say": should,
        }), flush=True)
    print(json.dumps({"loop_budget_ms": LOOP_BUDGET_MS, "agree": agree}))


if __name__ == "__main__":
    main()
