"""The terminal game in each of the five languages, and a change of language mid-game."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("textual")

from tui_helpers import advance_to, screen_text, seats, settle

from kingsbreakfast.i18n import LANGUAGES, _, current_language, language, set_language
from kingsbreakfast.i18n.words import dish_name
from kingsbreakfast.tui import strings
from kingsbreakfast.tui.app import PlayApp
from kingsbreakfast.tui.session import Game
from untranslated import english_pieces


def position() -> Game:
    game = Game.new(seats(None, "random", "random", "random"), seed=21)
    advance_to(game, lambda g: g.to_move == 0 and g.state.round >= 2, seed=3)
    return game


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_screen_speaks_the_chosen_language(code: str) -> None:
    game = position()

    async def scenario() -> str:
        with language(code):
            app = PlayApp(game, speed=0)
            async with app.run_test(size=(120, 32)) as pilot:
                await settle(pilot)
                return screen_text(app)

    text = asyncio.run(scenario())
    with language(code):
        assert strings.actions_title() in text
        assert strings.log_title() in text
        assert strings.king() in text
        assert dish_name(1) in text
        view = game.view(0)
        assert f"{view.round}" in text
        footer = text.splitlines()[-1]
        assert _("hint") in footer  # key bindings are translated too
    if code != "en":
        pieces = english_pieces(code, shortest=9, phrases_only=True)
        leaked = [phrase for phrase in pieces if phrase in text]
        assert not leaked, f"English on the {code} screen: {leaked}"


def test_switching_language_mid_game_keeps_the_game() -> None:
    game = position()
    before = game.state.clone()

    async def scenario() -> list[str]:
        set_language("en")
        app = PlayApp(game, speed=0)
        texts = []
        async with app.run_test(size=(120, 32)) as pilot:
            await settle(pilot)
            texts.append(screen_text(app))
            for _ in range(len(LANGUAGES)):
                await pilot.press("L")
                await settle(pilot)
                texts.append(screen_text(app))
        return texts

    try:
        texts = asyncio.run(scenario())
    finally:
        set_language("en")
    assert game.state == before  # nothing was played or lost by switching
    assert current_language() == "en"
    assert "What happened" in texts[0]
    with language("de"):
        assert strings.log_title() in texts[1]  # en → de, the log title in German
        assert "Was geschah" in texts[1]
    with language("hu"):
        assert strings.log_title() in texts[2]
    assert "What happened" in texts[-1]  # round trip back to English
    # the log was told again in each language, not left in the old one
    with language("de"):
        assert "Runde 1" in texts[1]


def test_the_hint_is_listed_in_the_players_language() -> None:
    """The ranking comes back from a search thread, which carries no language of its own."""
    from kingsbreakfast.tui.screens import HintScreen

    game = position()

    async def scenario() -> str:
        with language("de"):
            app = PlayApp(game, speed=0, hint_seconds=0.05)
            async with app.run_test(size=(100, 32)) as pilot:
                await settle(pilot)
                await pilot.press("h")
                await settle(pilot)
                assert isinstance(app.screen, HintScreen)
                return screen_text(app)

    text = asyncio.run(scenario())
    with language("de"):
        assert strings.hint_titles()[0] in text  # "Zug", not "move"
        assert strings.draw_label() in text
    assert "vs best" not in text and "draw a card" not in text


def test_a_switch_of_language_reaches_widgets_that_redraw_on_their_own() -> None:
    """At 60×20 the board redraws itself after ``L`` (its legend changes height): it must do
    so in the new language, not the one its own task started with."""
    game = Game.new(seats(None, "random", "random", "random"), seed=9)

    async def scenario() -> str:
        with language("vi"):
            app = PlayApp(game, speed=0)
            async with app.run_test(size=(60, 20)) as pilot:
                await settle(pilot)
                await pilot.press("L")  # vi → en, the next in the fixed order
                await settle(pilot)
                await pilot.pause(0.2)
                return screen_text(app)

    text = asyncio.run(scenario())
    assert "King" in text and "Nhà Vua" not in text
