"""Attacks on tournaments against a real server on SQLite and PostgreSQL: making them by
the thousand (each one's bots play on the site's processors), absurd settings, entering
twice at once or as a guest, a withdrawn or never-entered account taking a tournament seat
(through the seat route, the lobby or a forged token), and a spectator of a tournament
table (or of its standings and the TV) learning a drawn card.
"""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from kingsbreakfast.server.tournaments.store import MAX_MADE
from server.kb_attack import Sock, leaks, move_once
from server.kb_attack_people import code, member, secrets_in, server_fixture
from server.kb_browser import Browser
from server.kb_live import LiveServer
from server.kb_tournaments import wait_for

server = server_fixture("attack-tournaments")
LATER = {"starts_in": 3600, "bot_level": "random"}


def test_a_guest_makes_and_enters_nothing(server: LiveServer) -> None:
    maker = member(server, "Cup Maker")
    status, made = maker.call("POST", "/api/tournaments", {"name": "Open Cup", **LATER})
    assert status == 201, made
    guest = Browser(server, maker.address)
    guest.page()
    assert code(guest.call("POST", "/api/tournaments", {"name": "Mine"})) == (
        401, "login_required")
    assert code(guest.call("POST", f"/api/tournaments/{made['id']}/entry")) == (
        401, "login_required")
    assert code(guest.call("GET", f"/api/tournaments/{made['id']}/seat")) == (
        401, "login_required")


def test_one_account_cannot_make_tournaments_by_the_thousand(server: LiveServer) -> None:
    """Found by this suite: nothing limited them (server/tournaments/store.py MAX_MADE)."""
    flooder = member(server, "Cup Flooder")
    replies = [flooder.call("POST", "/api/tournaments",
                            {"name": f"Flood {n}", "bots": 8, **LATER}) for n in range(12)]
    assert [status for status, _ in replies[:MAX_MADE]] == [201] * MAX_MADE
    assert {code(reply) for reply in replies[MAX_MADE:]} == {(429, "too_many_made")}
    assert replies[-1][1]["error"]["params"]["limit"] == MAX_MADE
    other = member(server, "Cup Bystander")  # the cap is the flooder's, nobody else's
    assert other.call("POST", "/api/tournaments", {"name": "Mine", **LATER})[0] == 201


def test_making_tournaments_all_at_once_stays_within_the_cap(server: LiveServer) -> None:
    """Sixteen makes in flight at once: the count and the insert are one step per account."""
    racer = member(server, "Cup Racer")
    with ThreadPoolExecutor(16) as pool:
        replies = list(pool.map(lambda n: racer.call("POST", "/api/tournaments", {
            "name": f"Race {n}", **LATER}), range(16)))
    assert [status for status, _ in replies].count(201) == MAX_MADE, replies
    assert {code(r) for r in replies if r[0] != 201} == {(429, "too_many_made")}


ABSURD: dict[str, dict[str, Any]] = {
    "two seats": {"seats": 2}, "six seats": {"seats": 6}, "no rounds": {"rounds": 0},
    "ten rounds": {"rounds": 10}, "nine bots": {"bots": 9}, "minus a bot": {"bots": -1},
    "in the past": {"starts_in": -1}, "next month": {"starts_in": 8 * 86400},
    "a long arena": {"kind": "arena", "minutes": 241}, "a blink": {"kind": "arena",
                                                                  "minutes": 4},
    "knockout": {"kind": "knockout"}, "a god bot": {"bot_level": "god"},
    "a huge name": {"name": "x" * 201}, "a maker chosen": {"created_by": 1},
    "rounds as text": {"rounds": "9; DROP TABLE tournament"}, "a float": {"seats": 3.5},
}


def test_absurd_settings_are_refused_and_make_nothing(server: LiveServer) -> None:
    maker = member(server, "Cup Absurd")
    before = len(server.get("/api/tournaments"))
    for label, settings in ABSURD.items():
        status, body = maker.call("POST", "/api/tournaments", {"name": "Odd", **settings})
        assert status == 422, (label, body)
    assert len(server.get("/api/tournaments")) == before
    status, made = maker.call("POST", "/api/tournaments",
                              {"name": "Bell\x07\x1b[31mRed\u202eCup\n", **LATER})
    if status == 201:  # taken only cleaned: no control or direction character is shown
        name = server.get(f"/api/tournaments/{made['id']}")["name"]
        assert all(c.isprintable() and c not in "\u202e" for c in name), name
    else:
        assert status == 422, made


def test_entering_eight_times_at_once_enters_once(server: LiveServer) -> None:
    maker, eager = member(server, "Cup Host"), member(server, "Cup Eager")
    cup = maker.call("POST", "/api/tournaments", {"name": "Race Cup", **LATER})[1]["id"]
    with ThreadPoolExecutor(8) as pool:
        replies = list(pool.map(
            lambda _: eager.call("POST", f"/api/tournaments/{cup}/entry"), range(8)))
    assert [status for status, _ in replies].count(201) == 1, replies
    assert {code(r) for r in replies if r[0] != 201} <= {(409, "already_entered"),
                                                          (503, "busy")}
    entrants = server.get(f"/api/tournaments/{cup}")["entrants"]
    assert [e["name"] for e in entrants].count("Cup Eager") == 1
    assert code(eager.call("POST", f"/api/tournaments/{cup}/start")) == (409, "not_yours")


def test_nobody_but_the_entrant_takes_a_tournament_seat_and_nobody_sees_a_hand(
    server: LiveServer,
) -> None:
    maker, player = member(server, "Cup Director"), member(server, "Cup Player")
    quitter, stranger = member(server, "Cup Quitter"), member(server, "Cup Stranger")
    cup = maker.call("POST", "/api/tournaments", {
        "name": "Seat Cup", "seats": 3, "rounds": 1, "bots": 2, **LATER})[1]["id"]
    assert player.call("POST", f"/api/tournaments/{cup}/entry")[0] == 201
    assert quitter.call("POST", f"/api/tournaments/{cup}/entry")[0] == 201
    assert quitter.call("DELETE", f"/api/tournaments/{cup}/entry")[0] == 204
    assert maker.call("POST", f"/api/tournaments/{cup}/start")[0] == 204

    def seated() -> Any:
        status, body = player.call("GET", f"/api/tournaments/{cup}/seat")
        return body if status == 200 else None

    seat = wait_for(seated, "the player's tournament table")
    table = seat["table"]
    for outsider in (quitter, stranger, maker):
        assert code(outsider.call("GET", f"/api/tournaments/{cup}/seat")) == (404, "no_table")
        assert outsider.call("POST", f"/api/tables/{table}/join", {"name": "Me"})[0] in (
            403, 409)
    asyncio.run(_play_out(server, table, seat["token"], seat["seat"]))
    for answer in (server.get(f"/api/tournaments/{cup}"), server.get("/api/tv"),
                   server.get("/api/tournaments")):
        assert secrets_in(answer) == []


async def _play_out(server: LiveServer, table: str, token: str, seat: int) -> None:
    """The entrant plays the game out; a spectator and two forged tokens watch."""
    forged = [token[:-2] + ("AA" if not token.endswith("AA") else "BB"), "x" * len(token)]
    watcher = await Sock.open(server, table)
    thieves = [await Sock.open(server, table, fake) for fake in forged]
    mine = await Sock.open(server, table, token)
    during = await server_answers(server, table)
    rng = random.Random(41)
    while not _over(mine):
        await move_once(mine, rng)
    while not _over(watcher):  # the spectator sees the whole game, to its end
        await watcher.recv("state")
    for thief in thieves:
        close_code, frames = await thief.closed()
        assert close_code == 4003 and not [f for f in frames if f["type"] == "state"]
    assert leaks(watcher.frames, None, [token]) == []
    assert leaks(mine.frames, seat, []) == []
    assert all(secrets_in(answer) == [] for answer in during)
    for sock in (watcher, mine):
        await sock.close()


def _over(sock: Sock) -> bool:
    states = [f for f in sock.frames if f["type"] == "state"]
    return bool(states) and states[-1]["view"]["to_move"] is None


async def server_answers(server: LiveServer, table: str) -> list[Any]:
    """What anyone may ask about a table in play: its lobby entry and the TV."""
    return [await asyncio.to_thread(server.request, "GET", f"/api/tables/{table}"),
            await asyncio.to_thread(server.get, "/api/tv")]
