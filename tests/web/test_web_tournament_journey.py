"""A whole Swiss in the browser (chromium, one browser, a context per person): six accounts
registered through the login page enter a 2-round Swiss at tables of three with three bots
(nine entrants: three tables a round, no bye), the maker starts it, and every person plays
their own seat from the table page by clicking the highlighted controls, round after round.
At the end all six standings pages show the same lines, and those lines are the recount
made from the tables alone (R11 points and discards, R12 places, pairwise points). The
tournament page is axe-clean while taking entries, under way and over; the bots carry the
bot badge. An arena of 45 seconds is played by one person, table after table, to its end:
the page's points (doubled after two wins in a row) and best streaks are a recount's.

The bots move at once (delay 0) so that the run lasts as long as six people clicking take."""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from sqlalchemy import create_engine  # noqa: E402

from kingsbreakfast.server.storage import normalize_url  # noqa: E402
from kingsbreakfast.server.tournaments.making import make_setup  # noqa: E402
from kingsbreakfast.server.tournaments.store import TournamentStore  # noqa: E402
from server.kb_live import LiveServer  # noqa: E402
from server.kb_tournament_cluster import arena_recount  # noqa: E402
from server.kb_tournaments import check_seating, recount  # noqa: E402
from web.browsing import server_port  # noqa: E402
from web.test_web_accounts import axe_clean, register  # noqa: E402
from web.test_web_e2e import play_one_move, wait_for_a_turn_or_the_end  # noqa: E402
from web.test_web_tournaments import make  # noqa: E402

PEOPLE = ("Ada", "Bram", "Cleo", "Dov", "Eun", "Fai")
ROUNDS = 2
"""Two rounds: the second is paired from the first (scores and who met whom), as every later
one is; the pairing rules themselves are tested round after round in tests/server."""
BOTS = 3


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server of its own whose bots move at once (the shared one waits 0.02 s a move)."""
    tmp = tmp_path_factory.mktemp("journey")
    live = LiveServer(f"sqlite:///{tmp / 'journey.db'}", bot_delay=0.0,
                      log_path=tmp / "server.log", port=server_port()).start()
    yield live
    live.stop()


def shown(page: Any, server: LiveServer, tid: str) -> dict[str, Any]:
    """The tournament as the server answers it to this person (their cookie)."""
    answer = page.request.get(f"{server.base}/api/tournaments/{tid}")
    assert answer.ok, answer.status
    found: dict[str, Any] = answer.json()
    return found


def play_until_every_score(pages: list[Any]) -> None:
    """Each page clicks its own moves (a person's clicks: a highlighted stack, draw, pass,
    the dragon's place) until every page shows the score of its table."""
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        if all(page.locator("#score").count() for page in pages):
            return
        moved = False
        for page in pages:
            moved = play_one_move(page) is not None or moved
        if not moved:
            wait_for_a_turn_or_the_end(*pages)
    pytest.fail("a table did not finish in time")


def go_to_the_next_table(page: Any, server: LiveServer, tid: str, played: set[str]) -> str:
    """From the tournament page, follow "Go to your table" once it leads to a table this
    person has not played yet (the page polls; the next round is dealt when the last table
    of the round ends)."""
    page.goto(f"{server.base}/tournaments/{tid}")
    fresh = ".your-table a" + "".join(f":not([href='{href}'])" for href in played)
    link = page.locator(fresh)
    link.wait_for(timeout=120_000)
    href = str(link.get_attribute("href"))
    link.click()
    page.wait_for_url(re.compile(r".*/t/[\w-]+$"))
    page.wait_for_selector(".game")
    return href


def points_of(row: str) -> Fraction:
    return Fraction(row.split("\t")[2].strip())


def test_a_whole_swiss_of_six_people_and_three_bots(server: LiveServer, browser: Any) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900})
                for _ in PEOPLE]
    pages = [context.new_page() for context in contexts]
    errors: list[str] = []
    for page in pages:
        page.on("pageerror", lambda error: errors.append(str(error)))
    for page, name in zip(pages, PEOPLE, strict=True):
        register(page, server, name)
    maker = pages[0]
    tid = make(maker, server, "Six at the table", "swiss", str(ROUNDS), str(BOTS))
    for page in pages:
        if page is not maker:
            page.goto(f"{server.base}/tournaments/{tid}")
        page.click("#enter")
        page.wait_for_selector("#leave")
    everyone = len(PEOPLE) + BOTS
    maker.wait_for_selector(f"table.board tbody tr:nth-child({everyone})")  # polled
    assert maker.locator("table.board .badge.bot").count() == BOTS
    axe_clean(maker)  # taking entries
    maker.click("#start-now")
    played: list[set[str]] = [set() for _ in pages]
    for round_number in range(1, ROUNDS + 1):
        for page, mine in zip(pages, played, strict=True):
            mine.add(go_to_the_next_table(page, server, tid, mine))
        if round_number == 2:
            maker.goto(f"{server.base}/tournaments/{tid}")
            maker.wait_for_selector("section.tournament strong:text-is('Under way')")
            maker.wait_for_selector(f"text=Round 2 of {ROUNDS}")
            axe_clean(maker)  # under way
            maker.go_back()
            maker.wait_for_selector(".game")
        play_until_every_score(pages)
    lines = []
    for page in pages:
        page.goto(f"{server.base}/tournaments/{tid}")
        page.wait_for_selector("section.tournament strong:text-is('Over')")  # not a table's "over"
        page.wait_for_selector(f"table.board tbody tr:nth-child({everyone})")
        lines.append(page.locator("table.board tbody tr").all_inner_texts())
    assert all(mine == lines[0] for mine in lines), lines
    assert maker.locator("table.board .badge.bot").count() == BOTS
    axe_clean(maker)  # over
    final = shown(maker, server, tid)
    assert final["status"] == "over" and final["round"] == ROUNDS
    assert len(final["games"]) == ROUNDS * everyone // 3
    assert all(game["state"] == "over" for game in final["games"])
    check_seating(final)
    def pairs(game: dict[str, Any]) -> set[frozenset[int]]:
        seated = [seat["entrant"] for seat in game["seats"]]
        return {frozenset((a, b)) for a in seated for b in seated if a != b}

    met = set().union(*(pairs(game) for game in final["games"] if game["round"] == 1))
    again = [game for game in final["games"] if game["round"] == 2 and pairs(game) & met]
    assert not again, again  # nine at tables of three: round 2 meets nobody twice
    counted = recount(final)
    by_name = {line["name"]: line["entrant"] for line in final["standings"]}
    for row in lines[0]:
        name = row.split("\t")[1].strip().removesuffix("bot").strip()
        assert points_of(row) == counted[by_name[name]], (row, counted)
    assert {p for p in PEOPLE} <= set(by_name)
    assert not errors, errors


ARENA_SECONDS = 45.0
"""The arena's window: long enough for a person to play a few games at clicking speed."""


def best_streaks(shown: dict[str, Any]) -> dict[int, int]:
    """Each entrant's longest run of won games (first place, shared or not, by R12), in
    the order the tables finished, counted here from the tables alone."""
    streak: dict[int, int] = {e["number"]: 0 for e in shown["entrants"]}
    best = dict(streak)
    games = sorted((g for g in shown["games"] if g["points"] is not None),
                   key=lambda g: g["finished_ms"])
    for game in games:
        order = [(p, -d) for p, d in zip(game["points"], game["discarded"], strict=True)]
        for me, seat in enumerate(game["seats"]):
            if seat is not None:
                won = all(order[me] >= other for other in order)
                streak[seat["entrant"]] = streak[seat["entrant"]] + 1 if won else 0
                best[seat["entrant"]] = max(best[seat["entrant"]], streak[seat["entrant"]])
    return best


def test_an_arena_runs_to_its_end_and_shows_streak_points(server: LiveServer,
                                                          browser: Any) -> None:
    """An arena of 45 seconds (made in the database: the page offers 5 minutes at least)
    with four bots: a person enters from the page and plays table after table from the
    table page until the arena is over; the page's points (a game after two wins in a row
    counts double) and best streaks are the recount's, and the page is axe-clean running
    and over."""
    engine = create_engine(normalize_url(server.db_url))
    now = time.time()
    setup = dataclasses.replace(
        make_setup(name="Short arena", kind="arena", seats=3, speed="live", rated=False,
                   rounds=0, minutes=5, starts_in=0, bots=4, bot_level="random",
                   created_by=None, now=now),
        ends_at=now + ARENA_SECONDS)
    TournamentStore(engine).create(setup, now)
    engine.dispose()
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    register(page, server, "Gia")
    page.goto(f"{server.base}/tournaments/{setup.id}")
    page.click("#enter")
    page.wait_for_selector("#leave")
    axe_clean(page)  # under way
    over = "section.tournament strong:text-is('Over')"
    played: set[str] = set()
    while True:
        page.goto(f"{server.base}/tournaments/{setup.id}")
        fresh = ".your-table a" + "".join(f":not([href='{href}'])" for href in played)
        page.locator(fresh).or_(page.locator(over)).first.wait_for(timeout=120_000)
        if page.locator(over).count():
            break
        link = page.locator(fresh)
        played.add(str(link.get_attribute("href")))
        link.click()
        page.wait_for_url(re.compile(r".*/t/[\w-]+$"))
        page.wait_for_selector(".game")
        play_until_every_score([page])
    assert played, "the person never sat at a table"
    shown_now = shown(page, server, setup.id)
    assert all(game["state"] == "over" for game in shown_now["games"])
    points, streaks = arena_recount(shown_now), best_streaks(shown_now)
    name_of = {e["number"]: e["name"] for e in shown_now["entrants"]}
    rows = page.locator("table.board tbody tr").all_inner_texts()
    assert len(rows) == len(name_of)
    for row in rows:
        cells = [cell.strip() for cell in row.split("\t")]
        number = next(n for n, name in name_of.items()
                      if cells[1].removesuffix("bot").strip() == name)
        assert Fraction(cells[2]) == points[number], (row, points)
        assert int(cells[4]) == streaks[number], (row, streaks)
    assert page.locator("table.board .badge.bot").count() == 4
    axe_clean(page)  # over
    assert not errors, errors
