"""Attacks on account deletion and on the registration proof of work, against a real server
on SQLite and PostgreSQL: deleting with a stolen session but no password, or from another
site's form; replaying a deletion; taking the deleted name back in look-alike letters while
it is reserved; reaching the deleted account through its pseudonym or an old challenge;
a deletion mid-game leaving a seat anyone could take; a proof of work replayed for another
name or from another machine.
"""

from __future__ import annotations

import asyncio

from kingsbreakfast.server.proof import leading_zero_bits, proof_digest, solve
from server.kb_attack import Sock
from server.kb_attack_people import code, fresh_address, member, server_fixture
from server.kb_browser import PASSWORD, Browser
from server.kb_live import LiveServer

server = server_fixture("attack-farewell")


def test_a_stolen_session_or_a_forged_form_deletes_nothing(server: LiveServer) -> None:
    owner = member(server, "Gone Never")
    thief = Browser(server, fresh_address())
    thief.jar = dict(owner.jar)  # the session cookie and the CSRF value, copied
    for password in (None, "", "a guess", 12345, ["list"]):
        reply = thief.call("POST", "/api/account/delete", {"password": password})
        assert code(reply) == (403, "bad_password_old"), password
    forger = Browser(server, fresh_address())  # another site's form: no CSRF header
    forger.jar = {k: v for k, v in owner.jar.items() if k != "kb_csrf"}
    assert forger.call("POST", "/api/account/delete", {"password": PASSWORD})[0] == 403
    guest = Browser(server, fresh_address())
    guest.page()
    assert code(guest.call("POST", "/api/account/delete", {"password": PASSWORD})) == (
        401, "not_logged_in")
    assert Browser(server, fresh_address()).login("Gone Never")[0] == 200


def test_a_deletion_replayed_or_its_name_taken_back_in_other_letters(
    server: LiveServer,
) -> None:
    owner = member(server, "Gone Anna")
    other_device = Browser(server, fresh_address())
    assert other_device.login("Gone Anna")[0] == 200
    status, body = owner.call("POST", "/api/account/delete", {"password": PASSWORD})
    assert status == 200 and body["deleted"] is True
    pseudonym = body["pseudonym"]
    replay = Browser(server, owner.address)
    replay.jar = dict(owner.jar)
    replay.jar.update({k: v for k, v in other_device.jar.items()})
    assert code(replay.call("POST", "/api/account/delete", {"password": PASSWORD})) == (
        401, "not_logged_in")
    assert code(other_device.call("POST", "/api/account/delete",
                                  {"password": PASSWORD})) == (401, "not_logged_in")
    for name in ("Gone Anna", "gone anna", "Gone \u0410nna", "Gone Ann\u0430",
                 "\uff27one Anna", "Gone  Anna", pseudonym):
        status, refused = Browser(server, fresh_address()).register(name)
        assert status in (409, 422), (name, status, refused)
    assert Browser(server, fresh_address()).login("Gone Anna")[0] == 401
    asker = member(server, "Gone Asker")
    for name in ("Gone Anna", pseudonym):
        assert code(asker.call("POST", "/api/challenges", {"name": name})) == (
            404, "people_unknown")
        assert code(asker.call("POST", "/api/people/follow", {"name": name})) == (
            404, "people_unknown")


def test_an_old_challenge_of_a_deleted_account_seats_nobody(server: LiveServer) -> None:
    ghost, bob = member(server, "Gone Ghost"), member(server, "Gone Bob")
    status, made = ghost.call("POST", "/api/challenges", {"name": "Gone Bob"})
    assert status == 201, made
    assert ghost.call("POST", "/api/account/delete", {"password": PASSWORD})[0] == 200
    assert code(bob.call("POST", f"/api/challenges/{made['id']}/accept")) == (
        404, "no_such_challenge")
    assert bob.call("GET", "/api/people")[1]["incoming"] == []


def test_a_deletion_mid_game_hands_the_seat_to_a_bot_and_its_token_dies(
    server: LiveServer,
) -> None:
    ann, bob = member(server, "Gone Midgame"), member(server, "Gone Stayer")
    status, grant = ann.call("POST", "/api/tables", {"name": "x", "seats": 3,
                                                     "bot_level": "random"})
    assert status == 201, grant
    table, token = grant["table"]["id"], grant["token"]
    assert bob.call("POST", f"/api/tables/{table}/join", {"name": "x"})[0] == 201
    assert ann.call("POST", f"/api/tables/{table}/start")[0] == 200
    status, gone = ann.call("POST", "/api/account/delete", {"password": PASSWORD})
    assert status == 200, gone
    shown = server.get(f"/api/tables/{table}")
    assert "Gone Midgame" not in str(shown) and gone["pseudonym"] in str(shown)
    assert asyncio.run(_closed_code(server, table, token)) == 4003
    thief = member(server, "Gone Thief")  # the freed seat is only asked for, not given
    status, body = thief.call("POST", f"/api/tables/{table}/join", {"name": "x"})
    assert status == 202 and body["pending"] is True, body  # asked for only


async def _closed_code(server: LiveServer, table: str, token: str) -> int | None:
    sock = await Sock.open(server, table, token)
    close_code, frames = await sock.closed()
    assert not [f for f in frames if f["type"] == "state" and f["you"] is not None]
    return close_code


def test_a_proof_of_work_is_good_for_one_name_from_one_machine(server: LiveServer) -> None:
    machine, elsewhere = fresh_address(), fresh_address()
    for number in range(3):  # each machine's free registrations of the hour, spent
        assert Browser(server, machine).register(f"Proof Free {number}")[0] == 201
        assert Browser(server, elsewhere).register(f"Proof Else {number}")[0] == 201
    browser = Browser(server, machine)
    browser.page()
    asked = browser.call("GET", "/api/account/challenge")[1]
    assert asked["bits"] > 0
    proof = {"challenge": asked["challenge"],
             "counter": solve(asked["challenge"], "Proof One", asked["bits"])}
    register = {"name": "Proof One", "password": PASSWORD, "proof": proof}
    thief = Browser(server, elsewhere)
    thief.page()
    assert code(thief.call("POST", "/api/account/register", register)) == (428, "bad_proof")
    assert browser.call("POST", "/api/account/register", register)[0] == 201
    again = Browser(server, machine)
    again.page()
    assert code(again.call("POST", "/api/account/register", register)) == (409, "name_taken")
    lucky = leading_zero_bits(proof_digest(proof["challenge"], "Proof Two",
                                           proof["counter"])) >= asked["bits"]
    if not lucky:  # one chance in 2^bits that the counter proves the other name too
        assert code(again.call("POST", "/api/account/register",
                               {**register, "name": "Proof Two"})) == (428, "bad_proof")
    forged = {**proof, "challenge": asked["challenge"].replace(
        f".{asked['bits']}.", ".1.", 1)}  # a cheaper challenge, the mac kept
    assert code(again.call("POST", "/api/account/register", {
        "name": "Proof Three", "password": PASSWORD,
        "proof": {**forged, "counter": solve(forged["challenge"], "Proof Three", 1)}})) == (
        428, "bad_proof")
