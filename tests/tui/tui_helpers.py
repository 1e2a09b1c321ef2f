"""Driving the full-screen game in tests: run it headless, let bots finish, read the screen."""

from __future__ import annotations

import io
import random
from typing import Any

from rich.console import Console
from textual.app import App
from textual.pilot import Pilot

from kingsbreakfast.engine import Action
from kingsbreakfast.tui.session import Game, Seat


def screen_text(app: App[Any]) -> str:
    """The characters on the terminal right now, as a person would read them."""
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), record=True, force_terminal=True,
        color_system=None, legacy_windows=False,
    )
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    return console.export_text()


async def settle(pilot: Pilot[Any]) -> None:
    """Wait until the bots have moved and the screen is idle (bots run at zero pause)."""
    for _ in range(200):
        await pilot.pause()
        workers = [w for w in pilot.app.workers if not w.is_finished]
        if not workers:
            await pilot.pause()
            if not [w for w in pilot.app.workers if not w.is_finished]:
                return
        else:
            await pilot.app.workers.wait_for_complete()
    raise AssertionError("the app did not settle")


def seats(*kinds: str | None) -> list[Seat]:
    """Seats by bot name, None for a human: ``seats(None, "random", "random")``."""
    names = ["Ann", "Bob", "Cid", "Dee", "Eve"]
    return [Seat(names[i], kind) for i, kind in enumerate(kinds)]


def advance_to(game: Game, wanted: Any, seed: int = 0, limit: int = 400) -> None:
    """Play random legal moves for every seat until ``wanted(game)`` holds (sets up a
    position for a test without typing through a whole game)."""
    rng = random.Random(seed)
    for _ in range(limit):
        if wanted(game):
            return
        legal = game.state.legal_actions()
        assert legal, "the game ended before the wanted position"
        game.play(Action(legal[rng.randrange(len(legal))]))
    raise AssertionError("the wanted position never came")


def game_reaching(kinds: tuple[str | None, ...], wanted: Any, tries: int = 60) -> Game:
    """The first seeded game whose random play walks into a position where ``wanted``
    holds (deterministic: seeds are tried in order)."""
    for seed in range(tries):
        game = Game.new(seats(*kinds), seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            if wanted(game):
                return game
            legal = game.state.legal_actions()
            game.play(Action(legal[rng.randrange(len(legal))]))
    raise AssertionError("no seed reached the wanted position")
