"""A solo game in the browser against bots, driven move by move, for the tests that need to
reach each state of the table (your turn, the feed picker, the dragon dialog, the score)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout

STATES = ("your turn", "feed picker", "dragon dialog", "score")


def open_solo_table(page: Any, base: str, name: str = "Ann", seats: int = 3) -> str:
    """Create a table from the lobby and start it with bots in the other seats; its id."""
    page.goto(base + "/")
    page.fill("input[name=name]", name)
    page.select_option("select[name=seats]", str(seats))
    page.select_option("select[name=bot_level]", "random")
    page.click("form#create button[type=submit]")
    page.wait_for_url(re.compile(r".*/t/[\w-]+$"))
    page.wait_for_selector("#start")
    table_id = str(page.url.rsplit("/", 1)[1])
    page.click("#start")
    page.wait_for_selector(".game")
    return table_id


def play_to_the_end(
    page: Any, visit: Callable[[str], None], *, prefer_draw: bool = True,
    timeout: float = 180.0,
) -> None:
    """Play the page's seat until the score shows, calling ``visit(state)`` the first time
    each of ``STATES`` is on screen. Drawing is preferred, so that a dragon turns up."""
    seen: set[str] = set()

    def first(state: str) -> None:
        if state not in seen:
            seen.add(state)
            visit(state)

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            page.wait_for_selector(".game.my-turn, #score", timeout=5000)
        except PlaywrightTimeout:
            continue
        if page.locator("#score").count():
            first("score")
            return
        try:
            if page.locator("dialog[open]").count():
                first("dragon dialog")
                page.click("dialog[open] button[data-dragon=place]", timeout=2000)
                continue
            first("your turn")
            feed = page.locator("button[data-act=feed]:not([disabled])")
            if feed.count() and "feed picker" not in seen:
                feed.click(timeout=2000)
                page.wait_for_selector("button.pickable", timeout=2000)
                first("feed picker")
                for _ in range(2):
                    page.locator("button.pickable").first.click(timeout=2000)
                continue
            for selector in (
                ("button[data-act=draw]:not([disabled])" if prefer_draw else "button.stack.legal"),
                "button.stack.legal[data-take]",
                "button[data-act=draw]:not([disabled])",
                "button[data-act=pass]",
            ):
                target = page.locator(selector).first
                if target.count():
                    version = page.evaluate("document.querySelector('.log ol').dataset.actions")
                    target.click(timeout=2000)
                    # selectors, not a script: the page's CSP forbids evaluating strings
                    page.wait_for_selector(
                        f".game:not(.my-turn), dialog[open], "
                        f".log ol:not([data-actions='{version}'])",
                        timeout=5000,
                    )
                    break
        except (PlaywrightTimeout, PlaywrightError):
            continue  # the page redrew under the click; look again
    raise AssertionError(f"the game did not finish in time (states seen: {sorted(seen)})")


class GameEnded(AssertionError):
    """The score showed before what ``play_until`` waited for: this game never reached it."""


def play_until(page: Any, selector: str, timeout: float = 60.0) -> None:
    """Take the page's turns (a dish when it may, else a draw or a pass, placing a drawn
    dragon) until ``selector`` is on the page; :class:`GameEnded` if the score shows
    first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.locator(selector).count():
            return
        try:
            page.wait_for_selector(f".game.my-turn, #score, {selector}", timeout=5000)
        except PlaywrightTimeout:
            continue
        if page.locator(selector).count():
            return
        if page.locator("#score").count():
            raise GameEnded(f"the game ended before {selector} showed")
        for target in (
            "dialog[open] button[data-dragon=place]", "button.stack.legal[data-take]",
            "button[data-act=draw]:not([disabled])", "button[data-act=pass]",
        ):
            found = page.locator(target).first
            if found.count():
                try:
                    version = page.locator(".log ol").get_attribute("data-actions")
                    found.click(timeout=2000)
                    page.wait_for_selector(
                        f".game:not(.my-turn), dialog[open], {selector}, "
                        f".log ol:not([data-actions='{version}'])", timeout=5000,
                    )
                except (PlaywrightTimeout, PlaywrightError):
                    pass
                break
    raise AssertionError(f"{selector} did not show in {timeout:.0f} s")
