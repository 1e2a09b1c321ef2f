"""Play now with several browsers: strangers asking for the same size and speed share a
table; one click from the lobby; a full table starts at once, else bots fill the empty seats
at the stated deadline; nobody is seated twice at one table, nor with a player they muted."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from server.kb_live import LiveServer  # noqa: E402
from web.auditing import assert_accessible  # noqa: E402
from web.browsing import server_port, shot, shots_in  # noqa: E402

WAIT = 8  # seconds a group waits for strangers in the deadline's test server
PATIENT = 600
"""Seconds a group waits in the other tests' server: those tests seat several strangers in
one group, and no deadline may pass while a loaded machine opens their pages."""
PHONE = {
    "viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
    "device_scale_factor": 2,
}


def start_server(tmp: Path, wait: int) -> LiveServer:
    before = os.environ.get("KINGSBREAKFAST_PLAY_NOW_WAIT")
    os.environ["KINGSBREAKFAST_PLAY_NOW_WAIT"] = str(wait)
    try:
        return LiveServer(
            f"sqlite:///{tmp / 'web.db'}", bot_delay=0.02, log_path=tmp / "server.log",
            port=server_port(),
        ).start()
    finally:
        if before is None:
            del os.environ["KINGSBREAKFAST_PLAY_NOW_WAIT"]
        else:
            os.environ["KINGSBREAKFAST_PLAY_NOW_WAIT"] = before


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = start_server(tmp_path_factory.mktemp("play-now"), WAIT)
    yield live
    live.stop()


@pytest.fixture(scope="module")
def patient_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = start_server(tmp_path_factory.mktemp("play-now-patient"), PATIENT)
    yield live
    live.stop()


def play_now(page: Any, base: str, name: str, seats: int = 3, speed: str = "live",
             code: str = "en") -> str:
    page.goto(base + "/")
    if code != "en":
        page.select_option("#lang", code)
        page.wait_for_selector(f"html[lang={code}]")
    page.fill("form#play-now input[name=player]", name)
    page.select_option("form#play-now select[name=size]", str(seats))
    page.select_option("form#play-now select[name=speed]", speed)
    page.click("form#play-now button[type=submit]")
    page.wait_for_url(re.compile(r".*/t/[\w-]+$"))
    return str(page.url.rsplit("/", 1)[1])


def names_at_table(page: Any) -> list[str]:
    return [text.strip() for text in page.locator(".players li.player strong").all_inner_texts()]


def test_strangers_share_a_table_and_bots_fill_it_at_the_deadline(
    server: LiveServer, browser: Any
) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}),
                browser.new_context(**PHONE)]
    ann, bob = (context.new_page() for context in contexts)
    ann.goto(server.base + "/")
    text = ann.locator("#play-text")
    text.wait_for()
    ann.wait_for_selector("#play-text:has-text('8 seconds')")  # the wait, said before asking
    assert_accessible(ann, "the lobby's play now")
    shots_in(ann, "play-now-lobby")

    clicked = time.monotonic()
    first = play_now(ann, server.base, "Ann")
    ann.wait_for_selector("#matching")
    assert "1 of 3" in ann.inner_text("#matching")
    assert_accessible(ann, "a play-now table's wait")
    shot(ann, "play-now-waiting-en")
    second = play_now(bob, server.base, "Bob", code="de")
    assert second == first, "two strangers asking for the same size share a table"
    bob.wait_for_selector("#matching")
    shot(bob, "play-now-waiting-phone-de")
    ann.wait_for_selector("#matching:has-text('2 of 3')")

    # nobody else comes: at the deadline a bot takes the third seat and the game is dealt
    for page in (ann, bob):
        page.wait_for_selector(".game", timeout=(WAIT + 10) * 1000)
    waited = time.monotonic() - clicked
    print(f"play now: lobby click to a dealt game with a bot filling in {waited:.1f} s")
    assert waited >= WAIT - 1, waited  # not before the deadline
    names = names_at_table(ann)
    assert "Ann" in names and "Bob" in names and len(names) == 3, names
    assert sum("Bot" in n for n in names) == 1, names
    for context in contexts:
        context.close()


def test_a_full_table_starts_at_once_and_nobody_sits_twice(
    patient_server: LiveServer, browser: Any
) -> None:
    server = patient_server
    contexts = [browser.new_context() for _ in range(3)]
    cy, dee, eve = (context.new_page() for context in contexts)
    table = play_now(cy, server.base, "Cy", seats=3, speed="turn")
    # the same browser asking again gets its own seat back, not a second one
    again = play_now(cy, server.base, "Cy", seats=3, speed="turn")
    assert again == table
    cy.wait_for_selector("#matching:has-text('1 of 3')")
    # another size or speed is another table
    other = play_now(eve, server.base, "Eve", seats=3, speed="live")
    assert other != table
    assert play_now(dee, server.base, "Dee", seats=3, speed="turn") == table
    # the third seat taken, the table leaves the waiting groups with Eve's own answer: it
    # started then, before its deadline, with no bot (no wait for the deadline's timer)
    status, waiting = server.request("GET", f"/api/play-now/tables/{table}")
    assert (status, waiting["players"]) == (200, 2)
    assert play_now(eve, server.base, "Eve", seats=3, speed="turn") == table
    # the group is dealt as soon as its third player's socket is there (one pool for the
    # site: whichever process sees the full group first deals it), not at the deadline:
    # every answer until it leaves the pool comes while the deadline is still ahead
    deadline_ms = waiting["deadline_ms"]
    while (answer := server.request("GET", f"/api/play-now/tables/{table}"))[0] == 200:
        assert time.time() * 1000 < answer[1]["deadline_ms"], "the full group waited"
        eve.wait_for_timeout(50)  # the browser's own pace between polls
    assert answer[0] == 204
    # leaving the pool and dealing are two steps: the table is watched until it plays, and
    # it must play before the deadline a bot would have filled the seat at
    while server.request("GET", f"/api/tables/{table}")[1]["status"] != "playing":
        assert time.time() * 1000 < deadline_ms, "the full group was not dealt at once"
        eve.wait_for_timeout(50)
    for page in (cy, dee, eve):
        page.wait_for_selector(".game")
    names = names_at_table(cy)
    assert sorted(names) == ["Cy", "Dee", "Eve"], names
    for context in contexts:
        context.close()


def test_nobody_is_seated_with_a_player_they_muted(
    patient_server: LiveServer, browser: Any
) -> None:
    server = patient_server
    contexts = [browser.new_context() for _ in range(3)]
    fay, gus, hal = (context.new_page() for context in contexts)
    fay.goto(server.base + "/")
    fay.evaluate("localStorage.setItem('kingsbreakfast.mutedNames', JSON.stringify(['Gus']))")
    table = play_now(fay, server.base, "Fay", seats=5)
    assert play_now(gus, server.base, "Gus", seats=5) != table  # Fay muted Gus
    assert play_now(hal, server.base, "Hal", seats=5) == table  # anyone else may join
    for context in contexts:
        context.close()
