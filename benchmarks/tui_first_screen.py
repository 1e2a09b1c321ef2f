"""How soon a newcomer can play: from ``kingsbreakfast play`` to the first move on screen.

Four timings, best of ``--repeats`` (the machine is shared, so the best run is the one
least disturbed):
- ``cli start``: a fresh Python process that imports the command line and the full-screen
  game (what runs before the first frame, without the terminal);
- ``help start``: ``python -m kingsbreakfast --help`` in a fresh process, to its last line;
- ``first screen``: the full-screen game, headless at 80x24, from start until the human's
  moves are listed (bots at zero pause; default medium bots);
- ``plain game``: a whole plain-mode game against random bots with scripted answers.

With ``--tmux``, also ``terminal``: ``kingsbreakfast play`` in a real 80x24 terminal (a tmux
pane), from the command until its move list is on the screen (polled every 10 ms).

With ``--compare OLD_SRC NEW_SRC`` (two ``src`` folders, say the main branch's and a work
tree's), ``help start`` and ``terminal`` are timed for both, interleaved round by round (the
order swapping each round) so that the load of a shared machine falls on both alike, and
the medians and bests are printed side by side.

    python benchmarks/tui_first_screen.py [--repeats 5] [--tmux]
    python benchmarks/tui_first_screen.py --compare /work/main/src src --repeats 15
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import statistics
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


def _env(src: str | None) -> dict[str, str]:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = os.path.abspath(src)
    return env


def help_start(src: str | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "kingsbreakfast", "--help"], check=True,
        stdout=subprocess.DEVNULL, env=_env(src),
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


def in_terminal(index: int, src: str | None = None) -> float:
    """Wall-clock time from ``kingsbreakfast play`` to the move list in a tmux pane."""
    session = f"kb-first-screen-{os.getpid()}-{index}"
    path = f"PYTHONPATH={os.path.abspath(src)} " if src is not None else ""
    data = f"KINGSBREAKFAST_DATA_DIR={os.environ['KINGSBREAKFAST_DATA_DIR']} "
    start = time.perf_counter()
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", session, "-x", "80", "-y", "24",
         f"env {path}{data}{sys.executable} -m kingsbreakfast play --seed {index} --speed 0;"
         " sleep 5"],
        check=True,
    )
    try:
        while time.perf_counter() - start < 30:
            screen = subprocess.run(["tmux", "capture-pane", "-p", "-t", session],
                                    capture_output=True, text=True).stdout
            if "[d]" in screen or "[1]" in screen:
                return time.perf_counter() - start
            time.sleep(0.01)
        raise RuntimeError("the game never showed its moves")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], check=False)


def plain_game(seed: int) -> float:
    start = time.perf_counter()
    game = Game.new(plan_seats(4, ["random"], 0, 1), seed=seed)
    PlainGame(game, io.StringIO(ANSWERS), io.StringIO()).run()
    assert game.is_over
    return time.perf_counter() - start


def compare(old: str, new: str, repeats: int) -> None:
    """``help start`` and ``terminal`` for two source trees, interleaved."""
    timings: dict[tuple[str, str], list[float]] = {}
    for round_number in range(repeats):
        order = [("before", old), ("after", new)]
        if round_number % 2:
            order.reverse()
        for label, src in order:
            timings.setdefault(("help start", label), []).append(help_start(src))
            timings.setdefault(("terminal", label), []).append(
                in_terminal(round_number, src))
    for measure in ("help start", "terminal"):
        for label in ("before", "after"):
            runs = timings[(measure, label)]
            print(f"{measure:<11} {label:<7} median {statistics.median(runs):6.3f} s  "
                  f"best {min(runs):6.3f} s  ({len(runs)} runs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--tmux", action="store_true", help="also time a real terminal")
    parser.add_argument("--compare", nargs=2, metavar=("OLD_SRC", "NEW_SRC"),
                        help="time --help and the terminal for two source trees")
    args = parser.parse_args()
    # autosaves of the timed games go to a folder of their own, not the user's
    os.environ["KINGSBREAKFAST_DATA_DIR"] = tempfile.mkdtemp(prefix="kb-bench-")
    if args.compare:
        compare(*args.compare, args.repeats)
        return
    results = {
        "cli start": min(cli_start() for _ in range(args.repeats)),
        "help start": min(help_start() for _ in range(args.repeats)),
        "first screen": min(
            asyncio.run(_first_screen(seed)) for seed in range(args.repeats)
        ),
        "plain game": min(plain_game(seed) for seed in range(args.repeats)),
    }
    if args.tmux:
        results["terminal"] = min(in_terminal(index) for index in range(args.repeats))
    for name, seconds in results.items():
        print(f"{name:<14} {seconds:6.3f} s (best of {args.repeats})")


if __name__ == "__main__":
    main()
