"""The table on a phone (390 × 844): at your turn the king's plate, the table and your hand
are on the first screen without scrolling; every opponent's name and chips and every dish
name are whole in all five languages; every control is at least 44 px each way; the score
table fits the width; no keyboard hint on a touch screen or for a spectator."""

from __future__ import annotations

from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from server.kb_live import LiveServer  # noqa: E402
from web.browsing import no_sideways_scroll, shot  # noqa: E402
from web.playing import open_solo_table, play_to_the_end, play_until  # noqa: E402

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
    # every opponent's name and chips whole: nothing cut, nothing hidden (see the test below)
    assert clipped(page) == [], clipped(page)
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


# Elements whose text or chips must never be cut: a dish name on a card, a player's name, a
# player's row of chips. Each reports itself when its content is wider or taller than its box
# (scrollWidth/scrollHeight beyond clientWidth/clientHeight), or when a chip sticks out of its
# player's row.
CLIPPED = """() => {
  const out = [];
  const cut = (el) => el.scrollWidth > el.clientWidth + 1
    || el.scrollHeight > el.clientHeight + 1;
  const watched = '.game .card-name, .players .player strong, .players .player, .players .cards';
  for (const el of document.querySelectorAll(watched)) {
    if (el.offsetParent === null) continue;  // not shown (a hand card's name on a phone)
    if (cut(el)) {
      out.push(`${el.className || el.tagName}: ${el.textContent.trim().slice(0, 30)}`);
    }
  }
  for (const row of document.querySelectorAll('.players .player')) {
    const box = row.getBoundingClientRect();
    for (const chip of row.querySelectorAll('.card')) {
      const c = chip.getBoundingClientRect();
      const out_of_row = c.left < box.left - 1 || c.right > box.right + 1
        || c.bottom > box.bottom + 1;
      if (out_of_row) out.push(`chip outside ${row.dataset.seat}`);
    }
  }
  return out;
}"""
SMALL_TARGETS = """() => [...document.querySelectorAll(
    '.game button, .game .button, .game select, .game .stack.legal, '
    + '.game .prefs label, .game .keys label, header select')]
  .filter((el) => el.offsetParent !== null)
  .map((el) => [el.textContent.trim().slice(0, 20) || el.className, el.getBoundingClientRect()])
  .filter(([, r]) => r.width < 44 || r.height < 44)
  .map(([name, r]) => `${name} ${Math.round(r.width)}x${Math.round(r.height)}`)"""


def clipped(page: Any) -> list[str]:
    return list(page.evaluate(CLIPPED))


@pytest.mark.parametrize("code", ["en", "de", "hu", "fr", "vi"])
def test_on_a_phone_nothing_is_cut_and_every_target_is_big_enough(
    server: LiveServer, browser: Any, code: str
) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(server.base + "/")
    page.select_option("#lang", code)
    page.wait_for_selector(f"html[lang={code}]")
    # a long name, five seats: the most there is to fit on one row
    open_solo_table(page, server.base, name="Annabella-Maximiliane", seats=5)
    play_until(page, ".players .player[data-seat='1'] .cards .card", timeout=60)
    page.wait_for_selector(".game.my-turn", timeout=30_000)
    page.evaluate("window.scrollTo(0, 0)")
    assert clipped(page) == [], clipped(page)
    small = page.evaluate(SMALL_TARGETS)
    assert small == [], small
    assert no_sideways_scroll(page)
    shot(page, f"phone-five-seats-{code}")
    context.close()
