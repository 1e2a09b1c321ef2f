"""The TV page (/tv) in chromium lists a tournament's table in play first: an ordinary game
dealt earlier (older, as unrated as it) comes after it, and the tournament's row carries the
tournament tag; the page stays axe-clean."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from sqlalchemy import create_engine  # noqa: E402

from kingsbreakfast.server.storage import normalize_url  # noqa: E402
from kingsbreakfast.server.tournaments.making import make_setup  # noqa: E402
from kingsbreakfast.server.tournaments.store import TournamentStore  # noqa: E402
from server.kb_live import LiveServer  # noqa: E402
from web.auditing import assert_accessible  # noqa: E402
from web.browsing import server_port  # noqa: E402
from web.test_web_accounts import register  # noqa: E402
from web.test_web_tv import dealt_table  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # seats whose people do not move are not played for: both games stay in play
    tmp = tmp_path_factory.mktemp("tv-tournament")
    live = LiveServer(f"sqlite:///{tmp / 'web.db'}", bot_delay=0.0, zombie_grace=600.0,
                      log_path=tmp / "server.log", port=server_port()).start()
    yield live
    live.stop()


def test_a_tournament_table_in_play_is_listed_first(server: LiveServer, browser: Any) -> None:
    ordinary, _ = dealt_table(server.base, "Older")
    engine = create_engine(normalize_url(server.db_url))
    now = time.time()
    setup = make_setup(name="TV arena", kind="arena", seats=3, speed="live", rated=False,
                       rounds=0, minutes=5, starts_in=0, bots=2, bot_level="random",
                       created_by=None, now=now)
    TournamentStore(engine).create(setup, now)
    engine.dispose()
    player = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    register(player, server, "Hal")
    player.goto(f"{server.base}/tournaments/{setup.id}")
    player.click("#enter")
    link = player.locator(".your-table a")
    link.wait_for(timeout=60_000)  # seated with the two bots at once (an arena)
    cup = str(link.get_attribute("href")).rsplit("/", 1)[1]
    assert re.fullmatch(r"[\w-]+", cup) and cup != ordinary

    viewer = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    viewer.goto(server.base + "/tv")
    viewer.wait_for_selector(f'.tv-list li[data-table="{ordinary}"]', timeout=60_000)
    viewer.wait_for_selector(f'.tv-list li[data-table="{cup}"]', timeout=60_000)
    rows = viewer.locator(".tv-list li")
    assert [rows.nth(i).get_attribute("data-table") for i in range(rows.count())] == [
        cup, ordinary]
    assert rows.first.locator(".tag", has_text="Tournament").count() == 1
    assert rows.nth(1).locator(".tag", has_text="Tournament").count() == 0
    assert_accessible(viewer, "the TV with a tournament table")
