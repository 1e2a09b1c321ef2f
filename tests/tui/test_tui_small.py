"""A 60×20 terminal: every move that is not a dish is in sight in the move list (the dishes
one may take stand on the board's table row under their keys), and the hand's points under
the list are whole."""

from __future__ import annotations

import asyncio
import random

import pytest
from tui_helpers import screen_text, seats, settle

from kingsbreakfast.i18n import language
from kingsbreakfast.tui.moves import DISH_KEYS, FEED, moves
from kingsbreakfast.tui.session import Game

pytest.importorskip("textual")

from test_tui_fits import region_lines

from kingsbreakfast.tui.app import PlayApp
from kingsbreakfast.tui.screens import DragonScreen


@pytest.mark.parametrize("code", ["en", "hu"])
def test_draw_and_the_points_stay_in_sight_at_60x20(code: str) -> None:
    async def scenario() -> int:
        game = Game.new(seats(None, "random", "random", "random"), seed=5)
        rng = random.Random(5)
        checked = 0
        app = PlayApp(game, speed=0)
        async with app.run_test(size=(60, 20)) as pilot:
            for _turn in range(25):
                await settle(pilot)
                if game.is_over:
                    break
                if isinstance(app.screen, DragonScreen):
                    await pilot.press("escape")
                    await settle(pilot)
                listed = moves(game.view(0))
                box = app.screen.query_one("#moves")
                text = screen_text(app)
                shown = " ".join(region_lines(text, box.scrollable_content_region))
                for move in listed:
                    if move.key not in DISH_KEYS:
                        assert f"[{move.key}]" in shown, (move.key, shown)
                        checked += 1
                bottom = region_lines(text, box.region)[-1]
                assert "…" not in bottom, bottom
                await pilot.press(rng.choice([m for m in listed if m.action != FEED]).key)
        return checked

    with language(code):
        assert asyncio.run(scenario()) > 10
