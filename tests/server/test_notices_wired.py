"""The notices heard where they happen, through the site's own routes: a challenge made on
the People page reaches the challenged player's device, and a tournament round dealt tells
each account seated at it (a real push service on loopback, :mod:`server.kb_push`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from kingsbreakfast.server.app import create_app
from kingsbreakfast.server.push import PushSettings
from server.kb_accounts import Player
from server.kb_push import PushInbox


@pytest.fixture
def inbox() -> Iterator[PushInbox]:
    box = PushInbox().start()
    yield box
    box.stop()


def device(player: Player, inbox: PushInbox, name: str) -> None:
    reply = player.post("/api/me/push", json={**inbox.subscription(name), "language": "de"})
    assert reply.status_code == 200, reply.text


def test_a_challenge_and_a_tournament_round_reach_the_player(
    db_url: str, inbox: PushInbox
) -> None:
    app = create_app(db_url, bot_delay=3600.0, zombie_grace=3600.0,
                     push=PushSettings(local_endpoints=True))
    with TestClient(app) as client:
        app.state.tournaments.director.tick = 0.05
        ann, bob = Player(client), Player(client)
        ann.register("Ann")
        bob.register("Bob")
        device(bob, inbox, "bob-phone")
        made = ann.post("/api/challenges", json={"name": "Bob", "seats": 3})
        assert made.status_code == 201, made.text
        told = inbox.next()
        assert told.message["kind"] == "challenge" and told.message["url"] == "/people"
        assert "Ann" in told.message["body"]
        assert inbox.empty()

        cup = ann.post("/api/tournaments", json={
            "name": "Cup", "kind": "swiss", "seats": 3, "rounds": 1, "bots": 2,
            "bot_level": "random", "starts_in": 3600}).json()["id"]
        assert bob.post(f"/api/tournaments/{cup}/entry").status_code == 201
        assert ann.post(f"/api/tournaments/{cup}/start").status_code == 204
        started = inbox.next()
        assert started.message["kind"] == "game_starting"
        assert started.message["url"].startswith("/t/")
        table = started.message["url"].removeprefix("/t/")
        assert client.get(f"/api/tournaments/{cup}").json()["games"][0]["table"] == table
