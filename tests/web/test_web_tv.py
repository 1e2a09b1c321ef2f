"""The TV page (/tv) in chromium: reached from the navigation, it shows the featured game live
as a spectator (its socket says hello without a token and receives no drawn card of anyone
while the game runs), lists the games in play with each player's rating, moves on to the
next featured game when the one shown ends, reads in five languages and passes axe on a
desktop and on a phone (390 px) without sideways scrolling."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from server.kb_live import LiveServer  # noqa: E402
from web.auditing import assert_accessible  # noqa: E402
from web.browsing import no_sideways_scroll, server_port, shots_in  # noqa: E402

PHONE = {
    "viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
    "device_scale_factor": 2,
}
LIST_TITLES = {"en": "Games in play", "de": "Laufende Partien",
               "hu": "Folyamatban lévő játszmák", "fr": "Parties en cours",
               "vi": "Các ván đang chơi"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # hosts who never connect are not played for: a game ends only when the test says
    tmp = tmp_path_factory.mktemp("tv")
    live = LiveServer(f"sqlite:///{tmp / 'web.db'}", bot_delay=0.02, zombie_grace=600.0,
                      log_path=tmp / "server.log", port=server_port()).start()
    yield live
    live.stop()


def call(base: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"content-type": "application/json"}
    if token:
        headers["x-seat-token"] = token
    request = urllib.request.Request(base + path, method="POST" if body is not None else "GET",
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers=headers)
    with urllib.request.urlopen(request, timeout=15) as reply:
        raw = reply.read()
        return json.loads(raw) if raw else None


def dealt_table(base: str, host: str) -> tuple[str, str]:
    grant = call(base, "/api/tables", {"name": host, "seats": 3, "bot_level": "random"})
    table_id, token = grant["table"]["id"], grant["token"]
    call(base, f"/api/tables/{table_id}/start", {}, token)
    return table_id, token


def test_the_tv_shows_the_featured_game_then_the_next(server: LiveServer, browser: Any) -> None:
    first, first_token = dealt_table(server.base, "Ann")  # the older: featured first
    second, _ = dealt_table(server.base, "Bob")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    sent: list[str] = []
    received: list[str] = []

    def on_socket(ws: Any) -> None:
        ws.on("framesent", lambda payload: sent.append(str(payload)))
        ws.on("framereceived", lambda payload: received.append(str(payload)))

    page.on("websocket", on_socket)
    page.goto(server.base + "/")
    page.click('header a[href="/tv"]')  # the navigation leads there
    page.wait_for_selector(f'#tv-board[data-showing="{first}"] .tv-players')
    rows = page.locator(".tv-list li")
    assert [rows.nth(i).get_attribute("data-table") for i in range(rows.count())] == [
        first, second]
    assert "Ann (unrated)" in page.inner_text("#tv-board")
    assert page.locator(f'.tv-list li[data-table="{first}"] .on-tv').count() == 1
    assert_accessible(page, "the TV, desktop")

    call(server.base, f"/api/tables/{first}/leave", {}, first_token)  # a bot finishes it
    # the score a moment (tv.js: five seconds), then the next game by itself: the board is
    # read in the same breath as the score's notice, not by a later call that may already
    # find the next game there
    board = page.wait_for_function(
        """() => document.getElementById("tv-next")
            && document.getElementById("tv-board").innerText""", timeout=90_000).json_value()
    assert "point" in board, board
    page.wait_for_selector(f'#tv-board[data-showing="{second}"] .tv-players', timeout=90_000)
    assert "Bob (unrated)" in page.inner_text("#tv-board")
    assert [t["id"] for t in call(server.base, "/api/tv")["tables"]] == [second]

    hellos = [json.loads(f) for f in sent if '"hello"' in f]
    assert hellos and all(h == {"type": "hello", "token": None} for h in hellos)
    states = [json.loads(f) for f in received if f.startswith('{') and '"state"' in f]
    running = [s for s in states if s["type"] == "state" and s["score"] is None and s["view"]]
    assert running and all(s["you"] is None for s in running)
    for frame in running:  # nobody's drawn cards, and the deck only as a count
        assert all(set(hand) == {"takes", "hidden"} for hand in frame["view"]["hands"])
        assert isinstance(frame["view"]["deck"], int)
    page.close()


def test_the_tv_on_a_phone_in_five_languages(server: LiveServer, browser: Any) -> None:
    dealt_table(server.base, "Cyd")  # a game in play, whatever the first test left
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(server.base + "/tv")
    page.wait_for_selector("#tv-board .tv-players")
    assert no_sideways_scroll(page)
    assert_accessible(page, "the TV, phone")
    for code, title in LIST_TITLES.items():
        page.select_option("#lang", code)
        page.wait_for_selector(f"html[lang={code}]")
        assert page.inner_text("#tv-list-title") == title
        assert no_sideways_scroll(page)
    page.select_option("#lang", "en")
    page.wait_for_selector("html[lang=en]")
    shots_in(page, "tv")
    context.close()
