"""The TV's list (``GET /api/tv``) on SQLite and PostgreSQL: public games in play only, the
highest mean rating of the seated accounts first (bots and guests unrated), ties broken by
more accounts then the older table; the featured game is the highest rated live one (a
turn-based game is listed, never featured); tournament games come first."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from kingsbreakfast.server import tv
from kingsbreakfast.server.account_models import AccountRow
from kingsbreakfast.server.app import create_app
from kingsbreakfast.server.limits import ServerLimits
from kingsbreakfast.server.master import Master
from kingsbreakfast.server.memory_store import MemoryStore
from kingsbreakfast.server.store import GameRecord, SeatRecord
from server.kb_accounts import Player

LIMITS = ServerLimits(tables_per_minute=600, tables_burst=100, registrations_per_hour=100,
                      registrations_per_day=100)
RATED = {"Ann": 40.0, "Bea": 30.0, "Cid": 20.0, "Dan": 25.0, "Gus": 25.0, "Eve": 50.0,
         "Fay": 60.0}
"""Each account's conservative rating (μ − 3σ) for these tests."""


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    # no bot moves and nobody played for while away: the games stay in play
    app = create_app(db_url, bot_delay=3600.0, zombie_grace=3600.0, limits=LIMITS)
    with TestClient(app) as test_client:
        yield test_client


def rate(client: TestClient, name: str) -> None:
    engine = client.app.state.site.accounts.store.engine  # type: ignore[attr-defined]
    with engine.begin() as connection:
        connection.execute(update(AccountRow).where(AccountRow.name == name)
                           .values(mu=RATED[name] + 3.0, sigma=1.0))


def account(client: TestClient, name: str) -> Player:
    player = Player(client)
    player.register(name)
    rate(client, name)
    return player


def open_table(host: Player, *, public: bool = True, clock: int | None = None,
               seats: int = 3) -> str:
    reply = host.post("/api/tables", json={"name": "Guest host", "seats": seats,
                                           "bot_level": "random", "public": public,
                                           "clock_seconds": clock})
    assert reply.status_code == 201, reply.text
    table_id: str = reply.json()["table"]["id"]
    host.jar["token:" + table_id] = reply.json()["token"]
    return table_id


def join(player: Player, table_id: str) -> None:
    reply = player.post(f"/api/tables/{table_id}/join", json={"name": "Guest"})
    assert reply.status_code == 201, reply.text


def start(host: Player, table_id: str) -> None:
    token = host.jar.pop("token:" + table_id)
    reply = host.post(f"/api/tables/{table_id}/start", headers={"x-seat-token": token})
    assert reply.status_code == 200, reply.text


def order(answer: Any) -> list[str]:
    return [t["id"] for t in answer["tables"]]


def test_the_list_and_the_featured_game(client: TestClient) -> None:
    players = {name: account(client, name) for name in RATED}
    hosts = {"ann": players["Ann"], "bea_cid": players["Bea"], "dan": players["Dan"],
             "gus": players["Gus"], "eve": players["Eve"], "guests": Player(client)}
    tables: dict[str, str] = {}
    tables["ann"] = open_table(hosts["ann"])  # Ann and a guest: 40
    join(Player(client), tables["ann"])
    tables["bea_cid"] = open_table(hosts["bea_cid"])  # (30 + 20) / 2 = 25, two accounts
    join(players["Cid"], tables["bea_cid"])
    tables["dan"] = open_table(hosts["dan"])  # 25, one account, older than Gus's
    tables["gus"] = open_table(hosts["gus"])  # 25, one account
    tables["eve"] = open_table(hosts["eve"], clock=86400)  # 50, turn-based
    tables["guests"] = open_table(hosts["guests"])  # nobody rated
    private = open_table(players["Fay"], public=False)  # 60, but private
    waiting = open_table(Player(client))  # never dealt
    for key, table_id in tables.items():
        start(hosts[key], table_id)
    start(players["Fay"], private)

    answer = client.get("/api/tv").json()
    assert order(answer) == [tables[k] for k in
                             ("eve", "ann", "bea_cid", "dan", "gus", "guests")]
    assert waiting not in order(answer) and private not in order(answer)
    assert answer["featured"]["id"] == tables["ann"]  # Eve's is turn-based: listed only
    shown = {t["id"]: t for t in answer["tables"]}
    assert [t["rating"] for t in answer["tables"]] == [50.0, 40.0, 25.0, 25.0, 25.0, None]
    assert [t["accounts"] for t in answer["tables"]] == [1, 1, 2, 1, 1, 0]
    seats = shown[tables["ann"]]["seats"]
    assert seats[0] == {"kind": "human", "name": "Ann", "level": "random", "rating": 40.0}
    assert seats[1] == {"kind": "human", "name": "Guest", "level": "random", "rating": None}
    assert seats[2] == {"kind": "bot", "name": "", "level": "random", "rating": None}
    assert "deck" not in str(answer) and "draws" not in str(answer)


def test_nothing_in_play_nothing_featured(client: TestClient) -> None:
    open_table(Player(client))  # in the lobby only
    assert client.get("/api/tv").json() == {"featured": None, "tables": []}


def test_a_single_process_in_memory_answers_alike() -> None:
    """The in-memory store of one process (tests, the terminal's relay) lists the same way:
    its records filtered as the database's query filters them."""
    master = Master(MemoryStore(), bot_delay=3600.0, zombie_grace=3600.0)
    with TestClient(create_app(master=master, limits=LIMITS)) as client:
        hosts = [Player(client) for _ in range(3)]
        tables = [open_table(host, public=n != 1) for n, host in enumerate(hosts)]
        for host, table_id in zip(hosts[:2], tables[:2], strict=True):
            start(host, table_id)
        answer = client.get("/api/tv").json()
    assert order(answer) == [tables[0]]  # the private one and the undealt one left out
    assert answer["featured"]["id"] == tables[0]


def _record(game_id: str, clock: int | None, minute: int) -> GameRecord:
    seats = tuple(SeatRecord(n, "human", f"P{n}", None) for n in range(3))
    return GameRecord(
        id=game_id, status="playing", num_seats=3,
        rules={"empty_table": "draw_or_feed", "dragon_min_on_table": 1}, bot_level="easy",
        clock_seconds=clock, public=True, first_cook=0, deck=None,
        created_at=datetime(2026, 1, 1, 12, minute, tzinfo=UTC), finished_at=None,
        seats=seats, actions=(),
    )


def test_tournament_games_first_the_featured_by_rating_alone() -> None:
    """A tournament's games lead the list whatever their rating; the featured game is still
    the highest rated one (the stored link is read in ``test_tournaments.py``)."""
    records = [_record("low", None, 1), _record("high", None, 2), _record("cup", None, 3),
               _record("slow", 86400, 4)]
    ratings = {("high", 0): 30.0, ("cup", 0): 10.0, ("low", 0): 5.0, ("slow", 1): 99.0}
    assert order(tv.tv_answer(records, ratings)) == ["slow", "high", "cup", "low"]
    answer = tv.tv_answer(records, ratings, frozenset({"cup"}))
    assert order(answer) == ["cup", "slow", "high", "low"]
    assert answer["featured"] is not None and answer["featured"]["id"] == "high"
    only_slow = tv.tv_answer([records[3]], ratings)  # no live game: the turn-based one
    assert only_slow["featured"] is not None and only_slow["featured"]["id"] == "slow"
