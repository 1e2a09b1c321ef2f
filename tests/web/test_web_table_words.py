"""What the pages say around the game: one card in the singular ("Deck: 1 card"), an
unknown address answered with a page in the player's language (JSON under /api/), a rated
table that says so and offers no hint, a play-now table that does not send its players
waiting for a host while the countdown runs, a lobby without a connection that says so, and
the rules readable offline (kept by the service worker)."""

from __future__ import annotations

import json
import os
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from server.kb_live import LiveServer
from web.browsing import server_port, shots
from web.playing import open_solo_table
from web.test_web_e2e import wait_for_a_turn_or_the_end


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The live server, with play now waiting long enough for the second player to be
    looked at before bots fill the table."""
    tmp = tmp_path_factory.mktemp("words")
    before = os.environ.get("KINGSBREAKFAST_PLAY_NOW_WAIT")
    os.environ["KINGSBREAKFAST_PLAY_NOW_WAIT"] = "120"
    try:
        live = LiveServer(
            f"sqlite:///{tmp / 'web.db'}", bot_delay=0.02, log_path=tmp / "server.log",
            port=server_port(),
        ).start()
    finally:
        if before is None:
            del os.environ["KINGSBREAKFAST_PLAY_NOW_WAIT"]
        else:
            os.environ["KINGSBREAKFAST_PLAY_NOW_WAIT"] = before
    yield live
    live.stop()


COUNT = """async (count) => {
  const src = document.querySelector('script[type=module]').src;
  const strings = await import(src.replace(/app\\.js$/, 'strings.js'));
  return strings.tCount('game.deckOne', 'game.deck', count);
}"""


@pytest.mark.parametrize(("code", "one", "two"), [
    ("en", "Deck: 1 card", "Deck: 2 cards"),
    ("de", "Stapel: 1 Karte", "Stapel: 2 Karten"),
    ("fr", "Pioche : 1 carte", "Pioche : 2 cartes"),
])
def test_the_deck_counts_in_the_singular_and_the_plural(
    server: LiveServer, browser: Any, code: str, one: str, two: str,
) -> None:
    context = browser.new_context(locale=code, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector(f"html[lang={code}]")
    open_solo_table(page, server.base, seats=3)
    page.wait_for_selector(".game .status")
    assert page.evaluate(COUNT, 1) == one
    assert page.evaluate(COUNT, 2) == two
    # the status line counts through the same words
    status = page.locator(".status").inner_text()
    shown = re.search(r"\d+", status.split(two.split("2")[0].strip())[1])
    assert shown is not None
    assert page.evaluate(COUNT, int(shown.group())) in status
    context.close()


def fetch(url: str, accept: str) -> tuple[int, str, str]:
    request = urllib.request.Request(url, headers={"Accept": accept})
    try:
        with urllib.request.urlopen(request) as reply:
            return reply.status, reply.headers["content-type"], reply.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["content-type"], error.read().decode()


def test_an_unknown_address_answers_a_page_to_a_browser_and_json_to_the_api(
    server: LiveServer, browser: Any,
) -> None:
    status, kind, body = fetch(server.base + "/no/such/page", "text/html,*/*;q=0.8")
    assert (status, kind.split(";")[0]) == (404, "text/html")
    assert "<main id=\"app\"" in body
    status, kind, body = fetch(server.base + "/api/no-such-call", "text/html,*/*;q=0.8")
    assert (status, kind) == (404, "application/json")
    json.loads(body)
    context = browser.new_context(locale="de", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    reply = page.goto(server.base + "/nirgendwo")
    assert reply is not None and reply.status == 404
    page.wait_for_selector("html[lang=de]")
    assert page.locator("h1").inner_text() == "Seite nicht gefunden"
    assert page.locator("form#create").count() == 0  # not the lobby under a wrong address
    shots(page, "not-found", "de")
    page.click("a:has-text('Zurück zur Lobby')")
    page.wait_for_selector("form#create")
    context.close()


def register(page: Any, base: str, name: str) -> None:
    page.goto(base + "/login")
    page.fill("form#register input[name=name]", name)
    page.fill("form#register input[name=password]", "a long enough password")
    page.click("form#register button[type=submit]")
    page.wait_for_url(re.compile(r".*/me$"))


def test_a_rated_table_says_so_and_offers_no_hint(server: LiveServer, browser: Any) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    ann, bob = (context.new_page() for context in contexts)
    register(ann, server.base, "Annie")
    register(bob, server.base, "Bobby")
    ann.goto(server.base + "/")
    ann.select_option("select[name=seats]", "3")
    ann.select_option("select[name=bot_level]", "random")
    ann.click("form#create button[type=submit]")
    ann.wait_for_url(re.compile(r".*/t/[\w-]+$"))
    bob.goto(ann.url)
    bob.click("form#join button[type=submit]")
    bob.wait_for_selector("#leave")
    ann.wait_for_selector("text=Bobby")
    ann.click("#start")
    for page in (ann, bob):
        page.wait_for_selector("#rated-note")
        assert "Rated game" in page.locator("#rated-note").inner_text()
    deadline = time.monotonic() + 30
    while not (ann.locator(".game.my-turn").count() or bob.locator(".game.my-turn").count()):
        assert time.monotonic() < deadline, "nobody's turn came"
        wait_for_a_turn_or_the_end(ann, bob)
    mover = ann if ann.locator(".game.my-turn").count() else bob
    assert mover.locator("button[data-act=draw]").count() == 1
    assert mover.locator("button[data-act=hint]").count() == 0
    shots(mover, "rated-table", "en")
    for context in contexts:
        context.close()
    # a guest's solo table is not rated: the hint is there
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    open_solo_table(page, server.base, seats=3)
    page.wait_for_selector(".game.my-turn button[data-act=hint]")
    assert page.locator("#rated-note").count() == 0
    context.close()


def test_a_play_now_table_does_not_send_its_players_waiting_for_a_host(
    server: LiveServer, browser: Any,
) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    pages = [context.new_page() for context in contexts]
    for page, name in zip(pages, ("Cleo", "Dora"), strict=True):
        page.goto(server.base + "/")
        page.fill("form#play-now input[name=player]", name)
        page.select_option("form#play-now select[name=size]", "4")
        page.click("form#play-now button[type=submit]")
        page.wait_for_url(re.compile(r".*/t/[\w-]+$"))
    assert pages[0].url == pages[1].url
    for page in pages:
        page.wait_for_selector("#matching #match-clock")
        page.wait_for_selector(".seats >> text=Dora")
    # the second player: the countdown says when the game starts, nobody else is waited for
    assert "The host starts the game" not in pages[1].locator(".waiting").inner_text()
    assert "starts in" in pages[1].locator("#match-clock").inner_text()
    shots(pages[1], "play-now-second-player", "en")
    for context in contexts:
        context.close()


def test_offline_the_lobby_says_so_and_the_rules_are_still_there(
    server: LiveServer, browser: Any,
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("form#create")
    assert page.locator("#offline").count() == 0
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now under the worker's control
    page.wait_for_selector("form#create")
    context.set_offline(True)
    page.goto(server.base + "/")
    page.wait_for_selector("#offline")
    assert "offline" in page.locator("#offline").inner_text()
    shots(page, "offline-lobby", "en")
    page.click("#rules-link")
    page.wait_for_selector(".rules h1")
    assert page.locator(".rules [role=alert]").count() == 0
    page.goto(server.base + "/rules")  # a fresh load without a network, too
    page.wait_for_selector(".rules h1")
    context.set_offline(False)
    page.goto(server.base + "/")
    page.wait_for_selector("form#create")
    assert page.locator("#offline").count() == 0
    context.close()
