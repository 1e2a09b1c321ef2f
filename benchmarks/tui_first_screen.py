"""How soon a newcomer can play: from ``kingsbreakfast play`` to the first move on screen.

Four timings, best of ``--repeats`` (the machine is shared, so the best run is the one
least disturbed):
- ``cli start``: a fresh Python process that imports the command line and the full-screen
  game (what runs before the first frame, without the terminal);
- ``help start``: ``python -m kingsbreakfast --help`` in a fresh process, to its last line;
- ``first screen``: the full-screen game, headless at 80x24, from start until the human's
  moves are listed (bots at zero pause; default medium bots);
- ``plain game``: a whole plain-mode game against random bots with scripted answers.

    python benchmarks/tui_first_screen.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import subprocess
import sys
import tempfile
import time

from kingsbreakfast.tui.app import PlayApp
from kingsbreakfast.tui.plain import PlainGame
from kingsbreakfast.tui.session import Game, plan_seats

ANSWERS = "d\n1\n2\n3\n4\n5\n6\n7\np\nx\n" * 80 + "q\n"


def cli_start() -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", "import kingsbreakfast.cli.main, kingsbreakfast.tui.app"],
        check=True,
    )
    return time.perf_counter() - start


def help_start() -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "kingsbreakfast", "--help"], check=True,
        stdout=subprocess.DEVNULL,
    )
    return time.perf_counter() - start


async def _first_screen(seed: int) -> float:
    start = time.perf_counter()
    game = Game.new(plan_seats(4, [], 0, 1), seed=seed)
    app = PlayApp(game, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.game_screen
        while screen is None or not screen.awaiting_human:
            await pilot.pause(0.01)
            screen = app.game_screen
        return time.perf_counter() - start


def plain_game(seed: int) -> float:
    start = time.perf_counter()
    game = Game.new(plan_seats(4, ["random"], 0, 1), seed=seed)
    PlainGame(game, io.StringIO(ANSWERS), io.StringIO()).run()
    assert game.is_over
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    # autosaves of the timed games go to a folder of their own, not the user's
    os.environ["KINGSBREAKFAST_DATA_DIR"] = tempfile.mkdtemp(prefix="kb-bench-")
    results = {
        "cli start": min(cli_start() for _ in range(args.repeats)),
        "help start": min(help_start() for _ in range(args.repeats)),
        "first screen": min(
            asyncio.run(_first_screen(seed)) for seed in range(args.repeats)
        ),
        "plain game": min(plain_game(seed) for seed in range(args.repeats)),
    }
    for name, seconds in results.items():
        print(f"{name:<14} {seconds:6.3f} s (best of {args.repeats})")


if __name__ == "__main__":
    main()
