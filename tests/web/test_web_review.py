"""Browser: a finished game's review, reached from the score screen and the finished games,
refused while the game is played, readable with the keyboard, on a phone and in dark mode."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
pytest.importorskip("numpy")

from playwright.sync_api import expect

from server.kb_live import LiveServer
from web.auditing import assert_accessible
from web.browsing import no_sideways_scroll, shot, shots
from web.playing import open_solo_table, play_to_the_end


@pytest.fixture(scope="module")
def finished(server: LiveServer, browser: Any) -> Iterator[dict[str, Any]]:
    """One solo game played to its end in the browser, as a guest named Ann (seat 0)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    table_id = open_solo_table(page, server.base, name="Ann", seats=3)
    play_to_the_end(page, lambda _state: None)
    link = page.locator("#score a[href^='/review/']")
    href = link.get_attribute("href")
    link.click()
    page.wait_for_selector(".review-table tbody tr")
    assert errors == []
    yield {"id": table_id, "href": href, "page": page}
    context.close()


def test_the_score_screen_leads_to_the_review_of_my_own_seat(
    finished: dict[str, Any],
) -> None:
    page = finished["page"]
    assert finished["href"] == f"/review/{finished['id']}?seat=0"
    assert page.url.endswith(finished["href"])
    assert page.title().startswith("Review")
    heading = page.locator("h1").inner_text()
    assert heading == "Review of Ann"
    assert page.locator(".seat-pick a[aria-current=page]").inner_text() == "Ann"
    rows = page.locator(".review-table tbody tr")
    assert rows.count() > 0
    big = page.locator(".review-table tbody tr.big-loss")
    for index in range(big.count()):  # marked in words, not by colour alone
        assert "Big loss" in big.nth(index).inner_text()
    lost = [float(t.rstrip("%")) for t in
            page.locator(".review-table tbody td:nth-child(6)").all_inner_texts()]
    assert all(value >= 0 for value in lost)
    marked = [("big-loss" in (row.get_attribute("class") or "")) for row in rows.all()]
    assert sum(marked) == big.count()
    # the 5% mark, as the server says: the page shows the loss rounded to a tenth, so a loss
    # just under the mark may read "5.0%" unmarked; one marked never reads under it
    for value, big_one in zip(lost, marked, strict=True):
        assert value >= 5.0 if big_one else value <= 5.0
    explained = page.locator(".explained").inner_text()
    assert "never the hidden cards" in explained and "5%" in explained
    summary = page.locator(".review-summary").inner_text()
    assert "choices reviewed" in summary or "choice reviewed" in summary
    assert_accessible(page, "the review page")
    shot(page, "review-en")


def test_the_costliest_choices_take_the_keyboard_to_their_rows(
    finished: dict[str, Any],
) -> None:
    page = finished["page"]
    links = page.locator(".costliest-list a")
    if links.count() == 0:
        pytest.fail("a random bot's opponent game had no costly choice to link: unexpected")
    target = links.first.get_attribute("href")
    links.first.focus()
    page.keyboard.press("Enter")
    focused = page.evaluate("document.activeElement && document.activeElement.id")
    assert f"#{focused}" == target
    # the seat picker is reached with Tab and followed with Enter
    page.locator(".seat-pick a[data-seat='1']").focus()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r".*/review/[\w-]+\?seat=1$"))
    page.wait_for_selector(".seat-pick a[data-seat='1'][aria-current=page]")
    assert page.locator("h1").inner_text().startswith("Review of ")
    assert page.locator("h1").inner_text() != "Review of Ann"
    page.goto(page.url.replace("seat=1", "seat=0"))
    page.wait_for_selector(".review-table tbody tr")


def test_the_review_speaks_german_and_fits_a_phone_in_both_themes(
    server: LiveServer, browser: Any, finished: dict[str, Any],
) -> None:
    page = finished["page"]
    page.select_option("#lang", "de")
    page.locator("h1", has_text="Analyse").wait_for()  # selectors: the CSP forbids eval
    assert "nie die verdeckten Karten" in page.locator(".explained").inner_text()
    assert page.locator(".review-table thead").inner_text().count("verloren") == 2
    assert_accessible(page, "the review page in German")
    shot(page, "review-de")
    page.select_option("#lang", "en")
    for code in ("en", "de"):
        for scheme in ("light", "dark"):
            phone = browser.new_context(
                viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                device_scale_factor=2, locale=code, color_scheme=scheme,
            )
            small = phone.new_page()
            small.goto(server.base + finished["href"])
            small.wait_for_selector(".review-table tbody tr")
            assert no_sideways_scroll(small)
            fits = small.evaluate(
                "(() => { const r = document.querySelector('.review-moves .scroll');"
                " return r.scrollWidth <= r.clientWidth + 1; })()")
            assert fits, f"the review table is cut at 390 px ({code}, {scheme})"
            clipped = small.evaluate(
                "[...document.querySelectorAll('.review-table th, .review-table td')]"
                ".filter((c) => c.scrollWidth > c.clientWidth + 1).length")
            assert clipped == 0
            small_buttons = small.evaluate(
                "[...document.querySelectorAll('.review-page .button')]"
                ".filter((b) => b.getBoundingClientRect().height < 44).length")
            assert small_buttons == 0  # touch targets of 44 px
            assert_accessible(small, f"the review page on a phone ({code}, {scheme})")
            if scheme == "light":
                shot(small, f"review-phone-{code}")
            elif code == "en":
                shot(small, "dark-review-phone-en")
            phone.close()


def test_the_finished_games_link_to_the_review_of_the_seat_i_played(
    server: LiveServer, finished: dict[str, Any],
) -> None:
    page = finished["page"]
    page.goto(server.base + "/")
    link = page.locator(f"#archive a[href^='/review/{finished['id']}']")
    link.wait_for()
    assert link.get_attribute("href") == f"/review/{finished['id']}?seat=0"  # Ann's seat
    link.click()
    page.wait_for_selector(".review-table tbody tr")
    assert page.locator("h1").inner_text() == "Review of Ann"


def test_nothing_is_reviewed_while_the_game_is_played(
    server: LiveServer, browser: Any,
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    table_id = open_solo_table(page, server.base, name="Bea", seats=3)
    page.goto(f"{server.base}/review/{table_id}?seat=0")
    alert = page.locator(".review-page [role=alert]")
    alert.wait_for()
    assert alert.inner_text() == "The review is shown once the game is over: finish it first."
    assert page.locator(".review-table").count() == 0
    assert_accessible(page, "the review refused during play")
    page.goto(f"{server.base}/review/{table_id}x?seat=0")
    page.locator(".review-page [role=alert]").wait_for()
    assert page.locator(".review-page [role=alert]").inner_text() == "There is no such table."
    context.close()


def test_the_choices_are_numbered_in_order_and_a_small_loss_reads_clearly(
    finished: dict[str, Any],
) -> None:
    """The seat's choices count 1, 2, 3… (the game's move numbers jumped, the other seats'
    turns between), each with its game move beside it; a points loss is "0", "under 0.1" or
    a tenth and more, never "0.0" beside a lost win chance; the page says why the two
    losses differ."""
    page = finished["page"]
    rows = page.locator(".review-table tbody tr")
    numbers = [int(re.match(r"\d+", text).group())  # type: ignore[union-attr]
               for text in page.locator(".review-table tbody th").all_inner_texts()]
    assert numbers == list(range(1, rows.count() + 1))
    notes = page.locator(".review-table tbody th .move-note").all_inner_texts()
    games = [int(re.search(r"\d+", note).group()) for note in notes]  # type: ignore[union-attr]
    assert games == sorted(games) and len(set(games)) == len(games)
    for text in page.locator(".review-table tbody td:nth-child(5)").all_inner_texts():
        assert text == "0" or text == "under 0.1" or float(text) >= 0.1, text
    assert "measured apart" in page.locator(".two-measures").inner_text()


def test_each_choice_shows_its_position_and_reasons_and_a_graph_shows_every_seat(
    finished: dict[str, Any],
) -> None:
    """The board at a reviewed choice as that seat saw it (its own drawn cards, the others'
    only counted), the reasons of the move played and of the better one, and a graph of
    each seat's win chance over the game, one line a seat."""
    page = finished["page"]
    page.goto(page.url)
    page.wait_for_selector(".review-position .review-board")
    # every seat's line, the others' reviews fetched as well: each is asked for at once and
    # drawn as it comes (review.js), so seat 2's may come before seat 1's
    page.wait_for_selector(".chance-graph .seat-line[data-seat='2']")
    lines = page.locator(".chance-graph .seat-line")
    expect(lines, "a line for each of the three seats").to_have_count(3, timeout=30_000)
    assert page.locator(".chance-legend li").all_inner_texts()[0].strip() == "Ann"
    # the position of the third choice, by its number's button
    page.click(".review-table tbody tr:nth-child(3) th button")
    page.wait_for_selector(".review-table tbody tr:nth-child(3) th button[aria-pressed=true]")
    heading = page.locator("#review-position-title").inner_text()
    assert heading.startswith("The position at choice 3 (move ") and heading.endswith("Ann saw it")
    why = page.locator(".review-why dd").all_inner_texts()
    assert len(why) == 2 and all(text.strip() for text in why)
    played = page.locator(".review-table tbody tr:nth-child(3) td.choice").first.inner_text()
    assert why[0].startswith(played.replace("Big loss", "").strip())
    # only Ann's drawn cards are drawn: the others' are a count
    assert page.locator(".review-board .players .card.private").count() == 0
    assert page.locator(".review-board .players .hidden-count").count() == 2
    assert_accessible(page, "the review with its board and graph")
    shots(page, "review-board", "en")
