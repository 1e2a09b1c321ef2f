"""Tournaments in the browser (chromium): two accounts make and enter a Swiss with a bot
entered by name, play its table from their pages to the end and see the standings update
by themselves, the bot marked; an arena seats an entrant at once with bots, who plays a game
and leaves. Every page is axe-clean and fits a 390 px phone."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from server.kb_live import LiveServer  # noqa: E402
from web.browsing import no_sideways_scroll, shot  # noqa: E402
from web.test_web_accounts import axe_clean, register  # noqa: E402
from web.test_web_e2e import play_one_move, wait_for_a_turn_or_the_end  # noqa: E402


def make(page: Any, server: LiveServer, name: str, kind: str, rounds: str, bots: str) -> str:
    page.goto(server.base + "/tournaments")
    page.wait_for_selector("form#make-tournament")
    axe_clean(page)
    page.fill("form#make-tournament input[name=name]", name)
    page.select_option("form#make-tournament select[name=kind]", kind)
    page.select_option("form#make-tournament select[name=seats]", "3")
    page.fill("form#make-tournament input[name=rounds]", rounds)
    page.fill("form#make-tournament input[name=minutes]", "5")
    page.fill("form#make-tournament input[name=starts_in]", "60")
    page.fill("form#make-tournament input[name=bots]", bots)
    page.select_option("form#make-tournament select[name=bot_level]", "random")
    page.click("form#make-tournament button[type=submit]")
    page.wait_for_url(re.compile(r".*/tournaments/[\w-]+$"))
    page.wait_for_selector("section.tournament h1")
    return str(page.url.rsplit("/", 1)[1])


def play_table(*pages: Any) -> None:
    """Each page follows its own "Go to your table" link (it appears by itself once the
    table is dealt: the page polls) and plays until every page shows the score."""
    for page in pages:
        page.locator("a", has_text="Go to your table").click(timeout=30_000)
        page.wait_for_url(re.compile(r".*/t/[\w-]+$"))
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        if all(page.locator("#score").count() for page in pages):
            return
        moved = False
        for page in pages:
            moved = play_one_move(page) is not None or moved
        if not moved:
            wait_for_a_turn_or_the_end(*pages)
    pytest.fail("the game did not finish in time")


def check_page(page: Any, where: str) -> None:
    axe_clean(page)
    own = page.viewport_size
    page.set_viewport_size({"width": 390, "height": 844})
    assert no_sideways_scroll(page), f"{where} is wider than a phone"
    shot(page, f"tournament-{where}-phone-en")
    page.set_viewport_size(own)


def test_a_swiss_with_two_browser_players_and_a_bot(server: LiveServer, browser: Any) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    ann, bea = (context.new_page() for context in contexts)
    errors: list[str] = []
    for page in (ann, bea):
        page.on("pageerror", lambda error: errors.append(str(error)))
    register(ann, server, "Ann")
    register(bea, server, "Bea")
    tid = make(ann, server, "Browser Swiss", "swiss", "1", "1")
    ann.click("#enter")
    ann.wait_for_selector("#leave")
    bea.goto(f"{server.base}/tournaments/{tid}")
    bea.click("#enter")
    bea.wait_for_selector("#leave")
    ann.wait_for_selector("table.board tbody tr:nth-child(3)")  # Bea's entry, polled
    assert ann.locator("table.board .badge.bot").count() == 1  # Chef, marked a bot
    check_page(ann, "open")
    ann.click("#start-now")
    play_table(ann, bea)
    for page in (ann, bea):
        page.goto(f"{server.base}/tournaments/{tid}")
        page.wait_for_selector("section.tournament strong:text-is('Over')")  # not a table's "over"
    rows = ann.locator("table.board tbody tr").all_inner_texts()
    assert len(rows) == 3 and any("Chef" in row and "bot" in row for row in rows)
    assert ann.locator(".tournament-tables li").count() == 1
    check_page(ann, "over")
    assert not errors, errors


def test_an_arena_seats_an_entrant_with_bots_at_once(server: LiveServer, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    cy = context.new_page()
    errors: list[str] = []
    cy.on("pageerror", lambda error: errors.append(str(error)))
    register(cy, server, "Cy")
    tid = make(cy, server, "Browser arena", "arena", "1", "4")
    cy.click("#enter")
    cy.wait_for_selector("#leave")
    cy.click("#start-now")
    check_page(cy, "arena")
    play_table(cy)
    cy.goto(f"{server.base}/tournaments/{tid}")
    cy.wait_for_selector("section.tournament h1")
    cy.click("#leave")  # an arena entrant leaves any time; their game counts
    cy.wait_for_selector("#enter")
    # The director collects a finished table on its next pass and the page polls, so the
    # count is waited for: games played, at least Cy's.
    cy.wait_for_function(
        """() => [...document.querySelectorAll("table.board tbody tr")]
            .some(row => row.textContent.includes("Cy")
                  && ["1", "2"].includes(row.lastElementChild.textContent.trim()))""",
        timeout=30_000)
    check_page(cy, "arena-left")
    assert not errors, errors
