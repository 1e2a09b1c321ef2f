"""Browser: the Hint button shows the value of every legal move, best first, each with its
reason."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
pytest.importorskip("numpy")

from kingsbreakfast.bots.hint import POINT_WORTH
from server.kb_live import LiveServer
from web.browsing import shot


def test_the_hint_button_lists_every_legal_move_with_its_value(
    server: LiveServer, browser: Any
) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.base + "/")
    page.fill("input[name=name]", "Ann")
    page.select_option("select[name=seats]", "3")
    page.select_option("select[name=bot_level]", "master")
    page.click("form#create button[type=submit]")
    page.wait_for_url(re.compile(r".*/t/[\w-]+$"))
    page.click("#start")
    page.wait_for_selector(".game.my-turn", timeout=30_000)
    takes = page.locator("button.stack.legal[data-take]").count()
    page.click("button[data-act=hint]")
    page.wait_for_selector("table.hint tbody tr")
    rows = page.locator("table.hint tbody tr")
    assert rows.count() >= takes + 1  # every take and the draw at least
    wins = [float(t.strip("=%")) for t in rows.locator("td:nth-child(3)").all_inner_texts()]
    points = [float(t.strip("=")) for t in rows.locator("td:nth-child(2)").all_inner_texts()]
    # sorted by the expected result, then points (bots/hint.py utility), up to the rounding
    # of what is shown
    values = [w / 100 + POINT_WORTH * p for w, p in zip(wins, points, strict=True)]
    assert all(a >= b - 0.0006 for a, b in itertools.pairwise(values)), values
    reasons = rows.locator("th .why").all_inner_texts()
    assert len(reasons) == rows.count() and all(r.strip() for r in reasons)
    assert "hint.why" not in " ".join(reasons)  # every key has its sentence
    assert "win chance" in page.locator("table.hint thead").inner_text()
    assert "share of the win" in page.locator(".table-panel").inner_text()
    assert "(R1" not in page.locator(".table-panel").inner_text()  # no rule numbers at play
    shot(page, "hint-desktop")
    assert errors == []
    page.context.close()
