"""The lesson in the browser (/learn, kingsbreakfast.lesson): reached from the lobby, played
through in each of the five languages by clicks (and once by the keyboard alone), a move the
step does not ask for answered kindly, the learner's view only on the wire (R7b), axe clean,
whole on a phone and in dark colours; screens of each state for docs/screens."""

from __future__ import annotations

from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from kingsbreakfast.i18n import LANGUAGES, language  # noqa: E402
from kingsbreakfast.lesson import STEPS, LessonGame  # noqa: E402
from server.kb_live import LiveServer  # noqa: E402
from web.auditing import assert_accessible  # noqa: E402
from web.browsing import no_sideways_scroll, shot, shots  # noqa: E402

PHONE = {
    "viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
    "device_scale_factor": 2,
}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}


class Learner:
    """One page through the lesson, by mouse or by keyboard alone."""

    def __init__(self, page: Any, keyboard: bool = False) -> None:
        self.page = page
        self.keyboard = keyboard

    def moves(self) -> int:
        return int(self.page.get_attribute(".game.lesson", "data-moves") or 0)

    def press(self, selector: str) -> None:
        if self.keyboard:
            self.page.focus(selector)
            self.page.keyboard.press("Enter")
        else:
            self.page.click(selector)

    def play(self, selector: str, step: str | None = None) -> None:
        """Make the move behind ``selector`` and wait for the lesson to take it (and to
        reach ``step``, when given)."""
        before = self.moves()
        self.press(selector)
        self.page.wait_for_function(
            "n => Number(document.querySelector('.game.lesson')?.dataset.moves) > n", arg=before)
        if step is not None:
            self.at(step)

    def at(self, step: str) -> None:
        self.page.wait_for_selector(f'.game.lesson[data-step="{step}"]')


def open_lesson(page: Any, base: str, code: str, screens: str | None = None) -> None:
    page.goto(base + "/")
    page.wait_for_selector("#lang")
    page.select_option("#lang", code)
    page.wait_for_function("c => document.documentElement.lang === c", arg=code)
    with language(code):
        from kingsbreakfast.server.routes.pages import static_dir
        from kingsbreakfast.server.strings import catalog

        words = catalog(static_dir(), code)
    assert page.inner_text("#learn-title") == words["learn.title"]
    if screens:
        shots(page, "learn-lobby", screens)
    page.click("#learn-link")
    page.wait_for_url("**/learn")


def play_lesson(learner: Learner, code: str, screens: str | None = None) -> None:
    page = learner.page
    learner.at("take")
    expected = STEPS[0]
    with language(code):
        from kingsbreakfast.i18n import _

        assert page.inner_text("#turn") == _(expected.title)
        task = _(expected.task)
    if screens:
        shot(page, f"learn-take-{screens}")
    # a legal move the step does not ask for: a kind word, nothing changes
    learner.press("[data-act=draw]")
    page.wait_for_selector("#lesson-word:not(:empty)")
    assert task in page.inner_text("#lesson-word")
    assert learner.moves() == 0
    learner.at("take")
    if screens:
        shot(page, f"learn-not-quite-{screens}")
    learner.play("[data-take=cheese]", "draw")
    learner.play("[data-act=draw]", "king")
    learner.play("[data-take=fruit]", "feed")
    learner.press("[data-act=feed]")
    page.wait_for_selector(".picking")
    if screens:
        shot(page, f"learn-feed-{screens}")
    learner.play('[data-act="feed wine wine"]', "dragon_draw")
    learner.play("[data-act=draw]", "dragon")
    if screens:
        shot(page, f"learn-dragon-{screens}")
    learner.play("[data-act=place_dragon]", "end")
    for _turn in range(30):
        if page.locator('.game.lesson[data-step="scoring"]').count():
            break
        if page.locator("[data-act=draw]").count():
            learner.play("[data-act=draw]")
        elif page.locator("[data-take]").count():
            learner.play("[data-take]")
        else:
            learner.play(".actions [data-act]")
    learner.at("scoring")
    assert page.locator("#lesson-scoring li").count() >= 3
    if screens:
        shot(page, f"learn-scoring-{screens}")


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_lesson_is_played_through_in_each_language(
    server: LiveServer, browser: Any, code: str
) -> None:
    context = browser.new_context(**DESKTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_lesson(page, server.base, code, screens=code if code in ("en", "de") else None)
    learner = Learner(page, keyboard=code == "hu")  # one language by the keyboard alone
    play_lesson(learner, code, screens=code if code in ("en", "de") else None)
    # the end offers a real game: the lobby, where one starts
    learner.press("#real-game")
    page.wait_for_selector("form#create")
    assert page.evaluate("document.activeElement.closest('#play-now') !== null")
    assert errors == []
    context.close()


def test_each_state_is_accessible_and_the_learner_may_leave(
    server: LiveServer, browser: Any
) -> None:
    context = browser.new_context(**DESKTOP)
    page = context.new_page()
    open_lesson(page, server.base, "en")
    learner = Learner(page)
    learner.at("take")
    assert_accessible(page, "the lesson's first step")
    learner.press("[data-act=draw]")
    page.wait_for_selector("#lesson-word:not(:empty)")
    assert_accessible(page, "the lesson's kind word")
    learner.play("[data-take=cheese]", "draw")
    # the language may change in the middle of the lesson: the step is told anew in it
    page.select_option("#lang", "de")
    with language("de"):
        from kingsbreakfast.i18n import _

        page.wait_for_function("t => document.querySelector('#turn')?.textContent === t",
                               arg=_(STEPS[1].title))
    page.select_option("#lang", "en")
    page.wait_for_function("t => document.querySelector('#turn')?.textContent === t",
                           arg=STEPS[1].title)
    learner.play("[data-act=draw]", "king")
    learner.play("[data-take=fruit]", "feed")
    learner.press("[data-act=feed]")
    page.wait_for_selector(".picking")
    assert_accessible(page, "the lesson's dragon feeding")
    learner.play('[data-act="feed wine wine"]', "dragon_draw")
    learner.play("[data-act=draw]", "dragon")
    assert_accessible(page, "the lesson's drawn dragon")
    page.click("#leave-lesson")
    page.wait_for_selector("form#create")
    assert page.url.rstrip("/") == server.base.rstrip("/")
    context.close()


@pytest.mark.parametrize("code", ["en", "de"])
def test_the_lesson_on_a_phone_and_in_dark_colours(
    server: LiveServer, browser: Any, code: str
) -> None:
    context = browser.new_context(color_scheme="dark", **PHONE)
    page = context.new_page()
    open_lesson(page, server.base, code)
    learner = Learner(page)
    learner.at("take")
    assert no_sideways_scroll(page)
    assert_accessible(page, "the lesson on a dark phone")
    for selector in ("#turn", "#lesson-text", ".lesson-task", "[data-take=cheese]"):
        where = page.locator(selector).first.bounding_box()
        assert where is not None and where["x"] >= 0 and where["x"] + where["width"] <= 390
    size = page.locator("[data-act=draw]").bounding_box()
    assert size is not None and size["height"] >= 44
    shot(page, f"learn-take-phone-{code}")
    play_lesson(learner, code, screens=f"phone-{code}")
    assert no_sideways_scroll(page)
    assert_accessible(page, "the lesson's scoring on a dark phone")
    context.close()


def test_the_wire_carries_the_learners_view_only(server: LiveServer) -> None:
    """R7b: every answer holds the learner's own drawn cards and never a bot's; the deck is a
    count; moves that are not the lesson's are refused with a reason."""
    game = LessonGame()
    moves: list[str] = []
    while not game.over:
        step = game.lesson.step
        assert step is not None
        legal = [str(a) for a in game.view().legal_actions()]
        move = str(step.example) if str(step.example) in legal else legal[0]
        status, body = server.request(
            "POST", "/api/learn", {"language": "en", "moves": moves, "move": move})
        assert status == 200, body
        assert body["word"] is None
        assert game.offer(game.view().legal_actions()[legal.index(move)]) is None
        moves = body["moves"]
        view = body["view"]
        assert "draws" in view["hands"][0]
        assert all("draws" not in hand for hand in view["hands"][1:]) or game.over
        assert isinstance(view["deck"], int)
        assert "deck_order" not in body and "seed" not in body
    assert body["step"] is None and len(body["scoring"]) >= 3
    assert body["score"]["scores"] == game.state.score().points
    status, bad = server.request("POST", "/api/learn", {"moves": ["take wine"]})
    assert status == 422 and bad["error"]["code"] == "bad_lesson_moves"
    status, junk = server.request("POST", "/api/learn", {"moves": [], "move": "eat the king"})
    assert status == 422 and junk["error"]["code"] == "bad_lesson_move"
    status, _unknown = server.request("POST", "/api/learn", {"language": "xx"})
    assert status == 404
    status, _extra = server.request("POST", "/api/learn", {"moves": [], "deck": ["cheese"]})
    assert status == 422
