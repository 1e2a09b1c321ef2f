"""Plain words for players: no rule numbers or internal words at play (the rules page keeps
them), finished games listed with their date, points and winner, the tab's title and the
page's description in the player's language, and French calling a round a "manche"."""

from __future__ import annotations

import re
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from server.kb_live import LiveServer  # noqa: E402
from web.auditing import assert_accessible  # noqa: E402
from web.browsing import shots  # noqa: E402
from web.playing import open_solo_table, play_to_the_end  # noqa: E402

RULE_NUMBER = re.compile(r"\(R\d|\bR\d+[ab]?\b|ruling|word for word")


def test_no_rule_numbers_at_play_and_finished_games_tell_how_they_ended(
    server: LiveServer, browser: Any
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("form#create")
    assert not RULE_NUMBER.search(page.inner_text("form#create")), page.inner_text("form#create")
    open_solo_table(page, server.base, name="Ann")
    page.wait_for_selector(".log li")
    assert not RULE_NUMBER.search(page.inner_text(".game"))
    play_to_the_end(page, lambda state: None, prefer_draw=False)
    assert not RULE_NUMBER.search(page.inner_text(".game"))
    winner = page.inner_text(".winner-line")

    page.goto(server.base + "/")
    line = page.locator("#archive li .finished").first
    # the players are drawn at once, the points and the winner when the results arrive
    line.locator(".winner-note").wait_for()
    text = line.inner_text()
    assert page.locator("#archive li time").first.get_attribute("datetime")
    assert re.search(r"Ann \d+ points?", text), text
    assert "Winner:" in text and winner.split(":", 1)[1].strip() in text, (text, winner)
    assert_accessible(page, "the lobby with a finished game")
    shots(page, "lobby-finished", "en")
    page.select_option("#lang", "de")
    page.wait_for_selector("html[lang=de]")
    page.locator("#archive li .finished", has_text="Punkte").first.wait_for()
    shots(page, "lobby-finished", "de")
    context.close()


@pytest.mark.parametrize(("code", "title"), [
    ("de", "King Lui"), ("hu", "A király reggelije"), ("fr", "Le Petit-déjeuner du roi"),
    ("vi", "Bữa sáng của Nhà Vua"),
])
def test_the_title_and_the_description_are_in_the_players_language(
    server: LiveServer, browser: Any, code: str, title: str
) -> None:
    context = browser.new_context(locale=code, extra_http_headers={"Accept-Language": code})
    page = context.new_page()
    # as the server sends the page, before any script runs
    sent = page.request.get(server.base + "/").text()
    assert f"<title>{title}</title>" in sent
    description = re.search(r'<meta name="description" content="([^"]*)">', sent)
    assert description and not description.group(1).startswith("Play the card game")
    page.goto(server.base + "/rules")
    page.wait_for_selector(".rules h1, .rules h2")
    assert page.title().endswith(title) and page.title() != title  # "Rules · …" in the language
    context.close()


def test_french_says_manche_for_a_round(server: LiveServer, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(server.base + "/")
    page.select_option("#lang", "fr")
    page.wait_for_selector("html[lang=fr]")
    open_solo_table(page, server.base)
    status = page.inner_text(".status")
    assert "Manche 1" in status and "Tour 1" not in status, status
    assert "Manche 1" in page.inner_text(".log")
    context.close()
