"""The keyboard keeps its place: focus survives every redraw and goes to the status line at
the player's turn; the single-key shortcuts can be switched off (WCAG 2.1.4); every quick
press in the replay counts."""

from __future__ import annotations

from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect  # noqa: E402

from server.kb_live import LiveServer  # noqa: E402
from web.playing import open_solo_table, play_to_the_end  # noqa: E402

ACTIONS = "document.querySelector('.log ol').dataset.actions"
FOCUS_IN_APP = (
    "document.activeElement !== document.body && "
    "document.getElementById('app').contains(document.activeElement)"
)


def my_turn(page: Any) -> None:
    page.wait_for_selector(".game.my-turn", timeout=30_000)


def test_focus_goes_to_the_status_line_and_survives_a_move(
    server: LiveServer, browser: Any
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    open_solo_table(page, server.base)
    my_turn(page)
    expect(page.locator("#turn")).to_be_focused()
    # a move made from the keyboard: focus must not fall back to the page body
    button = page.locator("button.stack.legal[data-take], button[data-act=draw]:not([disabled])")
    button.first.focus()
    before = page.evaluate(ACTIONS)
    page.keyboard.press("Enter")
    page.locator(f".log ol:not([data-actions='{before}'])").wait_for()
    assert page.evaluate(FOCUS_IN_APP)
    # and at the next turn it is on the status line again
    my_turn(page)
    expect(page.locator("#turn")).to_be_focused()
    context.close()


def test_single_key_shortcuts_can_be_switched_off(server: LiveServer, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    open_solo_table(page, server.base)
    my_turn(page)
    page.uncheck("#shortcuts")
    assert "1–7" not in page.locator(".keys").inner_text()  # no hint for keys that are off
    page.reload()
    my_turn(page)
    assert not page.is_checked("#shortcuts")  # the choice is remembered
    # "d" would draw; switched off, it does nothing, so the take clicked next is the move
    # (had the draw gone first, the take would have been refused as a stale move)
    page.locator("#turn").focus()
    page.keyboard.press("d")
    page.locator("button.stack.legal[data-take]").first.click()
    page.wait_for_selector(".log li:has-text('Ann took')")
    mine = page.locator(".log li").filter(has_text="Ann ")
    assert mine.count() == 1, mine.all_inner_texts()
    context.close()


def test_every_quick_press_in_the_replay_counts(server: LiveServer, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    table_id = open_solo_table(page, server.base)
    play_to_the_end(page, lambda state: None, prefer_draw=False)
    page.goto(f"{server.base}/replay/{table_id}")
    page.wait_for_selector("text=Step 0 of")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("text=Step 3 of")
    page.click("button[data-go=next]")
    page.wait_for_selector("text=Step 4 of")
    expect(page.locator("button[data-go=next]")).to_be_focused()  # kept its place
    context.close()


def test_focus_is_kept_after_create_table_and_the_deal(server: LiveServer, browser: Any) -> None:
    """Pressing "Create table" from the keyboard leaves the keyboard on the waiting room's
    heading, and "Start the game" leaves it in the game: never on the page body."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(server.base + "/")
    page.fill("input[name=name]", "Ann")
    page.select_option("select[name=seats]", "3")
    page.locator("form#create button[type=submit]").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#start")
    expect(page.locator(".waiting h1")).to_be_focused()
    page.locator("#start").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector(".game")
    page.wait_for_timeout(300)
    assert page.evaluate(FOCUS_IN_APP)
    context.close()

