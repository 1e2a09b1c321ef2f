"""The table on a phone (390 × 844): at your turn the king's plate, the table and your hand
are on the first screen without scrolling; each opponent takes one line; the score table
fits the width; no keyboard hint on a touch screen or for a spectator."""

from __future__ import annotations

from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from server.kb_live import LiveServer  # noqa: E402
from web.browsing import no_sideways_scroll, shot  # noqa: E402
from web.playing import open_solo_table, play_to_the_end  # noqa: E402

PHONE = {
    "viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
    "device_scale_factor": 2,
}


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not on the page"
    return dict(found)


def on_first_screen(page: Any, selector: str) -> bool:
    where = box(page, selector)
    return where["y"] >= 0 and where["y"] + where["height"] <= 844


@pytest.mark.parametrize("seats", [3, 5])
def test_a_phone_shows_the_whole_table_at_your_turn(
    server: LiveServer, browser: Any, seats: int
) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    table_id = open_solo_table(page, server.base, seats=seats)
    page.wait_for_selector(".game.my-turn")
    page.evaluate("window.scrollTo(0, 0)")
    for selector in (".status", ".king-panel", ".table-panel", ".hand"):
        assert on_first_screen(page, selector), f"{selector} at {box(page, selector)}"
    # every opponent on one line: no taller than its name's line and the row's padding
    for row in page.locator(".players li.player").all():
        line = row.locator("strong").bounding_box()
        whole = row.bounding_box()
        assert line is not None and whole is not None
        assert whole["height"] < 2 * line["height"] + 12, row.inner_text()
    assert page.locator(".keys").is_hidden()  # a touch screen: no keyboard hint
    assert no_sideways_scroll(page)
    shot(page, f"phone-table-{seats}")

    # a spectator never sees the keyboard hint, not even with a keyboard
    watcher_context = browser.new_context(viewport={"width": 1280, "height": 900})
    watcher = watcher_context.new_page()
    watcher.goto(f"{server.base}/t/{table_id}")
    watcher.wait_for_selector(".game")
    assert watcher.locator(".keys").count() == 0
    watcher_context.close()

    play_to_the_end(page, lambda state: None, prefer_draw=False)
    fits = page.evaluate(
        "(() => { const s = document.querySelector('#score .scroll');"
        " return s.scrollWidth <= s.clientWidth + 1; })()"
    )
    shot(page, f"phone-score-{seats}")
    assert fits, "the score table needs sideways scrolling"
    assert page.locator("#score th", has_text="Points").first.is_visible()
    shot(page, f"phone-score-{seats}")
    context.close()
