"""Attacks on accounts, against a real ``kingsbreakfast serve`` on loopback: impostor names
(look-alike letters from other scripts, case, width, stacked accents, names of nothing),
and password guessing that tries to learn which names exist or to lock their owners out.
The several machines of an attack are several loopback source addresses."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kingsbreakfast.server.accounts import FREE_FAILURES
from kingsbreakfast.server.limits import ServerLimits
from server.kb_browser import Browser
from server.kb_live import LiveServer


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder: Path = tmp_path_factory.mktemp("attack-accounts")
    live = LiveServer(
        f"sqlite:///{folder / 'games.db'}", bot_delay=0.0, zombie_grace=0.0,
        log_path=folder / "server.log", extra=("--tables-per-minute", "600"),
    ).start()
    yield live
    live.stop()


IMPOSTORS = {
    "Greek alpha": "\u0391nn", "Cyrillic A": "\u0410nn", "lower case": "ann",
    "upper case": "ANN", "full width": "\uff21\uff4e\uff4e", "accent on top": "Ann\u0301",
}
NOTHING = {
    "Hangul filler only": "\u3164", "three fillers": "\u3164\u3164\u3164",
    "trailing braille blank": "Zed\u2800", "trailing emoji selector": "Zed\ufe0f",
    "lone combining accent": "\u0301", "accent after a space": "Zed \u0301",
}


def test_impostor_names_cannot_register(server: LiveServer) -> None:
    assert Browser(server).register("Ann")[0] == 201
    for label, name in IMPOSTORS.items():
        status, body = Browser(server).register(name)
        assert (status, body["error"]["code"]) == (409, "name_taken"), label
    for label, name in NOTHING.items():
        status, body = Browser(server).register(name)
        assert (status, body["error"]["code"]) == (422, "unreadable_name"), label


def test_a_lock_names_nobody_and_locks_no_owner_out(server: LiveServer) -> None:
    assert Browser(server, "127.0.0.4").register("Owner")[0] == 201
    guesser = Browser(server, "127.0.0.2")
    wrong = [guesser.login("Owner", f"guess number {n}") for n in range(FREE_FAILURES)]
    held = guesser.login("Owner")  # the right password, from the guessing machine
    unknown = guesser.login("Nobody has this name")
    assert {s for s, _ in wrong} == {held[0]} == {unknown[0]} == {401}
    assert held[1] == unknown[1] == wrong[0][1]  # the very same body: nothing told
    assert Browser(server, "127.0.0.3").login("Owner")[0] == 200  # the owner elsewhere


def test_a_name_guessed_from_many_machines_still_lets_its_owner_in(server: LiveServer) -> None:
    assert Browser(server, "127.0.0.5").register("Target")[0] == 201
    machines = [Browser(server, f"127.0.1.{n}") for n in range(1, 25)]
    for machine in machines:  # one or two guesses each, as a botnet would
        assert machine.login("Target", "guess one")[0] == 401
    assert machines[-1].login("Target")[0] == 401  # slowed: one free failure each now
    assert Browser(server, "127.0.2.1").login("Target")[0] == 200


def test_beating_ones_own_puppet_ten_times_never_reaches_the_leaderboard(
    server: LiveServer,
) -> None:
    farmer, puppet = Browser(server, "127.0.0.6"), Browser(server, "127.0.0.6")
    assert farmer.register("Farmer")[0] == 201 and puppet.register("Puppet")[0] == 201
    for _game in range(10):
        status, grant = farmer.call("POST", "/api/tables",
                                    {"name": "x", "seats": 3, "bot_level": "random"})
        assert status == 201, grant
        table_id = grant["table"]["id"]
        assert puppet.call("POST", f"/api/tables/{table_id}/join", {"name": "x"})[0] == 201
        assert farmer.call("POST", f"/api/tables/{table_id}/start")[0] == 200
        deadline = time.monotonic() + 60  # nobody connected: bots play both seats out
        while farmer.call("GET", f"/api/tables/{table_id}")[1]["status"] != "over":
            assert time.monotonic() < deadline, "the game did not end"
            time.sleep(0.05)
    status, profile = Browser(server).call("GET", "/api/players/Farmer")
    assert status == 200 and profile["games"] == 10
    # nobody moved, bots played both seats: every game aborted (and past that, the same two
    # accounts are rated 3 times a week: tests/server/test_rating_rules.py)
    assert profile["rated_games"] == 0
    assert profile["provisional"] is True and profile["opponents"] == 0
    board = Browser(server).call("GET", "/api/leaderboard")[1]
    assert "Farmer" not in [row["name"] for row in board["rows"]] and board["total"] == 0


def test_a_hundred_registrations_from_one_address_make_an_hours_ceiling_of_accounts(
    server: LiveServer,
) -> None:
    """Each registration pays the proof of work it is asked for (server/proof.py); past
    the hour's ceiling no proof helps. The first few past the ceiling pay in full (some
    2^19 hashes each); the rest of the hundred send none, since the ceiling is checked
    before any proof and what refuses them must be the ceiling, not a missing proof."""
    per_hour = ServerLimits().registrations_per_hour
    paid = per_hour + 3

    def unpaid(name: str) -> tuple[int, Any]:
        crowd = Browser(server, "127.0.0.8")
        crowd.page()
        status, body = crowd.call("POST", "/api/account/register",
                                  {"name": name, "password": "correct horse battery"})
        return status, body

    replies = [Browser(server, "127.0.0.8").register(f"Crowd {n}") if n < paid
               else unpaid(f"Crowd {n}") for n in range(100)]
    made = [n for n, (status, _) in enumerate(replies) if status == 201]
    assert made == list(range(per_hour))
    refused = {(status, body["error"]["code"]) for status, body in replies[per_hour:]}
    assert refused == {(429, "too_many_registrations")}
    assert replies[-1][1]["error"]["params"]["retry_after"] > 0
    assert Browser(server, "127.0.0.9").register("Someone else")[0] == 201


def test_a_stolen_session_cannot_change_the_password_without_the_current_one(
    server: LiveServer,
) -> None:
    owner = Browser(server, "127.0.0.10")
    assert owner.register("Victim")[0] == 201
    thief = Browser(server, "127.0.0.11")
    thief.jar = dict(owner.jar)  # the session cookie and the CSRF value, copied
    assert thief.call("GET", "/api/account")[1]["account"]["name"] == "Victim"
    for old in ("a guess at it", None, ""):
        status, body = thief.call("POST", "/api/account/password",
                                  {"old": old, "new": "the thief's password"})
        assert (status, body["error"]["code"]) == (403, "bad_password_old")
    assert Browser(server, "127.0.0.12").login("Victim")[0] == 200  # unchanged
