"""The badge of games awaiting your move, on every page (issue: nothing says "your move"
outside My games): two accounts at a turn-based table in chromium; the one to move sees the
count beside My games on the lobby and on another page, in their language and with a text
a screen reader reads; the other sees no badge; the page stays axe clean."""

from __future__ import annotations

import time
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from server.kb_live import LiveServer  # noqa: E402
from web.test_web_accounts import axe_clean, register  # noqa: E402

FETCH = """async ([method, path, body]) => {
  const csrf = (document.cookie.match(/(?:^|;\\s*)kb_csrf=([^;]+)/) || [])[1] || "";
  const reply = await fetch(path, {method, credentials: "same-origin",
    headers: {"content-type": "application/json", "x-csrf-token": decodeURIComponent(csrf)},
    body: body === null ? undefined : JSON.stringify(body)});
  return [reply.status, reply.status === 204 ? null : await reply.json()];
}"""


def call(page: Any, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    status, answer = page.evaluate(FETCH, [method, path, body])
    return int(status), answer


def test_the_player_to_move_sees_the_badge_on_every_page(server: LiveServer,
                                                          browser: Any) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    ann, bob = (context.new_page() for context in contexts)
    register(ann, server, "Badge Ann")
    register(bob, server, "Badge Bob")
    status, grant = call(ann, "POST", "/api/tables",
                         {"name": "x", "seats": 3, "bot_level": "random",
                          "clock_seconds": 86400})
    assert status == 201, grant
    table_id = grant["table"]["id"]
    assert call(bob, "POST", f"/api/tables/{table_id}/join", {"name": "x"})[0] == 201
    assert call(ann, "POST", f"/api/tables/{table_id}/start")[0] == 200

    deadline = time.monotonic() + 30
    counts = [0, 0]
    while counts == [0, 0]:  # the bot's turn comes first sometimes: it moves at once
        assert time.monotonic() < deadline, "nobody's move came"
        counts = [call(page, "GET", "/api/me/awaiting")[1]["count"] for page in (ann, bob)]
    assert sorted(counts) == [0, 1]
    mover, other = (ann, bob) if counts[0] else (bob, ann)

    for path in ("/", "/leaderboard"):
        mover.goto(server.base + path)
        badge = mover.locator(".account-nav #awaiting")
        badge.wait_for(state="visible")
        assert badge.inner_text().split()[0] == "1"
        assert mover.locator("#awaiting .visually-hidden").inner_text() == (
            "games awaiting your move: 1")
    axe_clean(mover)

    with other.expect_response(lambda reply: "/api/me/awaiting" in reply.url) as asked:
        other.goto(server.base + "/")
    assert asked.value.json()["count"] == 0
    other.wait_for_function("document.getElementById('awaiting') !== null")
    assert other.locator("#awaiting").is_hidden()

    mover.evaluate("localStorage.setItem('kingsbreakfast.language', 'de')")
    mover.goto(server.base + "/")
    mover.locator("#awaiting").wait_for(state="visible")
    assert mover.locator("#awaiting .visually-hidden").inner_text() == (
        "Spiele, in denen du am Zug bist: 1")
    for context in contexts:
        context.close()
