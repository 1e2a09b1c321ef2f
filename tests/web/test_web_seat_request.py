"""Asking for a seat its player left, in the browser. Ann hosts, Bob plays, the game runs and
Bob leaves (a bot plays his seat). Cid, watching, asks for the seat and waits; Ann declines,
Cid is told so and never sees the seat's hand. Dee asks next; Ann lets her sit, and Dee's page
turns from a spectator's into the player's of that seat, hand and all. Nothing of the seat's
hidden cards reaches a newcomer's page before the host says yes."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
pytest.importorskip("axe_playwright_python")

from server.kb_live import LiveServer
from web.auditing import assert_accessible

WAIT = 20_000  # ms: a bound on each wait, never a pause
SEAT = 1  # Bob's seat, the one asked for


def watch_frames(page: Any) -> list[dict[str, Any]]:
    """Every frame the page's table sockets receive, in order."""
    frames: list[dict[str, Any]] = []

    def on_socket(socket: Any) -> None:
        def received(payload: Any) -> None:
            if isinstance(payload, str):
                frames.append(json.loads(payload))

        socket.on("framereceived", received)

    page.on("websocket", on_socket)
    return frames


def shows_hidden_cards(frame: dict[str, Any]) -> bool:
    """Whether a frame carries the asked-for seat's drawn (hidden) cards."""
    view = frame.get("view")
    if not isinstance(view, dict):
        return False
    hands = view.get("hands") or []
    return len(hands) > SEAT and "draws" in hands[SEAT]


def open_game_bob_leaves(server: LiveServer, host: Any) -> str:
    """Ann opens a three-seat table, Bob joins, Ann deals, Bob leaves; the table's id."""
    host.goto(server.base + "/")
    host.fill("input[name=name]", "Ann")
    host.select_option("select[name=seats]", "3")
    host.click("form#create button[type=submit]")
    host.wait_for_url(re.compile(r".*/t/[\w-]+$"))
    host.wait_for_selector("#start")
    table_id = str(host.url.rsplit("/", 1)[1])
    status, bob = server.request("POST", f"/api/tables/{table_id}/join", {"name": "Bob"})
    assert status == 201 and bob["seat"] == SEAT
    host.wait_for_selector("ol.seats li:has-text('Bob')", timeout=WAIT)
    host.click("#start")
    host.wait_for_selector(".game", timeout=WAIT)
    status, _ = server.request("POST", f"/api/tables/{table_id}/leave", token=bob["token"])
    assert status == 204
    return table_id


def ask_for_the_seat(page: Any, base: str, table_id: str, name: str) -> None:
    page.goto(f"{base}/t/{table_id}")
    page.wait_for_selector("#seat-ask-button", timeout=WAIT)
    assert page.locator("#seat-ask-title").inner_text() == f"Seat {SEAT + 1} is free"
    assert page.locator(".hand").count() == 0  # a spectator: no hand of any seat
    page.fill("#seat-ask-name", name)
    page.click("#seat-ask-button")
    page.wait_for_selector(
        f"#seat-ask-waiting:has-text('Waiting for the host to let you take seat {SEAT + 1}')",
        timeout=WAIT,
    )
    assert page.locator(".hand, .cards .private").count() == 0  # still no hidden card shown


def answer(host: Any, name: str, button: str) -> None:
    request = host.locator("#seat-requests p", has_text=f"{name} asks to take seat {SEAT + 1}")
    request.wait_for(timeout=WAIT)
    # the request bar never hides the bottom of the page: scrolled to the end, the last part
    # of the page (the table's chat) ends above the bar
    host.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    bar = host.locator("#seat-requests").bounding_box()
    chat = host.locator(".chat").bounding_box()
    assert bar is not None and chat is not None
    assert chat["y"] + chat["height"] <= bar["y"] + 1, (chat, bar)
    request.get_by_role("button", name=button).click()
    request.wait_for(state="detached", timeout=WAIT)


def test_a_newcomer_asks_for_a_freed_seat_and_the_host_answers(
    server: LiveServer, browser: Any
) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(3)]
    host, cid, dee = (context.new_page() for context in contexts)
    errors: list[str] = []
    for page in (host, cid, dee):
        page.on("pageerror", lambda error: errors.append(str(error)))
    cid_frames = watch_frames(cid)
    dee_frames = watch_frames(dee)
    table_id = open_game_bob_leaves(server, host)

    # Cid asks and waits; the host is asked, and says no
    ask_for_the_seat(cid, server.base, table_id, "Cid")
    assert_accessible(cid, "a newcomer waiting for the host")
    host.locator("#seat-requests p", has_text="Cid").wait_for(timeout=WAIT)
    assert_accessible(host, "the host asked for a seat")
    answer(host, "Cid", "Decline")
    cid.wait_for_selector(
        "#seat-ask-note:has-text('The host declined your request for the seat.')",
        timeout=WAIT,
    )
    assert cid.locator("#seat-ask-waiting").count() == 0
    assert cid.locator(".hand").count() == 0
    assert_accessible(cid, "a newcomer the host declined")
    # Cid watches on: the page still shows the table, as a spectator's
    cid.wait_for_selector(".game .status:has-text('You are watching')", timeout=WAIT)

    # Dee asks next; the host lets her sit
    ask_for_the_seat(dee, server.base, table_id, "Dee")
    answer(host, "Dee", "Let them sit")
    dee.wait_for_selector(".hand", timeout=WAIT)
    dee.wait_for_selector("#seat-ask", state="detached", timeout=WAIT)
    assert dee.locator(".players li[data-seat='1'] strong").inner_text() == "Dee"
    assert dee.locator(".game .status:has-text('You are watching')").count() == 0
    assert_accessible(dee, "the newcomer seated")

    # before the host's yes, nothing of the seat's hidden cards reached either newcomer
    states = [f for f in dee_frames if f.get("type") == "state"]
    seated = next(i for i, f in enumerate(states) if f.get("you") == SEAT)
    assert seated > 0 and all(f.get("you") is None for f in states[:seated])
    assert not any(shows_hidden_cards(f) for f in states[:seated])
    assert shows_hidden_cards(states[seated])
    assert [f for f in cid_frames if f.get("type") == "state"]
    assert not any(shows_hidden_cards(f) for f in cid_frames)
    assert not any(f.get("you") is not None for f in cid_frames if f.get("type") == "state")
    declined = [f.get("code") for f in cid_frames if f.get("type") == "error"]
    assert "seat_declined" in declined
    # Dee's page only knows frames from sockets she opened: nothing other pages were sent
    assert not any(f.get("type") == "seat_request" for f in dee_frames + cid_frames)
    assert errors == []
    for context in contexts:
        context.close()
