"""Every page on a 390 px phone: nothing wider than the screen (no sideways scrolling, the
download link of *My games* whole), every control outside the game at least 44 px each way
on a touch screen, and the desktop table's checkboxes big enough for axe's target-size rule
(WCAG 2.5.8: 24 px)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from server.kb_live import LiveServer
from web.browsing import shot
from web.playing import open_solo_table, play_to_the_end

PHONE = {
    "viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
    "device_scale_factor": 2,
}
NAME = "Annabella-Maximiliane"


@pytest.fixture(scope="module")
def played(server: LiveServer, browser: Any) -> Iterator[dict[str, Any]]:
    """A registered player with a long name who played one solo game to its end: the
    account's cookies and the game's id, for the phone to visit every page with."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(server.base + "/login")
    page.fill("form#register input[name=name]", NAME)
    page.fill("form#register input[name=password]", "a long enough password")
    page.click("form#register button[type=submit]")
    page.wait_for_url(re.compile(r".*/me$"))
    page.goto(server.base + "/")
    page.select_option("select[name=seats]", "3")
    page.select_option("select[name=bot_level]", "random")
    page.click("form#create button[type=submit]")
    page.wait_for_url(re.compile(r".*/t/[\w-]+$"))
    table_id = page.url.rsplit("/", 1)[1]
    page.click("#start")
    page.wait_for_selector(".game")
    play_to_the_end(page, lambda _state: None)
    yield {"id": table_id, "state": context.storage_state(), "page": page}
    context.close()


def pages(table_id: str) -> dict[str, str]:
    """Every page a player opens, by address, with what shows once it is drawn."""
    return {
        "/": "form#create", "/rules": ".rules h1", "/learn": ".lesson-step",
        "/account": "form#password", "/me": "#games h2", "/leaderboard": "#board",
        f"/players/{NAME}": "dl.stats", f"/t/{table_id}": "#score",
        f"/replay/{table_id}": ".replay-controls",
        f"/review/{table_id}?seat=0": ".review-table tbody tr",
        "/tournaments": "form#make-tournament",
    }


WIDTH = "document.documentElement.scrollWidth"
# A checkbox is reached through its label: the label is the target then.
SMALL_TARGETS = """() => [...document.querySelectorAll(
    'header a, header button, header select, #app button, #app .button, #app select,'
    + ' #app input:not([type=hidden]), .seat-pick a, .costliest-list a')]
  .filter((el) => el.offsetParent !== null && !el.closest('.game:not(.replay)'))
  .map((el) => (el.type === 'checkbox' && el.closest('label')) ? el.closest('label') : el)
  .map((el) => [el.textContent.trim().slice(0, 20) || el.id || el.className,
                el.getBoundingClientRect()])
  .filter(([, r]) => r.width < 44 || r.height < 44)
  .map(([name, r]) => `${name} ${Math.round(r.width)}x${Math.round(r.height)}`)"""


def measure(
    browser: Any, base: str, state: Any, table_id: str, code: str = "en",
) -> dict[str, Any]:
    """Each page's width and its touch targets under 44 px, on a phone, in ``code``."""
    context = browser.new_context(storage_state=state, locale=code, **PHONE)
    page = context.new_page()
    found: dict[str, Any] = {}
    for path, ready in pages(table_id).items():
        page.goto(base + path)
        page.wait_for_selector(f"html[lang={code}]")
        page.wait_for_selector(ready)
        found[path] = {"width": page.evaluate(WIDTH), "small": page.evaluate(SMALL_TARGETS)}
        if path in ("/", "/me"):
            shot(page, f"fit-phone-{'lobby' if path == '/' else 'my-games'}-{code}")
    context.close()
    return found


@pytest.mark.parametrize("code", ["en", "de", "hu", "fr", "vi"])
def test_no_page_is_wider_than_a_phone(
    server: LiveServer, browser: Any, played: dict[str, Any], code: str,
) -> None:
    found = measure(browser, server.base, played["state"], played["id"], code)
    print(code, {path: entry["width"] for path, entry in found.items()})
    wide = {path: entry["width"] for path, entry in found.items() if entry["width"] > 390}
    assert wide == {}, wide


def test_every_control_outside_the_game_is_a_finger_wide(
    server: LiveServer, browser: Any, played: dict[str, Any],
) -> None:
    found = measure(browser, server.base, played["state"], played["id"])
    print({path: len(entry["small"]) for path, entry in found.items()})
    small = {path: entry["small"] for path, entry in found.items() if entry["small"]}
    assert small == {}, small


def test_the_desktop_table_passes_axe_target_size(
    server: LiveServer, browser: Any,
) -> None:
    """WCAG 2.5.8 on a desktop: the table's checkboxes (the keyboard's and the sound's) are
    24 px at least, not the browser's 13 px."""
    axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    open_solo_table(page, server.base, name="Cy", seats=3)
    page.wait_for_selector(".game.my-turn")
    results = axe.run(page, options={"runOnly": ["target-size"]})
    found = [
        " ".join(map(str, node["target"]))
        for violation in results.response["violations"] for node in violation["nodes"]
    ]
    assert found == [], found
    context.close()
