"""Moderation on SQLite and PostgreSQL: the chat refuses links and repeated lines; players
report a player or a chat line (someone real, never themselves, a few an hour per address);
the operator's commands (``kingsbreakfast admin``, run as a person runs them, on the same
database the server uses) list the reports, hide a line, mute, ban and rename an account,
each one honoured by the running server at once and written to the audit log."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from kingsbreakfast.cli.main import app as cli
from kingsbreakfast.server.app import create_app
from kingsbreakfast.server.routes.reports import REPORTS_BURST
from server.kb_accounts import Player

TABLE = {"name": "ignored", "seats": 3, "bot_level": "random"}


@pytest.fixture
def site(db_url: str) -> Iterator[tuple[TestClient, str]]:
    with TestClient(create_app(db_url, bot_delay=3600.0)) as client:
        yield client, db_url


def admin(db_url: str, *words: str) -> str:
    """Run ``kingsbreakfast admin WORDS`` on the site's database; its output (exit 0)."""
    acting = [] if words[0] in ("reports", "log") else ["--operator", "Olga"]
    done = CliRunner().invoke(cli, ["admin", *words, "--db", db_url, *acting, "--lang", "en"])
    assert done.exit_code == 0, done.output
    return done.output


def admin_fails(db_url: str, *words: str) -> str:
    done = CliRunner().invoke(cli, ["admin", *words, "--db", db_url, "--lang", "en"])
    assert done.exit_code == 2, done.output
    return done.output


def seated(client: TestClient) -> tuple[Player, Player, str, list[str]]:
    """Ann (an account) hosts a table where Bob (an account) sits too."""
    ann, bob = Player(client), Player(client)
    ann.register("Ann")
    bob.register("Bob")
    grant = ann.post("/api/tables", json=TABLE).json()
    table_id = grant["table"]["id"]
    joined = bob.post(f"/api/tables/{table_id}/join", json={"name": "x"}).json()
    return ann, bob, table_id, [grant["token"], joined["token"]]


def say(player: Player, table_id: str, token: str, text: str) -> Any:
    return player.post(f"/api/tables/{table_id}/chat", json={"text": text},
                       headers={"x-seat-token": token})


def code(reply: Any) -> tuple[int, str]:
    return reply.status_code, reply.json()["error"]["code"]


@pytest.mark.parametrize("link", [
    "see http://spam.example", "www.cheap-dishes.biz", "mail me: ann@example.org",
    "go to dragon-gold.com now", "dragon-gold . com", "shop at spam.xyz/deal",
])
def test_the_chat_refuses_links(site: tuple[TestClient, str], link: str) -> None:
    client, _db = site
    ann, _bob, table_id, tokens = seated(client)
    assert code(say(ann, table_id, tokens[0], link)) == (422, "chat_link")
    assert say(ann, table_id, tokens[0], "well played. Fish, then cake?").status_code == 201


def test_the_chat_refuses_a_line_repeated(site: tuple[TestClient, str]) -> None:
    client, _db = site
    ann, _bob, table_id, tokens = seated(client)
    assert say(ann, table_id, tokens[0], "hurry up").status_code == 201
    assert code(say(ann, table_id, tokens[0], "HURRY  UP")) == (429, "chat_repeat")
    for other in ("one", "two", "three"):  # three other lines later it may come again
        assert say(ann, table_id, tokens[0], other).status_code == 201
    assert say(ann, table_id, tokens[0], "hurry up").status_code == 201


def test_reports_name_someone_real_and_never_oneself(site: tuple[TestClient, str]) -> None:
    client, db_url = site
    ann, bob, table_id, tokens = seated(client)
    line = say(bob, table_id, tokens[1], "you are all terrible").json()
    reported = ann.post("/api/reports", json={
        "name": "ignored", "reason": "insults", "table": table_id, "chat_line": line["id"]})
    assert reported.status_code == 201, reported.text
    by_name = Player(client).post("/api/reports", json={"name": "bob", "reason": "rude"})
    assert by_name.status_code == 201  # a guest may report; the name is read as the account's
    assert code(Player(client).post("/api/reports", json={
        "name": "Nobody At All", "reason": "x"})) == (404, "no_such_player")
    assert code(ann.post("/api/reports", json={"name": "Ann", "reason": "me"})) == (
        422, "report_self")
    assert code(ann.post("/api/reports", json={
        "name": "x", "reason": "x", "table": "elsewhere", "chat_line": line["id"]})) == (
        404, "no_such_chat_line")
    listed = admin(db_url, "reports")
    assert f"#{reported.json()['id']}" in listed and "Bob, reported by Ann" in listed
    assert "you are all terrible" in listed and "reason: insults" in listed
    assert "Bob, reported by a guest" in listed
    admin(db_url, "close", str(reported.json()["id"]), "--outcome", "warned")
    assert f"#{reported.json()['id']}" not in admin(db_url, "reports")
    assert "closed" in admin(db_url, "reports", "--all")


def test_reports_from_one_address_are_bounded(site: tuple[TestClient, str]) -> None:
    client, _db = site
    ann, _bob, _table, _tokens = seated(client)
    answers = [ann.post("/api/reports", json={"name": "Bob", "reason": f"r{n}"}).status_code
               for n in range(int(REPORTS_BURST) + 1)]
    assert 429 in answers
    refused = ann.post("/api/reports", json={"name": "Bob", "reason": "again"})
    assert code(refused) == (429, "too_many_reports")
    assert int(refused.headers["retry-after"]) >= 1


def test_a_hidden_line_is_never_sent_again(site: tuple[TestClient, str]) -> None:
    client, db_url = site
    ann, bob, table_id, tokens = seated(client)
    kept = say(ann, table_id, tokens[0], "good luck").json()
    bad = say(bob, table_id, tokens[1], "something vile").json()
    assert "chat line" in admin(db_url, "hide-chat", str(bad["id"]))
    lines = Player(client).get(f"/api/tables/{table_id}/chat").json()
    assert [line["id"] for line in lines] == [kept["id"]]
    assert "no chat line 999999" in admin_fails(db_url, "hide-chat", "999999")


def test_a_muted_account_cannot_chat_until_unmuted(site: tuple[TestClient, str]) -> None:
    client, db_url = site
    ann, bob, table_id, tokens = seated(client)
    assert "Bob is muted until" in admin(db_url, "mute", "bob", "--hours", "2")
    refused = say(bob, table_id, tokens[1], "can you hear me")
    assert code(refused) == (403, "muted") and refused.json()["error"]["params"]["until_ms"]
    assert say(ann, table_id, tokens[0], "Ann still can").status_code == 201
    admin(db_url, "unmute", "Bob")
    assert say(bob, table_id, tokens[1], "can you hear me").status_code == 201
    assert "there is no account named Zed" in admin_fails(db_url, "mute", "Zed")


def test_a_banned_account_is_out_at_once_and_cannot_log_in(
        site: tuple[TestClient, str]) -> None:
    client, db_url = site
    ann, bob, _table, _tokens = seated(client)
    other_device = Player(client)
    assert other_device.login("Bob").status_code == 200
    assert bob.me()["name"] == "Bob"
    assert "Bob is banned; 2 sessions ended" in admin(db_url, "ban", "Bob", "--why", "spam")
    assert bob.me() is None and other_device.me() is None
    assert code(Player(client).login("Bob")) == (403, "banned")
    assert code(Player(client).login("Bob", "a wrong password")) == (401, "bad_login")
    assert ann.me()["name"] == "Ann"
    admin(db_url, "unban", "Bob")
    assert Player(client).login("Bob").status_code == 200


def test_rename_keeps_the_rules_of_names_and_everything_goes_to_the_log(
        site: tuple[TestClient, str]) -> None:
    client, db_url = site
    ann, _bob, _table, _tokens = seated(client)
    assert "Ann is now Annabel" in admin(db_url, "rename", "Ann", "Annabel")
    assert ann.me()["name"] == "Annabel"
    assert Player(client).get("/api/players/Annabel").status_code == 200
    assert "an account named Bob exists already" in admin_fails(db_url, "rename", "Annabel",
                                                                 "B0B")
    assert "look like a bot" in admin_fails(db_url, "rename", "Annabel", "Bot 2 (easy)")
    admin(db_url, "mute", "Bob", "--hours", "1")
    log = admin(db_url, "log").splitlines()
    assert [line.split()[4] for line in log] == ["mute", "rename"]  # newest first
    assert all(" Olga " in line for line in log)
    assert "Ann" in log[1] and "Annabel" in log[1]
