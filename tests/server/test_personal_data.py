"""``GET /api/me/data``: everything the site holds about an account, as a file to download,
on SQLite and PostgreSQL: the account, its sessions (never their ids), its tables, results,
chat lines, the reports it filed and an operator's mute; none of another account's rows, no
password hash, no session id; guests have no account to ask for."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from kingsbreakfast.cli.main import app as cli
from kingsbreakfast.server.app import create_app
from server.kb_accounts import Player

TABLE = {"name": "ignored", "seats": 3, "bot_level": "random"}


@pytest.fixture
def site(db_url: str) -> Iterator[tuple[TestClient, str]]:
    with TestClient(create_app(db_url, bot_delay=3600.0)) as client:
        yield client, db_url


def test_an_account_downloads_what_the_site_holds_about_it_and_nothing_more(
        site: tuple[TestClient, str]) -> None:
    client, db_url = site
    ann, bob = Player(client), Player(client)
    ann.register("Ann")
    bob.register("Bob")
    grant = ann.post("/api/tables", json=TABLE).json()
    table_id = grant["table"]["id"]
    joined = bob.post(f"/api/tables/{table_id}/join", json={"name": "x"}).json()
    for player, token, text in ((ann, grant["token"], "hello all"),
                                (bob, joined["token"], "Bob's secret plan")):
        said = player.post(f"/api/tables/{table_id}/chat", json={"text": text},
                           headers={"x-seat-token": token})
        assert said.status_code == 201
    assert ann.post("/api/reports", json={"name": "Bob", "reason": "rude"}).status_code == 201
    done = CliRunner().invoke(cli, ["admin", "mute", "Ann", "--hours", "1", "--db", db_url,
                                    "--operator", "Olga", "--lang", "en"])
    assert done.exit_code == 0, done.output

    reply = ann.get("/api/me/data")
    assert reply.status_code == 200
    assert "attachment" in reply.headers["content-disposition"]
    assert reply.headers["cache-control"] == "no-store"
    data = json.loads(reply.text)
    assert data["format"] == "kingsbreakfast-account-data/1"
    assert data["account"]["name"] == "Ann" and data["account"]["rated_games"] == 0
    assert [(t["game"], t["seat"], t["status"]) for t in data["tables"]] == [
        (table_id, 0, "lobby")]
    assert [line["text"] for line in data["chat"]] == ["hello all"]
    assert [(r["about"], r["reason"]) for r in data["reports_filed"]] == [("Bob", "rude")]
    assert data["moderation"]["banned"] is False and data["moderation"]["muted_until"]
    assert len(data["sessions"]) == 1 and set(data["sessions"][0]) == {"expires_at"}
    assert data["email"] is None and data["results"] == [] and data["games_left"] == []
    # nothing of another account's, nor any secret of Ann's own
    assert "Bob's secret plan" not in reply.text
    assert "$argon2" not in reply.text
    for cookie, value in ann.jar.items():
        assert value not in reply.text, cookie
    mine_for_bob = json.loads(bob.get("/api/me/data").text)
    assert [line["text"] for line in mine_for_bob["chat"]] == ["Bob's secret plan"]
    assert mine_for_bob["reports_filed"] == [] and mine_for_bob["moderation"] is None
    assert Player(client).get("/api/me/data").status_code == 401
