"""How often a move the player may make is off the screen of a small terminal.

Plays whole games in the full-screen game, headless (Textual's pilot) at ``--size`` (60x20
by default), the human at seat 0 against random bots at zero pause. At every turn of the
human it reads the move list's visible lines as a person would and counts:
- ``draw hidden``: drawing is legal but ``[d]`` is not among them;
- ``any hidden``: some legal move's key is not among them;
- ``points cut``: the move list's bottom line (the hand's points) ends in ``…``.
The human then plays a random legal move by its key (a drawn dragon is placed).

    python benchmarks/tui_small_moves.py [--games 4] [--size 60x20] [--languages en vi]

Run it on two checkouts (``PYTHONPATH=OLD/src`` and ``PYTHONPATH=NEW/src``) to compare.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import random
from typing import Any

from rich.cells import cell_len
from rich.console import Console

from kingsbreakfast.i18n import language
from kingsbreakfast.tui.app import PlayApp
from kingsbreakfast.tui.moves import FEED, moves
from kingsbreakfast.tui.screens import DragonScreen
from kingsbreakfast.tui.session import Game, Seat


def screen_lines(app: PlayApp) -> list[str]:
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True,
                      force_terminal=True, color_system=None, legacy_windows=False)
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    return console.export_text().splitlines()


def region_text(lines: list[str], region: Any) -> list[str]:
    out = []
    for row in range(region.y, min(region.bottom, len(lines))):
        line, at, cut = lines[row], 0, ""
        for char in line:
            if region.x <= at and at + cell_len(char) <= region.right:
                cut += char
            at += cell_len(char)
        out.append(cut)
    return out


async def settle(app: PlayApp, pilot: Any) -> None:
    for _ in range(400):
        await pilot.pause()
        if all(worker.is_finished for worker in app.workers):
            await pilot.pause()
            if all(worker.is_finished for worker in app.workers):
                return
    raise RuntimeError("the game did not settle")


async def one_game(seed: int, size: tuple[int, int], counts: dict[str, int]) -> None:
    seats = [Seat("Ann"), *(Seat(name, "random") for name in ("Bob", "Cid", "Dee"))]
    game = Game.new(seats, seed)
    rng = random.Random(seed)
    app = PlayApp(game, speed=0)
    async with app.run_test(size=size) as pilot:
        for _ in range(400):
            await settle(app, pilot)
            if game.is_over:
                return
            if isinstance(app.screen, DragonScreen):
                await pilot.press("escape")
                await settle(app, pilot)
            view = game.view(0)
            listed = moves(view)
            box = app.screen.query_one("#moves")
            lines = screen_lines(app)
            shown = " ".join(region_text(lines, box.scrollable_content_region))
            counts["turns"] += 1
            if any(move.key == "d" for move in listed) and "[d]" not in shown:
                counts["draw hidden"] += 1
            if any(f"[{move.key}]" not in shown for move in listed):
                counts["any hidden"] += 1
            bottom = region_text(lines, box.region)[-1].strip("─╰╯ ")
            if bottom.endswith("…"):
                counts["points cut"] += 1
            simple = [move for move in listed if move.action != FEED]
            await pilot.press(rng.choice(simple).key)
    raise RuntimeError("the game did not end")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--size", default="60x20")
    parser.add_argument("--languages", nargs="+", default=["en", "de", "hu", "fr", "vi"])
    args = parser.parse_args()
    width, height = (int(part) for part in args.size.split("x"))
    for code in args.languages:
        counts = {"turns": 0, "draw hidden": 0, "any hidden": 0, "points cut": 0}
        with language(code):
            for seed in range(args.games):
                asyncio.run(one_game(seed, (width, height), counts))
        print(f"{code} {args.size}: " + ", ".join(f"{key} {value}" for key, value in
                                                   counts.items()))


if __name__ == "__main__":
    main()
