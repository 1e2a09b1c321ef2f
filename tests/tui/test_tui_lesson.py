"""``kingsbreakfast learn`` in the terminal: the lesson played through by keystrokes with
Textual's pilot, in every language (the steps of kingsbreakfast.lesson, R4–R12)."""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from test_tui_fits import region_lines
from textual.pilot import Pilot
from tui_helpers import screen_text, settle

from kingsbreakfast.engine import DISHES, DRAW_ID
from kingsbreakfast.i18n import LANGUAGES, _, language
from kingsbreakfast.lesson import STEPS
from kingsbreakfast.tui.lesson_app import LessonApp, LessonScoreScreen, LessonScreen
from kingsbreakfast.tui.moves import DISH_KEYS, moves
from kingsbreakfast.tui.screens import DragonScreen, FeedScreen

SIZE = (100, 40)
SMALL = (80, 24)
SMALLEST = (60, 20)
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screens"


def key_of(dish: str) -> str:
    return DISH_KEYS[DISHES.index(dish)]


def flat(text: str) -> str:
    return " ".join(text.split())


def fits(app: LessonApp, state: str) -> str:
    """The screen as text, checked to fit the terminal (and written to docs/screens with
    KINGSBREAKFAST_WRITE_SCREENS=1)."""
    text = screen_text(app)
    width, height = app.size
    lines = text.splitlines()
    assert len(lines) <= height and all(cell_len(line) <= width for line in lines)
    if os.environ.get("KINGSBREAKFAST_WRITE_SCREENS") and app.size in (SMALL, SMALLEST):
        from kingsbreakfast.i18n import current_language

        name = f"tui-lesson-{state}-{current_language()}-{width}x{height}.txt"
        (SHOTS / name).write_text(re.sub(r"[ \t]+$", "", text, flags=re.M), encoding="utf-8")
    return text


async def step_is(pilot: Pilot[Any], app: LessonApp, key: str) -> None:
    await settle(pilot)
    lesson = app.game.lesson  # type: ignore[attr-defined]
    assert lesson.step is not None and lesson.step.key == key
    assert isinstance(app.screen, LessonScreen)
    shown = flat(fits(app, key))
    # the screen itself never scrolls: the step's task is in sight, not above the top
    assert app.screen.max_scroll_y == 0 and app.screen.scroll_y == 0
    if app.size != SMALLEST:  # the smallest shows the step's number with its task
        assert flat(lesson.title()) in shown
    assert flat(_(lesson.step.task)) in shown  # the move asked for always shows
    # the panel shows the step's text (its first words: a long one scrolls in the panel)
    assert " ".join(lesson.text().split()[:4]) in shown
    if not lesson.step.to_the_end:  # the move asked for is in the list's sight
        move_list = app.screen.query_one("#moves")
        listed = flat(" ".join(region_lines(screen_text(app),
                                            move_list.scrollable_content_region)))
        example = lesson.step.example
        asked = "f" if example.kind == "feed" else next(
            move.key for move in moves(app.game.view(0)) if move.action == example)
        assert f"[{asked}]" in listed, (key, listed)


async def play_lesson(pilot: Pilot[Any], app: LessonApp) -> None:
    await step_is(pilot, app, "take")
    before = app.game.state.clone()
    await pilot.press("d")  # a legal move the step does not ask for
    await settle(pilot)
    assert app.game.state == before
    word = flat(fits(app, "not-quite"))
    assert flat(_("Not quite: the lesson waits for one move here. {task}").format(
        task=_("Take the cheese."))) in word
    await pilot.press(key_of("cheese"))
    await step_is(pilot, app, "draw")
    await pilot.press("d")
    await step_is(pilot, app, "king")
    await pilot.press(key_of("fruit"))
    await step_is(pilot, app, "feed")
    await pilot.press("f")
    await settle(pilot)
    assert isinstance(app.screen, FeedScreen)
    fits(app, "feed-dishes")
    await pilot.press(key_of("wine"), key_of("wine"))
    await step_is(pilot, app, "dragon_draw")
    await pilot.press("d")
    await settle(pilot)
    assert isinstance(app.screen, DragonScreen)
    fits(app, "dragon-choice")
    assert app.game.lesson.step.key == "dragon"  # type: ignore[attr-defined]
    await pilot.press("p")
    await step_is(pilot, app, "end")
    for _turn in range(40):
        await settle(pilot)
        if isinstance(app.screen, LessonScoreScreen):
            return
        view = app.game.view(0)
        if DRAW_ID in view.legal_actions():
            await pilot.press("d")
        else:
            await pilot.press(key_of(DISHES[max(range(7), key=lambda d: view.table[d])]))
        await settle(pilot)
        if isinstance(app.screen, DragonScreen):
            await pilot.press("p")
    raise AssertionError("the lesson did not reach its scoring")


@pytest.mark.parametrize("size", [SIZE, SMALL, SMALLEST], ids=["100x40", "80x24", "60x20"])
@pytest.mark.parametrize("code", LANGUAGES)
def test_the_lesson_is_played_through_by_keystrokes(code: str, size: tuple[int, int]) -> None:
    async def scenario() -> None:
        with language(code):
            app = LessonApp(speed=0)
            async with app.run_test(size=size) as pilot:
                await play_lesson(pilot, app)
                assert app.game.is_over
                assert app.game.lesson.step is None  # type: ignore[attr-defined]
                text = flat(fits(app, "scoring"))
                assert flat(_("The end and the scoring")) in text
                mine = app.game.state.score().players[0].points
                assert str(mine) in text
                await pilot.press("n")
                await settle(pilot)
            assert app.next_game

    asyncio.run(scenario())


def test_the_learner_may_leave_at_any_step() -> None:
    async def scenario() -> None:
        app = LessonApp(speed=0)
        async with app.run_test(size=SIZE) as pilot:
            await step_is(pilot, app, "take")
            await pilot.press(key_of("cheese"))
            await step_is(pilot, app, "draw")
            await pilot.press("q")
            await settle(pilot)
        assert not app.next_game and app.farewell is None
        assert app.game.lesson.index == 1  # type: ignore[attr-defined]

    asyncio.run(scenario())


def test_every_step_is_a_step_of_the_lesson() -> None:
    assert [step.key for step in STEPS] == [
        "take", "draw", "king", "feed", "dragon_draw", "dragon", "end",
    ]
