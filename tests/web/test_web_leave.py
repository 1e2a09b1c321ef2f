"""Leaving a running game from the table: a confirmation says a bot plays the seat (and, at
a rated table, that leaving counts as a loss); staying changes nothing; leaving frees the
seat, the lobby says what happened, and the game goes on with a bot in the seat, named
"Bot (was Ann)" and told in the log."""

from __future__ import annotations

import re
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from server.kb_live import LiveServer  # noqa: E402
from web.auditing import assert_accessible  # noqa: E402
from web.browsing import shot, shots  # noqa: E402
from web.playing import open_solo_table  # noqa: E402
from web.test_web_accounts import register  # noqa: E402
from web.test_web_awaiting import call  # noqa: E402

PHONE = {
    "viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
    "device_scale_factor": 2,
}
WORDS = {  # the dialog's first sentence in each language (the catalogue's text)
    "en": "A bot plays your seat", "de": "Ein Bot spielt deinen Platz",
    "hu": "egy bot viszi tovább", "fr": "Un bot joue à votre place", "vi": "Một bot sẽ chơi",
}


def pick_language(page: Any, code: str) -> None:
    page.select_option("#lang", code)
    page.wait_for_selector(f"html[lang={code}]")  # selectors: the page's CSP forbids eval


@pytest.mark.parametrize("code", ["en", "de", "hu", "fr", "vi"])
def test_leaving_a_running_game_asks_first_and_says_a_bot_plays_on(
    server: LiveServer, browser: Any, code: str
) -> None:
    phone = code in ("en", "de")
    context = browser.new_context(**PHONE) if phone else browser.new_context(
        viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.base + "/")
    pick_language(page, code)
    table_id = open_solo_table(page, server.base)
    watcher_context = browser.new_context(viewport={"width": 1280, "height": 900})
    watcher = watcher_context.new_page()
    watcher.goto(f"{server.base}/t/{table_id}")
    watcher.wait_for_selector(".game")

    page.click("#leave-game")
    dialog = page.locator("dialog#leave-dialog[open]")
    dialog.wait_for()
    assert WORDS[code] in dialog.inner_text()
    assert dialog.locator(".rated-note").count() == 0  # no accounts here: not rated
    assert page.evaluate("document.activeElement.dataset.leave") == "stay"
    assert_accessible(page, f"the leave dialog ({code})")
    if code in ("en", "de"):
        shots(page, "leave-dialog", code)

    # staying: the dialog goes, the seat is still ours, the button has the keyboard again
    dialog.locator("[data-leave=stay]").click()
    assert page.locator("dialog#leave-dialog").count() == 0
    assert page.evaluate("document.activeElement.id") == "leave-game"

    page.click("#leave-game")
    page.locator("dialog#leave-dialog[open] [data-leave=go]").click()
    page.wait_for_url(re.compile(r".*/$"))
    notice = page.locator("#notice")
    notice.wait_for()
    assert notice.inner_text().strip(), "the lobby says the game was left"
    if code in ("en", "de"):
        shots(page, "leave-done", code)

    # the watcher sees the seat played by a bot under one name, "Bot (was Ann)", and the
    # log says who left; the game goes on without the player
    watcher.locator(".players li.player strong", has_text="Bot (was Ann)").wait_for()
    assert watcher.locator(".players li.player strong", has_text=re.compile(r"^Ann$")).count() == 0
    page.goto(f"{server.base}/t/{table_id}")
    page.wait_for_selector(".game")
    assert page.locator("#leave-game").count() == 0  # a spectator now: nothing to leave
    assert errors == []
    watcher_context.close()
    context.close()


def test_a_rated_table_says_leaving_counts_as_a_loss(server: LiveServer, browser: Any) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    cy, dan = (context.new_page() for context in contexts)
    register(cy, server, "Cyril")
    register(dan, server, "Dana")
    cy.goto(server.base + "/")
    if cy.locator("form#create input[name=name]").count():
        cy.fill("form#create input[name=name]", "Cyril")
    cy.select_option("select[name=seats]", "3")
    cy.click("form#create button[type=submit]")
    cy.wait_for_url(re.compile(r".*/t/[\w-]+$"))
    dan.goto(cy.url)
    dan.wait_for_selector("form#join .playing-as >> text=Dana")  # an account: no name asked
    dan.click("form#join button[type=submit]")
    dan.wait_for_selector("#leave")
    cy.wait_for_selector("text=Dana")
    cy.click("#start")
    dan.wait_for_selector(".game")
    dan.click("#leave-game")
    note = dan.locator("dialog#leave-dialog[open] .rated-note")
    note.wait_for()
    assert "loss" in note.inner_text()
    assert_accessible(dan, "the leave dialog at a rated table")
    shot(dan, "leave-dialog-rated-en")
    dan.locator("dialog#leave-dialog[open] [data-leave=stay]").click()
    for context in contexts:
        context.close()


def test_a_player_who_stays_reads_who_left_and_sees_one_name_for_the_seat(
        server: LiveServer, browser: Any) -> None:
    """Two guests and a bot: Ann leaves, Bea stays (and is not to move, so the game waits
    for her). Bea's log says Ann left and a bot plays the seat, it is said aloud, and the
    seat reads "Bot (was Ann)" in the player list and in the log's moves alike."""
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    ann, bea = (context.new_page() for context in contexts)
    for page in (ann, bea):
        page.goto(server.base + "/")
        page.wait_for_selector("header")
    status, grant = call(ann, "POST", "/api/tables",
                         {"name": "Ann", "seats": 3, "bot_level": "random"})
    assert status == 201, grant
    table_id = grant["table"]["id"]
    assert call(bea, "POST", f"/api/tables/{table_id}/join", {"name": "Bea"})[0] == 201
    assert call(ann, "POST", f"/api/tables/{table_id}/start")[0] == 200
    for page in (ann, bea):
        page.goto(f"{server.base}/t/{table_id}")
        page.wait_for_selector(".game")
    ann.click("#leave-game")
    ann.locator("dialog#leave-dialog[open] [data-leave=go]").click()
    ann.wait_for_url(re.compile(r".*/$"))

    line = "Ann left the game: a bot plays their seat from here."
    bea.locator(".log li", has_text=line).wait_for()
    bea.locator(".players li.player strong", has_text="Bot (was Ann)").wait_for()
    assert bea.locator(".players li.player strong", has_text=re.compile(r"^Ann$")).count() == 0
    assert_accessible(bea, "the table after a player left")
    for context in contexts:
        context.close()
