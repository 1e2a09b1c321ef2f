"""axe-core finds no violation on any page or state of the browser client: lobby, rules,
waiting room, the table at your turn, the feed picker, the dragon dialog, the score, the
replay, and the table on a phone-sized screen."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("axe_playwright_python")

from server.kb_live import LiveServer  # noqa: E402
from web.auditing import assert_accessible  # noqa: E402
from web.playing import open_solo_table, play_to_the_end  # noqa: E402

PHONE = {
    "viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
    "device_scale_factor": 2,
}


def test_lobby_rules_and_waiting_room_pass_axe(server: LiveServer, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#tables li")  # the lists have arrived
    assert_accessible(page, "lobby")
    page.click("#rules-link")
    page.wait_for_selector(".rules h1, .rules h2")
    assert_accessible(page, "rules")
    for path, ready in (("/login", "form"), ("/leaderboard", "#board > *"), ("/me", "#games > *")):
        page.goto(server.base + path)
        page.wait_for_selector(ready)
        assert_accessible(page, path)
    page.goto(server.base + "/")
    page.fill("input[name=name]", "Ann")
    page.click("form#create button[type=submit]")
    page.wait_for_selector("#start")
    assert_accessible(page, "waiting room")
    context.close()


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_every_state_of_a_game_passes_axe(
    server: LiveServer, browser: Any, screen: str
) -> None:
    options = PHONE if screen == "phone" else {"viewport": {"width": 1280, "height": 900}}
    context = browser.new_context(**options)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    table_id = open_solo_table(page, server.base)
    visited: list[str] = []

    def audit(state: str) -> None:
        visited.append(state)
        assert_accessible(page, f"{state} ({screen})")

    play_to_the_end(page, audit)
    # the feed picker and the dragon dialog are audited when the cards bring them; the test
    # below brings them for sure
    assert {"your turn", "score"} <= set(visited), visited
    page.goto(f"{server.base}/replay/{table_id}")
    page.wait_for_selector(".replay-controls")
    assert_accessible(page, f"replay, first step ({screen})")
    page.click("button[data-go=last]")
    page.wait_for_selector("#score")
    assert_accessible(page, f"replay, last step ({screen})")
    assert errors == []
    context.close()


def forge_a_drawn_dragon(text: str, done: list[bool]) -> str:
    """The first state frame at the player's turn, rewritten as if they had just drawn a
    dragon (R7a) with the king holding two dishes: the dialog and then the feed picker show
    however the cards fall."""
    frame = json.loads(text)
    view = frame.get("view")
    if done or frame.get("type") != "state" or not view or view["to_move"] != frame["you"]:
        return text
    done.append(True)
    view["king"] = {**view["king"], "bread": 2, "cheese": 1}
    view["pending_dragon"] = True
    view["legal"] = ["place_dragon", "feed bread bread", "feed bread cheese"]
    return json.dumps(frame)


def test_the_dragon_dialog_and_the_feed_picker_pass_axe(
    server: LiveServer, browser: Any
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    done: list[bool] = []

    def relay(socket: Any) -> None:
        upstream = socket.connect_to_server()
        upstream.on_message(lambda text: socket.send(forge_a_drawn_dragon(text, done)))

    page.route_web_socket(re.compile(r"/ws/tables/"), relay)
    open_solo_table(page, server.base)
    page.wait_for_selector("dialog[open] button[data-dragon=use]")
    assert_accessible(page, "dragon dialog")
    page.click("dialog[open] button[data-dragon=use]")
    page.wait_for_selector("button.pickable")
    assert_accessible(page, "feed picker")
    context.close()
