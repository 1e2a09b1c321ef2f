"""The lesson's end: it says every hand is shown, so every hand is shown (each bot's drawn
cards too, from the final scoring, R11), and the results are a ranking, the winner first,
not the seats in order."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from server.kb_live import LiveServer
from web.browsing import shots
from web.test_web_learn import DESKTOP, Learner, open_lesson, play_lesson


def test_the_end_shows_every_hand_and_ranks_the_results(
    server: LiveServer, browser: Any,
) -> None:
    context = browser.new_context(**DESKTOP)
    page = context.new_page()
    open_lesson(page, server.base, "en")
    play_lesson(Learner(page), "en")
    assert "Every hand is shown" in page.locator("#lesson-scoring").inner_text()
    # no bot's cards are hidden any more: each shows its whole hand
    assert page.locator(".players .hidden-count").count() == 0
    for row in page.locator(".players li.player").all():
        assert row.locator(".card").count() > 0, row.inner_text()
    lines = page.locator(".lesson-points li").all_inner_texts()
    points = [int(re.findall(r"(\d+) points?", line)[-1]) for line in lines]
    assert points == sorted(points, reverse=True), lines
    assert "winner" in (page.locator(".lesson-points li").first.get_attribute("class") or "")
    shots(page, "learn-end-ranked", "en")
    context.close()
