"""Accounts and their security: register, log in and out, change the password; the password
is never stored or logged in clear, a session cannot be fixed from outside, state-changing
calls need the CSRF proof, and guessing passwords is slowed down."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, text

from kingsbreakfast.server.accounts import (
    FREE_FAILURES,
    MAX_LOCK_SECONDS,
    NAME_FAILURES,
    NAME_WINDOW,
    lock_seconds,
)
from kingsbreakfast.server.app import create_app
from kingsbreakfast.server.sessions import SESSION_SECONDS
from kingsbreakfast.server.storage import normalize_url
from server.kb_accounts import Player

SECRET = "Sesame-open-9137!"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, bot_delay=0.0)) as test_client:
        yield test_client


def every_stored_text(db_url: str) -> str:
    """Every value of every row of every table, as one text."""
    engine = create_engine(normalize_url(db_url))
    parts: list[str] = []
    with engine.connect() as connection:
        for table in inspect(connection).get_table_names():
            for row in connection.execute(text(f"SELECT * FROM {table}")):
                parts.extend(str(value) for value in row)
    engine.dispose()
    return "\n".join(parts)


def test_register_log_out_log_in_and_change_the_password(client: TestClient) -> None:
    ann = Player(client)
    assert ann.me() is None
    ann.register("Ann")
    assert ann.me()["name"] == "Ann"
    again = Player(client)
    again.get("/api/account")
    taken = again.post("/api/account/register", json={"name": "ANN", "password": SECRET})
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "name_taken"
    assert ann.post("/api/account/logout").status_code == 204
    assert ann.me() is None
    wrong = ann.login("Ann", "not the password")
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "bad_login"
    assert ann.login("ann").status_code == 200 and ann.me()["name"] == "Ann"
    other_device = Player(client)
    assert other_device.login("Ann").status_code == 200
    changed = ann.post(
        "/api/account/password", json={"old": "correct horse battery", "new": SECRET}
    )
    assert changed.status_code == 200
    assert ann.me()["name"] == "Ann"  # this browser got a new session
    assert other_device.me() is None  # every other session ended with the old password
    assert Player(client).login("Ann").status_code == 401
    assert Player(client).login("Ann", SECRET).status_code == 200


def test_bad_names_and_passwords_are_refused_by_name(client: TestClient) -> None:
    ann = Player(client)
    ann.get("/api/account")
    short = ann.post("/api/account/register", json={"name": "Ann", "password": "short"})
    assert short.status_code == 422 and short.json()["error"]["code"] == "bad_password"
    assert '"short"' not in short.text  # the refusal never repeats the password
    blank = ann.post("/api/account/register", json={"name": " ", "password": SECRET})
    assert blank.status_code == 422 and blank.json()["error"]["code"] == "bad_name"
    typed = ann.post("/api/account/register", json={"name": "Ann", "password": 12345678})
    assert typed.status_code == 422 and typed.json()["error"]["code"] == "bad_password"


def test_a_session_ends_when_its_time_is_up(client: TestClient) -> None:
    site = client.app.state.site  # type: ignore[attr-defined]
    now = [3_000_000.0]
    site.accounts.wall_clock = lambda: now[0]
    ann = Player(client)
    ann.register("Ann")
    now[0] += SESSION_SECONDS - 1
    assert ann.me()["name"] == "Ann"  # a second before the end: still in
    now[0] += 2
    assert ann.me() is None  # past SESSION_SECONDS: the cookie opens nothing
    gone = ann.post("/api/account/password", json={"old": "correct horse battery",
                                                   "new": SECRET})
    assert (gone.status_code, gone.json()["error"]["code"]) == (401, "not_logged_in")
    assert ann.login("Ann").status_code == 200 and ann.me()["name"] == "Ann"


def test_a_password_change_needs_the_current_password(client: TestClient) -> None:
    ann = Player(client)
    ann.register("Ann")
    for old in ("not the password", None, 12345678, ""):
        refused = ann.post("/api/account/password", json={"old": old, "new": SECRET})
        assert refused.status_code == 403, old
        assert refused.json()["error"]["code"] == "bad_password_old"
    missing = ann.post("/api/account/password", json={"new": SECRET})
    assert missing.status_code == 403
    assert ann.me()["name"] == "Ann"  # the session lives on, the password is unchanged
    assert Player(client).login("Ann", SECRET).status_code == 401
    assert Player(client).login("Ann").status_code == 200


def test_a_name_that_reads_like_an_account_is_taken(client: TestClient) -> None:
    Player(client).register("Ann")
    for look_alike in ("\u0391nn", "\u0410nn", "aNN", "Ann\u0301", "\uff21nn"):
        other = Player(client)
        other.get("/api/account")
        reply = other.post("/api/account/register",
                           json={"name": look_alike, "password": SECRET})
        assert reply.status_code == 409 and reply.json()["error"]["code"] == "name_taken"
    blank = Player(client)
    blank.get("/api/account")
    for nothing in ("\u3164", "Bob\u2800", "Bob\ufe0f", "\u0301"):
        reply = blank.post("/api/account/register", json={"name": nothing, "password": SECRET})
        assert reply.status_code == 422
        assert reply.json()["error"]["code"] == "unreadable_name"


def test_the_password_is_never_stored_logged_or_echoed_in_clear(
    client: TestClient, db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    ann = Player(client)
    replies = [ann.register("Ann", SECRET)]
    replies.append(ann.post("/api/account/logout"))
    replies.append(ann.login("Ann", SECRET + "x"))
    replies.append(ann.login("Ann", SECRET))
    replies.append(ann.post("/api/account/password", json={"old": SECRET, "new": SECRET[:3]}))
    replies.append(ann.post("/api/account/login", json={"password": SECRET}))  # no name
    replies.append(ann.post("/api/account/register", json={"name": "B" * 40, "password": SECRET}))
    replies.append(ann.post("/api/account/register", json=[SECRET]))
    replies.append(ann.post("/api/account/login", json={"name": ["x"], "password": SECRET}))
    replies.append(ann.post("/api/account/register", content='{"password": "' + SECRET + '",'))
    stored = every_stored_text(db_url)
    assert "$argon2id$" in stored
    for clear in (SECRET, SECRET + "x"):
        assert clear not in stored
        assert clear not in caplog.text
        assert all(clear not in reply.text for reply in replies)


def test_a_session_cannot_be_fixed_from_outside(client: TestClient) -> None:
    mallory = Player(client)
    mallory.register("Mallory")
    planted = mallory.jar["kb_session"]
    victim = Player(client)
    victim.register("Victim")
    victim.post("/api/account/logout")
    victim.jar["kb_session"] = planted  # the attacker's session, planted in the victim's browser
    assert victim.login("Victim").status_code == 200
    assert victim.jar["kb_session"] != planted
    assert victim.me()["name"] == "Victim"
    mallory.jar["kb_session"] = planted
    assert mallory.me() is None  # the planted session ended; it never becomes the victim's
    forged = Player(client)
    forged.jar["kb_session"] = planted.rsplit(".", 1)[0] + ".0000"
    assert forged.me() is None


def test_state_changing_calls_need_the_csrf_proof(client: TestClient) -> None:
    ann = Player(client)
    ann.get("/api/account")
    bare = ann.post("/api/account/register", json={"name": "Ann", "password": SECRET},
                    csrf=False)
    assert bare.status_code == 403 and bare.json()["error"]["code"] == "csrf_failed"
    wrong = ann.post("/api/account/register", json={"name": "Ann", "password": SECRET},
                     headers={"x-csrf-token": "guess"})
    assert wrong.status_code == 403
    elsewhere = ann.post("/api/account/register", json={"name": "Ann", "password": SECRET},
                         headers={"origin": "https://evil.example"})
    assert elsewhere.status_code == 403
    ann.register("Ann")
    table = {"name": "x", "seats": 3, "bot_level": "random"}
    assert ann.post("/api/tables", json=table, csrf=False).status_code == 403
    made = ann.post("/api/tables", json=table)
    assert made.status_code == 201 and made.json()["table"]["seats"][0]["name"] == "Ann"
    table_id = made.json()["table"]["id"]
    assert ann.post(f"/api/tables/{table_id}/start", csrf=False).status_code == 403
    assert ann.post(f"/api/tables/{table_id}/start").status_code == 200
    assert ann.post("/api/account/logout", csrf=False).status_code == 403
    # a guest using the header token needs no CSRF proof: browsers never add that header
    guest = client.post("/api/tables", json=table)
    assert guest.status_code == 201


def test_a_lock_holds_back_one_address_says_nothing_and_never_locks_the_owner_out(
    client: TestClient,
) -> None:
    site = client.app.state.site  # type: ignore[attr-defined]
    now = [1_000_000.0]
    site.accounts.wall_clock = lambda: now[0]
    Player(client).register("Ann")
    guesser = Player(client)
    wrong = [guesser.login("Ann", f"guess {attempt}") for attempt in range(FREE_FAILURES)]
    assert {(r.status_code, r.json()["error"]["code"]) for r in wrong} == {(401, "bad_login")}
    held = guesser.login("Ann")  # the right password, from the address that failed
    unknown = guesser.login("Nobody at all", "guess")
    assert held.status_code == unknown.status_code == 401
    assert held.json() == unknown.json() == wrong[0].json()  # not a word more
    elsewhere = TestClient(client.app, client=("192.0.2.7", 40000))
    assert Player(elsewhere).login("Ann").status_code == 200  # the owner, from home
    now[0] += lock_seconds(FREE_FAILURES) + 1  # the held try counted: a doubled hold
    assert guesser.login("Ann").status_code == 401  # ...and this one doubles it again
    now[0] += lock_seconds(FREE_FAILURES + 2) + 1
    assert guesser.login("Ann").status_code == 200
    assert lock_seconds(FREE_FAILURES + 20) == 900.0


def test_a_name_guessed_from_many_addresses_allows_each_one_failure(client: TestClient) -> None:
    site = client.app.state.site  # type: ignore[attr-defined]
    now = [2_000_000.0]
    site.accounts.wall_clock = lambda: now[0]
    Player(client).register("Ann")
    for number in range(NAME_FAILURES):  # a botnet: one guess from each machine
        machine = Player(TestClient(client.app, client=(f"198.51.100.{number}", 1000)))
        assert machine.login("Ann", "guess").status_code == 401
    late = Player(TestClient(client.app, client=("203.0.113.1", 1000)))
    assert late.login("Ann", "guess").status_code == 401
    assert late.login("Ann").status_code == 401  # one failure, then held back
    home = Player(TestClient(client.app, client=("203.0.113.99", 1000)))
    assert home.login("Ann").status_code == 200  # the owner is never locked out
    now[0] += NAME_WINDOW + MAX_LOCK_SECONDS
    assert late.login("Ann").status_code == 200


def test_one_address_trying_many_names_is_slowed(client: TestClient) -> None:
    sprayer = Player(client)
    codes = [sprayer.login(f"nobody{i}", "password?").status_code for i in range(25)]
    assert codes[:20] == [401] * 20 and set(codes[20:]) == {429}


def test_cookies_are_http_only_and_same_site(client: TestClient) -> None:
    ann = Player(client)
    ann.get("/api/account")
    client.cookies.set("kb_csrf", ann.jar["kb_csrf"])
    reply = client.post(
        "/api/account/register", json={"name": "Ann", "password": SECRET},
        headers={"x-csrf-token": ann.jar["kb_csrf"]},
    )
    client.cookies.clear()
    cookie = [v for k, v in reply.headers.multi_items() if k == "set-cookie"]
    session = next(c for c in cookie if c.startswith("kb_session="))
    assert "HttpOnly" in session and "SameSite=lax" in session and "Path=/" in session
    assert "Secure" not in session  # plain HTTP here; behind TLS the flag is set
    tls = TestClient(client.app, base_url="https://testserver")
    tls.get("/api/account")
    csrf = tls.cookies["kb_csrf"]
    reply = tls.post("/api/account/login", json={"name": "Ann", "password": SECRET},
                     headers={"x-csrf-token": csrf})
    cookie = [v for k, v in reply.headers.multi_items() if k == "set-cookie"]
    assert reply.status_code == 200
    assert "Secure" in next(c for c in cookie if c.startswith("kb_session="))


def test_the_migrations_go_up_and_down_on_both_databases(db_url: str, tmp_path: Path) -> None:
    """An existing database (at the leases revision, with a game in it) gains the account
    tables and keeps its game; going back down drops only what the revision added."""
    from alembic import command
    from alembic.config import Config

    from kingsbreakfast.server.storage import Storage
    from kingsbreakfast.server.store import SeatRecord

    storage = Storage(db_url)
    config = Config()
    config.set_main_option("script_location", "src/kingsbreakfast/server/migrations")

    def to(revision: str, up: bool = True) -> None:
        with storage.engine.begin() as connection:
            config.attributes["connection"] = connection
            (command.upgrade if up else command.downgrade)(config, revision)

    to("0002")
    storage.create_game("old", num_seats=3, rules={}, bot_level="easy", clock_seconds=None,
                        public=True, seats=[SeatRecord(n, "open", "", None) for n in range(3)])
    storage.migrate()
    names = set(inspect(storage.engine).get_table_names())
    assert {"accounts", "auth_sessions", "seat_accounts", "game_results", "chat_messages",
            "rematches", "turn_clocks", "site_keys", "games"} <= names
    loaded = storage.load("old")
    assert loaded is not None and len(loaded.seats) == 3
    to("0002", up=False)
    assert "accounts" not in set(inspect(storage.engine).get_table_names())
    assert storage.load("old") is not None
    storage.migrate()
    assert "accounts" in set(inspect(storage.engine).get_table_names())
    storage.dispose()
