"""Tournaments through the app on SQLite and PostgreSQL: a Swiss with an account playing its
own games against bots entered by name, the standings checked against a recount; an arena of
bots; entries, refusals and the live polling answer (docs/tournaments.md)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from fractions import Fraction
from itertools import combinations, pairwise
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kingsbreakfast.server.app import create_app
from kingsbreakfast.server.tournaments.making import make_setup
from server.kb_accounts import Player
from server.kb_tournaments import check_seating, recount, wait_for


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    app = create_app(db_url, bot_delay=0.0, zombie_grace=0.0)
    with TestClient(app) as test_client:
        app.state.tournaments.director.tick = 0.05
        yield test_client


def play_seat(player: Player, table_id: str, seat: int, token: str) -> None:
    """Play ``seat`` (its first legal action each turn) until the game is over."""
    with player.websocket(f"/ws/tables/{table_id}") as me:
        me.send_json({"type": "hello", "token": token})
        for _ in range(2000):
            frame: dict[str, Any] = me.receive_json()
            if frame["type"] != "state" or frame["view"] is None:
                continue
            view = frame["view"]
            if view["to_move"] is None:
                return
            if view["to_move"] == seat:
                words = view["legal"][0].split()
                body: dict[str, Any] = {"type": words[0]}
                if words[0] == "take":
                    body["dish"] = words[1]
                elif words[0] == "feed":
                    body["dishes"] = words[1:]
                me.send_json({"type": "act", "version": frame["version"], "action": body})
    raise AssertionError("the game did not end")


def test_a_swiss_with_an_account_and_named_bots(client: TestClient) -> None:
    ann, bea = Player(client), Player(client)
    ann.register("Ann")
    bea.register("Bea")
    made = ann.post("/api/tournaments", json={
        "name": "Sunday Swiss", "kind": "swiss", "seats": 3, "rounds": 2, "bots": 8,
        "bot_level": "random", "starts_in": 3600})
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    assert ann.post(f"/api/tournaments/{tid}/entry").status_code == 201
    again = ann.post(f"/api/tournaments/{tid}/entry")
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_entered"
    assert bea.post(f"/api/tournaments/{tid}/entry").status_code == 201
    assert bea.call("DELETE", f"/api/tournaments/{tid}/entry").status_code == 204
    refused = bea.post(f"/api/tournaments/{tid}/start")
    assert refused.status_code == 409  # only its maker starts it early
    shown = client.get(f"/api/tournaments/{tid}").json()
    assert [e["bot"] for e in shown["entrants"]] == [True] * 8 + [False]
    assert shown["entrants"][0]["name"] == "Chef"
    assert ann.post(f"/api/tournaments/{tid}/start").status_code == 204
    late = bea.post(f"/api/tournaments/{tid}/entry")
    assert late.status_code == 409 and late.json()["error"]["code"] == "entries_closed"

    for round_number in (1, 2):
        seat = wait_for(lambda n=round_number: _seat_in_round(ann, tid, n),
                        f"Ann's table in round {round_number}")
        on_tv = {t["id"]: t for t in client.get("/api/tv").json()["tables"]}
        assert on_tv[seat["table"]]["tournament"] is True  # waiting for Ann: in play
        play_seat(ann, seat["table"], seat["seat"], seat["token"])
    final = wait_for(lambda: _over(client, tid), "the end of the Swiss")

    check_seating(final)
    assert len(final["games"]) == 6  # 9 entrants: three tables of three, two rounds
    met: set[frozenset[int]] = set()
    for game in final["games"]:
        for a, b in combinations([s["entrant"] for s in game["seats"]], 2):
            assert frozenset((a, b)) not in met  # nine at threes: no one meets twice
            met.add(frozenset((a, b)))
    counted = recount(final)
    for line in final["standings"]:
        assert Fraction(line["points"]).limit_denominator(4) == counted[line["entrant"]]
        assert line["games"] == 2
    points = [Fraction(line["points"]).limit_denominator(4) for line in final["standings"]]
    assert points == sorted(points, reverse=True)
    assert {line["bot"] for line in final["standings"]} == {True, False}
    entered = json.loads(ann.get("/api/me/data").text)["tournaments"]
    assert [(e["tournament"], e["name"]) for e in entered] == [(tid, "Ann")]
    assert json.loads(bea.get("/api/me/data").text)["tournaments"] == []  # she left
    # the live answer: nothing new since the last version
    unchanged = client.get(f"/api/tournaments/{tid}?since={final['version']}")
    assert unchanged.status_code == 204


def _seat_in_round(player: Player, tid: str, round_number: int) -> dict[str, Any] | None:
    shown = player.get(f"/api/tournaments/{tid}").json()
    if shown["round"] != round_number or shown["you"]["table"] is None:
        return None
    reply = player.get(f"/api/tournaments/{tid}/seat")
    return reply.json() if reply.status_code == 200 else None


def _over(client: TestClient, tid: str) -> dict[str, Any] | None:
    shown: dict[str, Any] = client.get(f"/api/tournaments/{tid}").json()
    return shown if shown["status"] == "over" else None


def test_an_arena_of_bots_seats_the_free_and_ends_on_time(client: TestClient) -> None:
    """The director's clock is the test's: tables are dealt while the window is open, and
    none once it has closed, however slowly the machine runs."""
    tournaments = client.app.state.tournaments  # type: ignore[attr-defined]
    clock = [time.time()]

    def ticking() -> float:  # a thousandth of a second further at each reading
        clock[0] += 0.001
        return clock[0]

    tournaments.director.wall_clock = ticking
    setup = make_setup(name="Quick arena", kind="arena", seats=3, speed="live", rated=False,
                       rounds=0, minutes=5, starts_in=0, bots=5, bot_level="random",
                       created_by=None, now=clock[0])
    tournaments.store.create(setup, clock[0])
    tournaments.wake()
    wait_for(lambda: sum(g.state == "over" for g in tournaments.store.games(setup.id)) >= 2,
             "two arena games over")
    assert setup.ends_at is not None
    clock[0] = setup.ends_at  # the window closes: any later reading is past its end
    tournaments.wake()
    final = wait_for(lambda: _over(client, setup.id), "the end of the arena")
    check_seating(final)
    games = tournaments.store.games(setup.id)
    assert games and all(g.state == "over" for g in games)
    assert all(g.created_at <= setup.ends_at for g in games)  # none dealt after the end
    for entrant in range(5):  # nobody at two tables at once
        mine = sorted((g for g in games if entrant in g.seating), key=lambda g: g.created_at)
        for earlier, later in pairwise(mine):
            assert earlier.finished_at is not None and earlier.finished_at <= later.created_at
    assert sum(line["games"] for line in final["standings"]) == 3 * len(games)


def test_refusals(client: TestClient) -> None:
    guest = client.post("/api/tournaments", json={"name": "X"})
    assert guest.status_code == 401
    ann = Player(client)
    ann.register("Ann")
    bad = ann.post("/api/tournaments", json={"name": "X", "seats": 6})
    assert bad.status_code == 422
    assert client.get("/api/tournaments/nope").status_code == 404
    made = ann.post("/api/tournaments", json={"name": "Later", "starts_in": 3600}).json()
    listed = client.get("/api/tournaments").json()
    assert [t["id"] for t in listed] == [made["id"]] and listed[0]["status"] == "open"
    other = ann.post("/api/tournaments", json={"name": "Other", "starts_in": 3600}).json()
    assert ann.post(f"/api/tournaments/{made['id']}/entry").status_code == 201
    twice = ann.post(f"/api/tournaments/{other['id']}/entry")  # one at a time
    assert twice.status_code == 409 and twice.json()["error"]["code"] == "in_another"
    assert ann.call("DELETE", f"/api/tournaments/{made['id']}/entry").status_code == 204
    assert ann.post(f"/api/tournaments/{other['id']}/entry").status_code == 201


def test_the_operator_makes_starts_and_lists_from_the_command_line(db_url: str) -> None:
    from typer.testing import CliRunner

    from kingsbreakfast.cli.main import app as cli
    from kingsbreakfast.server.storage import Storage

    storage = Storage(db_url)
    storage.migrate()
    storage.dispose()

    def run(*words: str) -> str:
        done = CliRunner().invoke(cli, ["tournament-admin", *words, "--db", db_url,
                                        "--lang", "en"])
        assert done.exit_code == 0, done.output
        return done.output

    made = run("create", "--name", "Operator Cup", "--kind", "arena", "--bots", "3",
               "--starts-in", "3600")
    tid = made.split()[1]
    assert "Operator Cup (arena), open" in run("list")
    assert "starts now" in run("start", tid)
    refused = CliRunner().invoke(cli, ["tournament-admin", "create", "--name", "X", "--seats",
                                       "6", "--db", db_url, "--lang", "en"])
    assert refused.exit_code != 0 and "3 to 5" in refused.output


def test_a_rated_tournaments_seats_belong_to_their_accounts(client: TestClient) -> None:
    ann = Player(client)
    ann.register("Ann")
    tid = ann.post("/api/tournaments", json={
        "name": "Rated Cup", "seats": 3, "rounds": 1, "bots": 2, "bot_level": "random",
        "rated": True, "starts_in": 3600}).json()["id"]
    assert ann.post(f"/api/tournaments/{tid}/entry").status_code == 201
    assert ann.post(f"/api/tournaments/{tid}/start").status_code == 204
    seat = wait_for(lambda: _seat_in_round(ann, tid, 1), "Ann's table")
    store = client.app.state.site.accounts.store  # type: ignore[attr-defined]
    owners = store.seat_owners(seat["table"])
    assert list(owners) == [seat["seat"]]  # Ann's seat is her account's; the bots' none
    # her seat token is the account's own: any of her devices plays it
    state = ann.get(f"/api/tables/{seat['table']}").json()
    assert state["seats"][seat["seat"]]["name"] == "Ann"
