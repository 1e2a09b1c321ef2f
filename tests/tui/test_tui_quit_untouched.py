"""The game's own screen keeps no new game that no human has moved in: q says so before
quitting, and leaving leaves no entry among the saved games (a start and quit used to add
a round-1 game each time)."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("textual")

from tui_helpers import screen_text, seats, settle

from kingsbreakfast.tui import strings
from kingsbreakfast.tui.app import GameScreen, PlayApp
from kingsbreakfast.tui.saving import saved_games
from kingsbreakfast.tui.screens import QuitScreen
from kingsbreakfast.tui.session import Game


async def quit_after(move_first: bool) -> PlayApp:
    app = PlayApp(Game.new(seats(None, "random", "random"), seed=11), speed=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        if move_first:
            await pilot.press("d")
            await settle(pilot)
            while not isinstance(app.screen, GameScreen):
                await pilot.press("enter")  # the drawn card's screen
                await settle(pilot)
        await pilot.press("q")
        await settle(pilot)
        assert isinstance(app.screen, QuitScreen)
        shown = " ".join(screen_text(app).split())
        wanted = strings.quit_question() if move_first else strings.quit_untouched()
        assert " ".join(wanted.split()[:8]) in shown
        await pilot.press("q")
        await pilot.pause()
    return app


def test_quitting_before_any_move_keeps_no_entry() -> None:
    app = asyncio.run(quit_after(move_first=False))
    assert app.farewell == strings.not_kept()
    assert saved_games() == []


def test_quitting_after_a_move_keeps_the_game() -> None:
    app = asyncio.run(quit_after(move_first=True))
    assert app.farewell is not None and app.farewell != strings.not_kept()
    (saved,) = saved_games()
    assert saved.moves >= 1
