"""Deleting an account (server/farewell.py, docs/accounts.md): the password asked again,
every session ended, the person's data gone, finished games kept under a pseudonym, games in
play left like any leaver's (the seat shows the pseudonym), the name reserved for a while
and then free; on SQLite and PostgreSQL."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, insert, select

from kingsbreakfast.server.account_models import AccountEmailRow
from kingsbreakfast.server.app import create_app
from kingsbreakfast.server.farewell import NAME_RESERVED_SECONDS
from kingsbreakfast.server.farewell_models import DepartureRow
from kingsbreakfast.server.moderation_models import AccountStandingRow
from kingsbreakfast.server.storage import normalize_url
from server.kb_accounts import Player
from server.test_accounts import every_stored_text
from server.test_accounts_play import TABLE, rated_game

PASSWORD = "correct horse battery"
FORMER = re.compile(r"Former player \d+")


def add_email(db_url: str, client: TestClient, name: str, address: str) -> None:
    site = client.app.state.site  # type: ignore[attr-defined]
    account = site.accounts.store.account_by_key(name.casefold())
    engine = create_engine(normalize_url(db_url))
    with engine.begin() as connection:
        connection.execute(insert(AccountEmailRow).values(
            account_id=account.id, address=address, verified=True, language="en"
        ))
    engine.dispose()


def seat_zero(player: Player, table_id: str) -> dict[str, Any]:
    seat: dict[str, Any] = player.get(f"/api/tables/{table_id}").json()["seats"][0]
    return seat


@pytest.mark.timeout(180, method="thread")
def test_a_deleted_account_keeps_its_games_under_a_pseudonym_and_nothing_else(
    db_url: str,
) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0, zombie_grace=600.0)) as client:
        ann, bob, finished = rated_game(client)  # "Ann" and "Bob", a rated game over
        add_email(db_url, client, "Ann", "ann.smith@example.org")
        playing = ann.post("/api/tables", json=TABLE).json()["table"]["id"]
        assert bob.post(f"/api/tables/{playing}/join", json={"name": "x"}).status_code == 201
        said = ann.post(f"/api/tables/{playing}/chat", json={"text": "good luck all"})
        assert said.status_code == 201, said.text
        assert ann.post(f"/api/tables/{playing}/start").status_code == 200
        assert seat_zero(bob, playing) == {**seat_zero(bob, playing), "name": "Ann"}
        other_device = Player(client)
        other_device.jar = dict(ann.jar)
        cup = bob.post("/api/tournaments", json={
            "name": "Bob's cup", "kind": "swiss", "seats": 3, "rounds": 1, "bots": 2,
            "bot_level": "random", "starts_in": 3600}).json()["id"]
        assert ann.post(f"/api/tournaments/{cup}/entry").status_code == 201
        assert ann.post("/api/people/follow", json={"name": "Bob"}).status_code == 200
        assert bob.post("/api/people/follow", json={"name": "Ann"}).status_code == 200
        assert ann.post("/api/challenges", json={"name": "Bob", "seats": 3}).status_code == 201
        assert len(bob.get("/api/people").json()["incoming"]) == 1

        for wrong in ("not my password", None, ""):
            refused = ann.post("/api/account/delete", json={"password": wrong})
            assert refused.status_code == 403, refused.text
            assert refused.json()["error"]["code"] == "bad_password_old"
        assert ann.me()["name"] == "Ann"  # nothing happened
        gone = ann.post("/api/account/delete", json={"password": PASSWORD})
        assert gone.status_code == 200, gone.text
        pseudonym = gone.json()["pseudonym"]
        assert FORMER.fullmatch(pseudonym)

        # every session ended, the old name logs in no more
        assert ann.me() is None and other_device.me() is None
        assert Player(client).login("Ann").status_code == 401
        # the game in play: left by the leaver's rules, the seat under the pseudonym
        seat = seat_zero(bob, playing)
        assert seat["kind"] == "open" and seat["name"] == pseudonym
        assert [line["name"] for line in bob.get(f"/api/tables/{playing}/chat").json()] == [
            pseudonym
        ]
        # the finished game stays, under the pseudonym, for the other player
        games = bob.get("/api/me/games").json()
        over = next(g for g in games["finished"] if g["id"] == finished)
        assert over["seats"][0]["name"] == pseudonym
        # no friend, follower or challenge is left of her
        people = bob.get("/api/people").json()
        assert people["friends"] == people["followers"] == people["following"] == []
        assert people["incoming"] == []
        # a tournament not started yet: the entry is gone
        entrants = bob.get(f"/api/tournaments/{cup}").json()["entrants"]
        assert [e["name"] for e in entrants if not e["bot"]] == []
        # no profile, no leaderboard row, under either name
        for name in ("Ann", pseudonym):
            assert Player(client).get(f"/api/players/{name}").status_code == 404
        board = Player(client).get("/api/leaderboard").json()
        assert all(row["name"] not in ("Ann", pseudonym) for row in board["rows"])
        # the name is reserved; nobody registers or sits under a pseudonym either
        someone = Player(client)
        someone.get("/api/account")
        for name in ("Ann", "ANN", pseudonym, "Former player 7"):
            taken = someone.post("/api/account/register",
                                 json={"name": name, "password": PASSWORD})
            assert taken.status_code == 409, name
        for name in ("Ann", "former player 12"):
            guest = Player(client).post("/api/tables", json={**TABLE, "name": name})
            assert guest.json()["error"]["code"] == "account_name", name
        assert ann.post("/api/account/delete", json={"password": PASSWORD}).status_code == 401

    stored = every_stored_text(db_url)
    assert "Ann" not in stored and "ann.smith@example.org" not in stored
    assert "good luck all" in stored  # the line stays, its author the pseudonym


@pytest.mark.timeout(120, method="thread")
def test_the_name_is_free_again_after_the_delay_and_not_before(db_url: str) -> None:
    """The delay is read from the accounts' clock: no sleeping, both sides of it."""
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        site = client.app.state.site  # type: ignore[attr-defined]
        now = [time.time()]
        site.accounts.wall_clock = lambda: now[0]
        cleo = Player(client)
        cleo.register("Cleo")
        deleted = cleo.post("/api/account/delete", json={"password": PASSWORD})
        assert deleted.status_code == 200, deleted.text
        now[0] += NAME_RESERVED_SECONDS - 1.0
        late = Player(client)
        late.get("/api/account")
        before = late.post("/api/account/register", json={"name": "cleo", "password": PASSWORD})
        assert before.json()["error"]["code"] == "name_taken"
        guest = Player(client).post("/api/tables", json={**TABLE, "name": "Cleo"})
        assert guest.json()["error"]["code"] == "account_name"
        now[0] += 2.0
        after = late.post("/api/account/register", json={"name": "cleo", "password": PASSWORD})
        assert after.status_code == 201, after.text
        assert late.me()["name"] == "cleo"
        engine = create_engine(normalize_url(db_url))
        with engine.connect() as connection:  # the old name is kept no longer
            assert connection.execute(select(DepartureRow.look_alike)).scalars().all() == [""]
        engine.dispose()


def test_a_banned_account_cannot_delete_itself(db_url: str) -> None:
    """Deleting is no way out of a ban (docs/accounts.md): a session that outlived the ban
    is refused too, and the account stays."""
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        dan = Player(client)
        dan.register("Dan")
        account_id = client.app.state.site.accounts.store.account_by_key("dan").id  # type: ignore[attr-defined]
        engine = create_engine(normalize_url(db_url))
        with engine.begin() as connection:
            connection.execute(insert(AccountStandingRow).values(
                account_id=account_id, muted_until=0.0, banned=True
            ))
        engine.dispose()
        refused = dan.post("/api/account/delete", json={"password": PASSWORD})
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "banned"
        assert dan.me()["name"] == "Dan"
