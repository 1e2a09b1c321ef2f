"""Browser end to end: Playwright drives Debian's chromium against a real server process.

Two people create and join a table from two browser contexts (a desktop and a phone-sized
screen), the host starts, bots fill the other seats, both play by clicking the highlighted
legal moves until the score screen shows. Screenshots are saved as test artifacts in
``$KINGSBREAKFAST_ARTIFACTS`` (default ``test-artifacts/web``).
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from server.kb_live import LiveServer  # noqa: E402
from web.browsing import no_sideways_scroll, shot  # noqa: E402


def wait_for_a_turn_or_the_end(*pages: Any) -> None:
    """While bots move, wait until one of the pages may act or shows the score: each page is
    asked in turn to wait for that in the browser itself, briefly, so neither page's turn
    goes unseen while the other is being watched."""
    for page in pages:
        try:
            page.wait_for_selector(".game.my-turn, #score", timeout=250)
            return
        except playwright_api.TimeoutError:
            continue


def play_one_move(page: Any, keyboard: bool = False) -> str | None:
    """Click a highlighted legal move if it is this page's turn (or press its key);
    how it moved ("key" or "click"), or None when it did not."""
    if page.locator(".game.my-turn").count() == 0:
        return None
    if keyboard and page.locator("button[data-act=draw]:not([disabled])").count():
        # the log shows the last 60 actions only: count the actions, not the lines
        count = "Number(document.querySelector('.log ol').dataset.actions)"
        before = page.evaluate(count)
        page.keyboard.press("d")
        try:
            # (a selector, not a script: the page's CSP forbids evaluating strings)
            page.locator(f".log ol:not([data-actions='{before}'])").wait_for(timeout=10_000)
        except playwright_api.TimeoutError:
            # the press met a socket that was reconnecting or a refused (stale) version, as
            # a player's can: the game loop presses again on a later turn
            return None
        return "key"
    for selector in (
        "dialog[open] button[data-dragon=place]",
        "button.stack.legal[data-take]",
        "button[data-act=draw]:not([disabled])",
        "button[data-act=pass]",
    ):
        target = page.locator(selector).first
        if target.count():
            try:
                target.click(timeout=2000)
                return "click"
            except playwright_api.Error:
                return None
    feed = page.locator("button[data-act=feed]:not([disabled])").first
    if feed.count():
        feed.click(timeout=2000)
        for _ in range(2):
            page.locator("button.pickable").first.click(timeout=2000)
        return "click"
    return None


def test_two_players_and_bots_play_a_full_game(server: LiveServer, browser: Any) -> None:
    desktop = browser.new_context(viewport={"width": 1280, "height": 900})
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
        device_scale_factor=2,
    )
    ann = desktop.new_page()
    bob = phone.new_page()
    errors: list[str] = []
    for page in (ann, bob):
        page.on("pageerror", lambda error: errors.append(str(error)))

    ann.goto(server.base + "/")
    ann.fill("input[name=name]", "Ann")
    ann.select_option("select[name=seats]", "4")
    ann.select_option("select[name=bot_level]", "random")
    shot(ann, "01-lobby-desktop")
    ann.click("form#create button[type=submit]")
    ann.wait_for_url(re.compile(r".*/t/[\w-]+$"))
    invite = ann.url
    ann.wait_for_selector("#invite")
    assert ann.input_value("#invite") == invite

    bob.goto(invite)
    bob.wait_for_selector("form#join")
    bob.fill("form#join input[name=name]", "Bob")
    bob.click("form#join button[type=submit]")
    bob.wait_for_selector("#leave")  # seated: the page now speaks for seat 2
    ann.wait_for_selector("text=Bob")
    shot(ann, "02-waiting-room-desktop")
    shot(bob, "02-waiting-room-phone")

    ann.click("#start")
    ann.wait_for_selector(".game")
    bob.wait_for_selector(".game")
    # screen-reader labels on every stack of the table and the king's plate
    assert ann.locator("[aria-label*='on the table']").count() >= 7
    assert ann.locator("[aria-label*='the king has']").count() == 7

    moves = {"ann": 0, "bob": 0}
    keyed = 0  # moves made with the keyboard shortcut
    deadline = time.monotonic() + 150
    took_mid_shots = False
    while time.monotonic() < deadline:
        if ann.locator("#score").count() and bob.locator("#score").count():
            break
        moved = False
        for name, page in (("ann", ann), ("bob", bob)):
            how = play_one_move(page, keyboard=name == "ann" and moves["ann"] % 2 == 0)
            if how is not None:
                moves[name] += 1
                keyed += how == "key"
                moved = True
        if not took_mid_shots and moves["ann"] >= 3 and moves["bob"] >= 3:
            shot(ann, "03-game-desktop")
            shot(bob, "03-game-phone")
            assert no_sideways_scroll(bob)
            took_mid_shots = True
        if not moved:
            wait_for_a_turn_or_the_end(ann, bob)
    else:
        shot(ann, "99-timeout-desktop")
        shot(bob, "99-timeout-phone")
        pytest.fail(f"the game did not finish in time ({moves})")

    assert moves["ann"] > 0 and moves["bob"] > 0
    assert keyed > 0, "no move was made with the keyboard"
    for page in (ann, bob):
        page.locator("#score").wait_for()
        rows = page.locator("#score tbody tr")
        assert rows.count() == 4
        text = page.locator("#score").inner_text()
        assert "Ann" in text and "Bob" in text
    shot(ann, "04-score-desktop")
    shot(bob, "04-score-phone")
    assert no_sideways_scroll(bob) and no_sideways_scroll(ann)

    table_id = invite.rsplit("/", 1)[1]
    status, record = server.request("GET", f"/games/{table_id}/record")
    assert status == 200
    assert record["players"][:2] == ["Ann", "Bob"]
    assert len(record["deck"]) == 110

    # the replay viewer steps through the archived record
    ann.click("[data-replay]")
    ann.wait_for_selector(".replay-controls")
    ann.click("button[data-go=next]")
    ann.wait_for_selector("text=Step 1 of")
    ann.click("button[data-go=last]")
    steps = len(record["actions"])
    ann.wait_for_selector(f"text=Step {steps} of {steps}")
    ann.locator("#score").wait_for()  # the final step shows the score breakdown
    shot(ann, "05-replay-desktop")
    assert errors == []
    desktop.close()
    phone.close()
