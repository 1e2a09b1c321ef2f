"""``replay FILE --step`` in the full-screen board."""

from __future__ import annotations

import asyncio
import json
from importlib import resources

import pytest

pytest.importorskip("textual")

from tui_helpers import screen_text

from kingsbreakfast.engine import read_record
from kingsbreakfast.tui.replay_app import ReplayApp


def test_stepping_through_a_finished_record() -> None:
    text = resources.files("kingsbreakfast.examples").joinpath("game-4p.json").read_text()
    record = read_record(json.loads(text))
    total = len(record.actions)

    async def scenario() -> None:
        app = ReplayApp(record)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert f"action 0 of {total}" in screen_text(app)
            await pilot.press("right", "right", "right", "left")
            await pilot.pause()
            assert app.step == 2 and f"action 2 of {total}" in screen_text(app)
            await pilot.press("end")
            await pilot.pause()
            screen = screen_text(app)
            assert app.step == total and "game over" in screen
            # a finished game is shown whole: every hand's drawn cards are open
            assert sum("drawn" in line for line in screen.splitlines()) == len(record.players)
            await pilot.press("home")
            await pilot.pause()
            assert app.step == 0
            await pilot.press("left")
            assert app.step == 0

    asyncio.run(scenario())



def test_ctrl_c_leaves_the_replay_without_an_english_toast() -> None:
    text = resources.files("kingsbreakfast.examples").joinpath("game-3p.json").read_text()
    record = read_record(json.loads(text))

    async def scenario() -> ReplayApp:
        app = ReplayApp(record)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("ctrl+c")
            await pilot.pause()
            assert not list(app._notifications)  # no "Press ctrl+q to quit the app"
            assert app._exit  # it leaves, as ctrl+q would
        return app

    assert asyncio.run(scenario()).return_code == 0
