"""What the table tells a player besides the cards: the log's round lines (R3, R4, R9), the
turn cue in the tab, card movements that stop for reduced motion, bot names in the
player's language."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

import kingsbreakfast.web  # noqa: E402
from kingsbreakfast.server import strings  # noqa: E402
from server.kb_live import LiveServer  # noqa: E402
from web.browsing import server_port  # noqa: E402
from web.playing import open_solo_table, play_to_the_end, play_until  # noqa: E402

STATIC = Path(next(iter(kingsbreakfast.web.__path__)), "static")
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
COUNTED = re.compile(r"(\d+) ")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """Bots slow enough that the page shows the other players' turns (for the tab's cue)."""
    tmp = tmp_path_factory.mktemp("cues")
    live = LiveServer(
        f"sqlite:///{tmp / 'web.db'}", bot_delay=0.25, log_path=tmp / "server.log",
        port=server_port(),
    ).start()
    yield live
    live.stop()


def test_the_log_tells_each_round_and_the_tab_tells_the_turn(
    server: LiveServer, browser: Any
) -> None:
    context = browser.new_context(**DESKTOP)
    page = context.new_page()
    open_solo_table(page, server.base, seats=3)
    page.wait_for_selector(".game.my-turn")
    assert page.title().startswith("Your turn")
    icon = page.locator("#favicon").get_attribute("href") or ""
    assert icon.endswith("favicon-turn.svg")
    move = "button.stack.legal[data-take], button[data-act=draw]:not([disabled])"
    page.locator(move).first.click()
    # read the tab in the same breath as the board: with bots at a quarter second the turn
    # can come back between two separate reads
    title, href = page.wait_for_function(
        """() => { const game = document.querySelector('.game');
        if (!game || game.classList.contains('my-turn')) return null;
        return [document.title, document.getElementById('favicon').getAttribute('href')]; }"""
    ).json_value()
    assert not title.startswith("Your turn"), title
    assert href.endswith("/favicon.svg"), href

    play_until(page, ".log li.round-line:has-text('Round 2:')")
    lines = page.locator(".log li.round-line").all_inner_texts()
    dealt = [line for line in lines if "the cook turns up" in line]
    assert any(line.startswith("Round 1:") for line in dealt), lines
    assert any(line.startswith("Round 1 is over") for line in lines), lines
    for line in dealt:  # R4: the cook turns up exactly twice as many cards as players
        assert sum(int(n) for n in COUNTED.findall(line.split("up", 1)[1])) == 6, line
    context.close()

    # the bots' names in the archive and the replay, in German
    german = strings.catalog(STATIC, "de")
    bot = german["seat.bot"].format(seat=2, level=german["level.random"])
    de_context = browser.new_context(locale="de-DE", **DESKTOP)
    de_page = de_context.new_page()
    finished = play_finished_game(browser, server)
    de_page.goto(f"{server.base}/replay/{finished}")
    de_page.wait_for_selector(".replay-controls")
    assert bot in de_page.locator(".players").inner_text()
    de_page.goto(server.base + "/")
    de_page.wait_for_selector(f"#archive li:has-text('{bot}')")
    assert "(random)" not in de_page.locator("#archive").inner_text()
    de_context.close()


def play_finished_game(browser: Any, server: LiveServer) -> str:
    context = browser.new_context(**DESKTOP)
    page = context.new_page()
    table_id = open_solo_table(page, server.base, seats=3)
    play_to_the_end(page, lambda state: None, prefer_draw=False)
    context.close()
    return table_id


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_card_movements_follow_the_reduced_motion_setting(
    server: LiveServer, browser: Any, motion: str
) -> None:
    context = browser.new_context(reduced_motion=motion, **DESKTOP)
    page = context.new_page()
    open_solo_table(page, server.base, seats=3)
    # note the animation of every dealt card as it is drawn
    page.evaluate(
        """() => { window.kbDealt = [];
        new MutationObserver(() => document.querySelectorAll('.stack.dealt .card').forEach(
          (card) => window.kbDealt.push(getComputedStyle(card).animationName))
        ).observe(document.getElementById('app'), { childList: true, subtree: true }); }"""
    )
    play_until(page, "#app[data-motion~=dealt]")
    names = set(page.evaluate("window.kbDealt"))
    assert names, "no dealt card was seen"
    assert names == ({"none"} if motion == "reduce" else {"kb-deal"}), names
    context.close()


def test_the_log_marks_moves_a_bot_made_for_an_away_player(
    browser: Any, tmp_path: Path
) -> None:
    live = LiveServer(
        f"sqlite:///{tmp_path / 'away.db'}", bot_delay=0.05, zombie_grace=0.3,
        log_path=tmp_path / "server.log", port=server_port(),
    ).start()
    try:
        ann_context = browser.new_context(**DESKTOP)
        ann = ann_context.new_page()
        ann.goto(live.base + "/")
        ann.fill("input[name=name]", "Ann")
        ann.select_option("select[name=seats]", "3")
        ann.select_option("select[name=bot_level]", "random")
        ann.click("form#create button[type=submit]")
        ann.wait_for_selector("#start")
        bob_context = browser.new_context(**DESKTOP)
        bob = bob_context.new_page()
        bob.goto(ann.url)
        bob.fill("form#join input[name=name]", "Bob")
        bob.click("form#join button[type=submit]")
        bob.wait_for_selector("#leave")
        ann.wait_for_selector("text=Bob")
        ann.click("#start")
        ann.wait_for_selector(".game")
        bob_context.close()  # Bob goes away; after the grace a bot plays his seat
        play_until(ann, ".log li.by-bot:has-text('Bob')")
        line = ann.locator(".log li.by-bot").first.inner_text()
        assert line.startswith("Bob ") and "a bot played for this away player" in line
        assert ann.locator(".log li.by-bot:has-text('Ann')").count() == 0
        ann_context.close()
    finally:
        live.stop()
