"""People on SQLite and PostgreSQL: following both ways makes friends, seen online now; a
block keeps two accounts from one table (joining either way, play now), keeps the blocked
one's chat from the blocker (as said, and read later) and stops challenges; a challenge is
accepted once into a new table where both sit, declined, withdrawn, or expires; and the
account's data download holds its follows, blocks and challenges."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kingsbreakfast.server.app import create_app
from kingsbreakfast.server.challenges import LIVE_SECONDS
from kingsbreakfast.server.people import ONLINE_SECONDS
from kingsbreakfast.server.rating_rules import Standing, results_of
from server.kb_accounts import Player
from server.test_accounts_play import hello, play_together
from server.test_rating_rules import account, game_where

TABLE = {"name": "ignored", "seats": 3, "bot_level": "random"}


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, bot_delay=3600.0)) as test_client:
        yield test_client


def players(client: TestClient, *names: str) -> list[Player]:
    made = []
    for name in names:
        player = Player(client)
        player.register(name)
        made.append(player)
    return made


def code(reply: Any) -> tuple[int, str]:
    return reply.status_code, reply.json()["error"]["code"]


def names(listed: list[dict[str, Any]]) -> list[str]:
    return [p["name"] for p in listed]


def test_following_both_ways_makes_friends_seen_online(client: TestClient) -> None:
    ann, bob, cy = players(client, "Ann", "Bob", "Cy")
    followed = ann.post("/api/people/follow", json={"name": "bob"})  # as it reads
    assert followed.status_code == 200 and followed.json()["name"] == "Bob"
    assert followed.json()["rating"] == pytest.approx(0.0, abs=30)
    mine = ann.get("/api/people").json()
    assert names(mine["following"]) == ["Bob"] and mine["friends"] == []
    assert names(bob.get("/api/people").json()["followers"]) == ["Ann"]
    assert bob.post("/api/people/follow", json={"name": "Ann"}).status_code == 200
    cy.post("/api/people/follow", json={"name": "Ann"})
    mine = ann.get("/api/people").json()
    assert mine["friends"] == [{"name": "Bob", "rating": mine["friends"][0]["rating"],
                                "online": True}]  # Bob's page asked a moment ago
    assert names(mine["followers"]) == ["Cy"] and mine["following"] == []
    site = client.app.state.site  # type: ignore[attr-defined]
    later = site.accounts.wall_clock() + ONLINE_SECONDS + 1
    site.accounts.wall_clock = lambda: later  # Bob's page closed long ago
    assert ann.get("/api/people").json()["friends"][0]["online"] is False
    assert ann.post("/api/people/unfollow", json={"name": "Bob"}).status_code == 204
    assert ann.get("/api/people").json()["friends"] == []
    assert code(ann.post("/api/people/follow", json={"name": "Ann"})) == (422, "people_self")
    assert code(ann.post("/api/people/follow", json={"name": "Nobody"})) == (
        404, "people_unknown")
    assert code(Player(client).get("/api/people")) == (401, "not_logged_in")
    assert code(Player(client).post("/api/people/follow", json={"name": "Ann"})) == (
        401, "not_logged_in")


def test_ratings_of_names_leave_guests_and_bots_out(client: TestClient) -> None:
    players(client, "Ann")
    found = Player(client).get("/api/ratings", params={"name": ["ann", "Guest", "Bot 2"]})
    assert found.status_code == 200 and list(found.json()["ratings"]) == ["ann"]


def test_a_block_keeps_two_accounts_from_one_table(client: TestClient) -> None:
    ann, bob, cy = players(client, "Ann", "Bob", "Cy")
    ann.post("/api/people/follow", json={"name": "Bob"})
    bob.post("/api/people/follow", json={"name": "Ann"})
    assert ann.post("/api/people/block", json={"name": "Bob"}).status_code == 200
    assert names(ann.get("/api/people").json()["blocked"]) == ["Bob"]
    assert ann.get("/api/people").json()["friends"] == []  # the follows ended
    assert code(bob.post("/api/people/follow", json={"name": "Ann"})) == (
        403, "people_blocked")
    annes = ann.post("/api/tables", json=TABLE).json()["table"]["id"]
    assert code(bob.post(f"/api/tables/{annes}/join", json={"name": "x"})) == (
        403, "people_blocked_table")
    bobs = bob.post("/api/tables", json=TABLE).json()["table"]["id"]
    assert code(ann.post(f"/api/tables/{bobs}/join", json={"name": "x"})) == (
        403, "people_blocked_table")  # the blocker may not sit with them either
    assert cy.post(f"/api/tables/{annes}/join", json={"name": "x"}).status_code == 201
    assert code(bob.post("/api/challenges", json={"name": "Ann"})) == (403, "people_blocked")
    assert code(ann.post("/api/challenges", json={"name": "Bob"})) == (403, "people_blocked")
    assert ann.post("/api/people/unblock", json={"name": "Bob"}).status_code == 204
    assert bob.post(f"/api/tables/{annes}/join", json={"name": "x"}).status_code == 201


def test_play_now_never_groups_a_blocked_account(client: TestClient) -> None:
    ann, bob, cy = players(client, "Ann", "Bob", "Cy")
    wish = {"seats": 3, "speed": "turn"}
    first = ann.post("/api/play-now", json=wish).json()["table"]
    assert cy.post("/api/play-now", json=wish).json()["table"] == first  # strangers meet
    cy.post("/api/people/block", json={"name": "Bob"})
    assert bob.post("/api/play-now", json=wish).json()["table"] != first


def test_the_blocked_ones_chat_never_reaches_the_blocker(client: TestClient) -> None:
    ann, bob = players(client, "Ann", "Bob")
    table_id = ann.post("/api/tables", json=TABLE).json()["table"]["id"]
    bob.post(f"/api/tables/{table_id}/join", json={"name": "x"})
    ann.post("/api/people/block", json={"name": "Bob"})  # seated together before the block
    ws, socket, _frame = hello(ann, table_id, cookie=True)
    try:
        assert bob.post(f"/api/tables/{table_id}/chat", json={"text": "from Bob"}).json()
        assert ann.post(f"/api/tables/{table_id}/chat", json={"text": "from Ann"}).json()
        frame = socket.receive_json()
        while frame["type"] != "chat":
            frame = socket.receive_json()
    finally:
        ws.__exit__(None, None, None)
    assert frame["text"] == "from Ann"  # Bob's line, said first, never came
    assert [line["text"] for line in ann.get(f"/api/tables/{table_id}/chat").json()] == [
        "from Ann"]
    assert [line["text"] for line in bob.get(f"/api/tables/{table_id}/chat").json()] == [
        "from Bob", "from Ann"]


def test_a_blocker_who_watches_never_hears_the_blocked_one(client: TestClient) -> None:
    ann, bob, cy = players(client, "Ann", "Bob", "Cy")
    table_id = bob.post("/api/tables", json=TABLE).json()["table"]["id"]
    cy.post(f"/api/tables/{table_id}/join", json={"name": "x"})
    ann.post("/api/people/block", json={"name": "Bob"})
    ws, socket, frame = hello(ann, table_id)  # a spectator, logged in
    assert frame["you"] is None
    try:
        assert bob.post(f"/api/tables/{table_id}/chat", json={"text": "from Bob"}).json()
        assert cy.post(f"/api/tables/{table_id}/chat", json={"text": "from Cy"}).json()
        frame = socket.receive_json()
        while frame["type"] != "chat":
            frame = socket.receive_json()
    finally:
        ws.__exit__(None, None, None)
    assert frame["text"] == "from Cy"
    assert [line["text"] for line in ann.get(f"/api/tables/{table_id}/chat").json()] == [
        "from Cy"]


def test_a_challenge_accepted_seats_both_at_a_new_table(client: TestClient) -> None:
    ann, bob = players(client, "Ann", "Bob")
    ask = {"name": "bob", "seats": 4, "clock_seconds": 120, "rated": False, "bots": True}
    made = ann.post("/api/challenges", json=ask)
    assert made.status_code == 201, made.text
    assert made.json()["to"] == "Bob" and made.json()["state"] == "open"
    assert code(ann.post("/api/challenges", json=ask)) == (409, "challenge_open")
    assert code(ann.post("/api/challenges", json={**ask, "clock_seconds": 7000})) == (
        422, "bad_clock")
    incoming = bob.get("/api/people").json()["incoming"]
    assert [(c["from"], c["seats"], c["clock_seconds"]) for c in incoming] == [
        ("Ann", 4, 120)]
    number = incoming[0]["id"]
    assert code(ann.post(f"/api/challenges/{number}/accept")) == (404, "no_such_challenge")
    taken = bob.post(f"/api/challenges/{number}/accept")
    assert taken.status_code == 201, taken.text
    table_id = taken.json()["table"]
    table = bob.get(f"/api/tables/{table_id}").json()
    assert [(s["kind"], s["name"]) for s in table["seats"]] == [
        ("human", "Ann"), ("human", "Bob"), ("open", ""), ("open", "")]
    assert table["num_seats"] == 4 and table["clock_seconds"] == 120
    assert table["public"] is False  # bots take the other seats: nobody else is asked
    assert code(bob.post(f"/api/challenges/{number}/accept")) == (409, "challenge_gone")
    outgoing = ann.get("/api/people").json()["outgoing"]
    assert [(c["state"], c["table"]) for c in outgoing] == [("accepted", table_id)]
    assert bob.get("/api/people").json()["incoming"] == []
    # both seats are the accounts': the host deals from Ann's cookie, Bob's seat is his
    assert ann.post(f"/api/tables/{table_id}/start").status_code == 200
    games = bob.get("/api/me/games").json()["running"]
    assert [g["id"] for g in games] == [table_id]


def test_a_challenge_declined_withdrawn_or_expired(client: TestClient) -> None:
    ann, bob = players(client, "Ann", "Bob")
    first = ann.post("/api/challenges", json={"name": "Bob", "bots": False}).json()["id"]
    assert bob.post(f"/api/challenges/{first}/decline").status_code == 204
    assert [c["state"] for c in ann.get("/api/people").json()["outgoing"]] == ["declined"]
    second = ann.post("/api/challenges", json={"name": "Bob"}).json()["id"]
    assert code(bob.post(f"/api/challenges/{second}/withdraw")) == (404, "no_such_challenge")
    assert ann.post(f"/api/challenges/{second}/withdraw").status_code == 204
    assert code(bob.post(f"/api/challenges/{second}/accept")) == (409, "challenge_gone")
    third = ann.post("/api/challenges", json={"name": "Bob"}).json()["id"]
    site = client.app.state.site  # type: ignore[attr-defined]
    later = site.accounts.wall_clock() + LIVE_SECONDS + 1
    site.accounts.wall_clock = lambda: later
    assert bob.get("/api/people").json()["incoming"] == []
    assert code(bob.post(f"/api/challenges/{third}/accept")) == (409, "challenge_gone")
    states = [c["state"] for c in ann.get("/api/people").json()["outgoing"]]
    assert states[0] == "expired"


def test_the_data_download_holds_follows_blocks_and_challenges(client: TestClient) -> None:
    ann, _bob, _cy = players(client, "Ann", "Bob", "Cy")
    ann.post("/api/people/follow", json={"name": "Bob"})
    ann.post("/api/people/block", json={"name": "Cy"})
    ann.post("/api/challenges", json={"name": "Bob", "seats": 5})
    data = ann.get("/api/me/data").json()
    assert [f["name"] for f in data["follows"]] == ["Bob"]
    assert [b["name"] for b in data["blocks"]] == ["Cy"]
    assert [(c["from"], c["to"], c["seats"]) for c in data["challenges"]] == [
        ("Ann", "Bob", 5)]


@pytest.fixture
def quick(db_url: str) -> Iterator[TestClient]:
    """Bots move at once and away players are played for: a game runs to its end."""
    with TestClient(create_app(db_url, bot_delay=0.0, zombie_grace=0.0)) as test_client:
        yield test_client


def test_a_friendly_challenge_game_moves_no_rating_and_a_block_stops_the_rematch(
    quick: TestClient,
) -> None:
    ann, bob = players(quick, "Ann", "Bob")
    made = ann.post("/api/challenges", json={"name": "Bob", "rated": False}).json()
    table_id = bob.post(f"/api/challenges/{made['id']}/accept").json()["table"]
    play_together([ann, bob], table_id, ann)
    site = quick.app.state.site  # type: ignore[attr-defined]
    quick.portal.call(site.ratings.settle, table_id)  # type: ignore[union-attr]
    for name in ("Ann", "Bob"):  # the game counts, the rating stays
        shown = ann.get(f"/api/players/{name}").json()
        assert (shown["games"], shown["rated_games"]) == (1, 0), shown
    finished = ann.get("/api/me/games").json()["finished"]
    assert [g["id"] for g in finished] == [table_id]
    bob.post("/api/people/block", json={"name": "Ann"})
    assert code(ann.post(f"/api/tables/{table_id}/rematch")) == (403, "people_blocked_table")


def test_a_friendly_challenge_is_not_rated() -> None:
    """The places (R12) still stand; a game its challenge made friendly moves no rating."""
    record = game_where(better=1, worse=0)
    accounts = {1: account(1), 2: account(2)}
    friendly = results_of(record, {0: 1, 1: 2}, accounts, Standing(friendly=True))
    assert [(r.rated, r.unrated, r.mu) for r in friendly] == [(False, "friendly", 25.0)] * 2
    assert all(r.rated for r in results_of(record, {0: 1, 1: 2}, accounts, Standing()))
