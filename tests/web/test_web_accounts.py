"""Browser journey with accounts: two players register, play a rated 3-player game with a
bot to the end, both profiles show the rating moved, a rematch takes one click each, and a
chat line holding markup shows as the characters typed (no script runs, no element is made).
Screenshots of the profile and the leaderboard in English and German are saved as artifacts.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from server.kb_live import LiveServer  # noqa: E402
from web.browsing import shot  # noqa: E402
from web.test_web_e2e import play_one_move, wait_for_a_turn_or_the_end  # noqa: E402


def axe_clean(page: Any, context: str | None = None) -> None:
    """No axe-core violation on the page (or in the part of it ``context`` selects)."""
    axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe()
    results = axe.run(page, context=context)
    assert results.violations_count == 0, results.generate_report()


XSS = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>'


def register(page: Any, server: LiveServer, name: str) -> None:
    page.goto(server.base + "/login")
    page.wait_for_selector("form#register")
    axe_clean(page)
    page.fill("form#register input[name=name]", name)
    page.fill("form#register input[name=password]", "a long enough password")
    page.click("form#register button[type=submit]")
    page.wait_for_url(re.compile(r".*/me$"))
    page.wait_for_selector(f".account-nav >> text={name}")
    page.wait_for_selector("#games h2")
    axe_clean(page)


def play_to_the_end(ann: Any, bob: Any) -> None:
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        if ann.locator("#score").count() and bob.locator("#score").count():
            return
        moved = False
        for page in (ann, bob):
            moved = play_one_move(page) is not None or moved
        if not moved:
            wait_for_a_turn_or_the_end(ann, bob)
    pytest.fail("the game did not finish in time")


def profile(page: Any, server: LiveServer, name: str) -> dict[str, str]:
    page.goto(f"{server.base}/players/{name}")
    page.wait_for_selector("dl.stats")
    terms = page.locator("dl.stats dt").all_inner_texts()
    values = page.locator("dl.stats dd").all_inner_texts()
    return {"rating": page.inner_text("p.rating"), **dict(zip(terms, values, strict=True))}


def test_two_accounts_play_rated_rematch_and_chat(server: LiveServer, browser: Any) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    ann, bob = (context.new_page() for context in contexts)
    errors: list[str] = []
    for page in (ann, bob):
        page.on("pageerror", lambda error: errors.append(str(error)))
    register(ann, server, "Ann")
    register(bob, server, "Bob")
    assert ann.evaluate("Object.keys(localStorage).filter(k => k.includes('token'))") == []
    assert "kb_session" not in ann.evaluate("document.cookie")  # HttpOnly: scripts can't see it

    ann.goto(server.base + "/")
    # an account plays under its own name: the form asks for none
    assert ann.locator("form#create input[name=name]").count() == 0
    assert "Ann" in ann.locator("form#create .playing-as").inner_text()
    ann.select_option("select[name=seats]", "3")
    ann.select_option("select[name=bot_level]", "random")
    ann.click("form#create button[type=submit]")
    ann.wait_for_url(re.compile(r".*/t/[\w-]+$"))
    bob.goto(ann.url)
    # an account takes a seat under its own name: the join form asks for none
    bob.wait_for_selector("form#join .playing-as >> text=Bob")
    assert bob.locator("form#join input[name=name]").count() == 0
    bob.click("form#join button[type=submit]")
    bob.wait_for_selector("#leave")
    ann.wait_for_selector("text=Bob")
    ann.click("#start")
    ann.wait_for_selector(".game")
    bob.wait_for_selector(".game")
    # a rated table (two accounts) says so, and offers no Hint button (the server refuses
    # hints there anyway: tests/server)
    deadline = time.monotonic() + 30
    while not (ann.locator(".game.my-turn").count() or bob.locator(".game.my-turn").count()):
        assert time.monotonic() < deadline, "nobody's turn came"
        wait_for_a_turn_or_the_end(ann, bob)
    mover = ann if ann.locator(".game.my-turn").count() else bob
    mover.wait_for_selector("#rated-note")
    assert mover.locator("button[data-act=hint]").count() == 0
    assert mover.locator("table.hint").count() == 0
    play_to_the_end(ann, bob)
    first_table = ann.url

    # rematch: one click each; Bob hears of Ann's click at the old table
    ann.click("button[data-rematch]")
    ann.wait_for_url(lambda url: url != first_table and "/t/" in url)
    bob.wait_for_selector(".rematch-votes")
    bob.click("button[data-rematch]")
    bob.wait_for_url(ann.url)
    ann.wait_for_selector(".game")
    bob.wait_for_selector(".game")

    # chat: markup arrives as text, nothing runs
    ann.fill(".chat input[name=text]", XSS)
    ann.click(".chat button[type=submit]")
    line = bob.locator(".chat-lines .chat-text").last
    line.wait_for()
    assert line.inner_text() == XSS
    assert bob.evaluate("window.__xss") is None and ann.evaluate("window.__xss") is None
    assert bob.locator(".chat-lines img, .chat-lines script").count() == 0
    axe_clean(bob, ".chat")
    bob.click(".chat button[data-mute='0']")  # Ann sits in seat 0
    assert bob.locator(".chat-lines .chat-text").count() == 0
    assert ann.locator(".log").inner_text().count("onerror") == 0  # chat is not the game log

    # both ratings moved, on both profiles
    for page, name in ((ann, "Ann"), (bob, "Bob")):
        seen = profile(page, server, name)
        assert seen["Rated games"] == "1" and seen["Games played"] == "1"
        assert seen["rating"] != "Rating: 0.00"
        assert seen["rating"].endswith("provisional")  # one game, one opponent
        assert page.locator("abbr.provisional").get_attribute("title") == (
            "A rating is established after 10 rated games against 5 different established "
            "players, once its uncertainty is small enough."
        )
        assert page.locator("figure img").get_attribute("alt")
        axe_clean(page)
    shot(ann, "profile-en")
    ann.goto(server.base + "/leaderboard")
    ann.wait_for_selector("text=No rating is established yet.")  # both are provisional
    assert ann.locator("table.board").count() == 0
    ann.wait_for_selector("text=Only established ratings are listed")
    axe_clean(ann)
    shot(ann, "leaderboard-en")
    ann.select_option("#lang", "de")
    ann.wait_for_selector("text=Bestenliste")
    shot(ann, "leaderboard-de")
    ann.goto(server.base + "/players/Bob")
    ann.wait_for_selector("text=Gespielte Spiele")
    assert ann.locator("abbr.provisional").inner_text() == "vorläufig"
    shot(ann, "profile-de")
    ann.goto(server.base + "/me")
    ann.wait_for_selector("h2:has-text('Laufende Tische')")
    assert ann.locator("a[download]").count() == 1  # the finished game's record
    axe_clean(ann)
    ann.goto(server.base + "/account")
    ann.wait_for_selector("form#password")
    axe_clean(ann)
    assert errors == []
    for context in contexts:
        context.close()
