"""Attacks on people (follow, block, challenges, ratings beside names) against a real server
on SQLite and PostgreSQL: a blocked account reaching its blocker by any road (a table, a
challenge, a follow, the chat), learning who blocked whom from a refusal, flooding one
player with challenges, answering someone else's, accepting one twice at once, and a
challenge table, its spectators or the TV showing a drawn card.
"""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor

from kingsbreakfast.server.challenges import MAX_OPEN
from server.kb_attack import Sock, leaks, move_once
from server.kb_attack_people import code, member, secrets_in, server_fixture
from server.kb_browser import Browser
from server.kb_live import LiveServer

server = server_fixture("attack-people")


def host(browser: Browser, seats: int = 3) -> tuple[str, str]:
    status, grant = browser.call("POST", "/api/tables",
                                 {"name": "x", "seats": seats, "bot_level": "random"})
    assert status == 201, grant
    return grant["table"]["id"], grant["token"]


def test_a_block_keeps_both_apart_and_never_says_who_blocked(server: LiveServer) -> None:
    ann, bob = member(server, "Block Ann"), member(server, "Block Bob")
    assert bob.call("POST", "/api/people/block", {"name": "Block Ann"})[0] == 200
    roads = {
        "follow": lambda me, other: me.call("POST", "/api/people/follow", {"name": other}),
        "challenge": lambda me, other: me.call("POST", "/api/challenges", {"name": other}),
    }
    for road, take in roads.items():
        blocked_asks, blocker_asks = take(ann, "Block Bob"), take(bob, "Block Ann")
        assert code(blocked_asks) == (403, "people_blocked"), road
        assert blocked_asks == blocker_asks, road  # the same words whoever blocked
        assert "Block" not in str(blocked_asks[1])
    table_of_bob, _ = host(bob)
    table_of_ann, _ = host(ann)
    joins = (ann.call("POST", f"/api/tables/{table_of_bob}/join", {"name": "x"}),
             bob.call("POST", f"/api/tables/{table_of_ann}/join", {"name": "x"}))
    assert {code(j) for j in joins} == {(403, "people_blocked_table")}
    assert joins[0][1] == joins[1][1]
    # the blocked one's lists never name the blocker; the blocker's own list does
    assert "Block Bob" not in str(ann.call("GET", "/api/people")[1])
    assert [p["name"] for p in bob.call("GET", "/api/people")[1]["blocked"]] == ["Block Ann"]
    # a block made by a look-alike of the name reaches the same account
    cid = member(server, "Block Cid")
    assert cid.call("POST", "/api/people/block", {"name": "BLOCK ANN"})[0] == 200
    assert code(ann.call("POST", "/api/challenges", {"name": "Block Cid"})) == (
        403, "people_blocked")


def test_the_chat_of_a_blocked_seat_never_reaches_its_blocker(server: LiveServer) -> None:
    ann, bob, cid = (member(server, f"Chat {n}") for n in ("Ann", "Bob", "Cid"))
    table, _ann_token = host(ann)
    tokens = {}
    for name, person in (("Bob", bob), ("Cid", cid)):
        status, grant = person.call("POST", f"/api/tables/{table}/join", {"name": name})
        assert status == 201, grant
        tokens[name] = grant["token"]
    assert ann.call("POST", f"/api/tables/{table}/start")[0] == 200
    assert bob.call("POST", "/api/people/block", {"name": "Chat Ann"})[0] == 200
    asyncio.run(_chat(server, table, ann, cid, tokens["Bob"]))
    heard_by_bob = [line["text"] for line in bob.call("GET", f"/api/tables/{table}/chat")[1]]
    heard_by_cid = [line["text"] for line in cid.call("GET", f"/api/tables/{table}/chat")[1]]
    assert heard_by_bob == ["after it"] and heard_by_cid == ["from the blocked", "after it"]


async def _chat(server: LiveServer, table: str, ann: Browser, cid: Browser,
                bob_token: str) -> None:
    bob_socket = await Sock.open(server, table, bob_token)
    await bob_socket.recv("state")
    said = await asyncio.to_thread(ann.call, "POST", f"/api/tables/{table}/chat",
                                   {"text": "from the blocked"})
    assert said[0] == 201, said
    # Cid speaks after Ann: once Bob hears Cid, Ann's line would have come before it
    assert (await asyncio.to_thread(cid.call, "POST", f"/api/tables/{table}/chat",
                                    {"text": "after it"}))[0] == 201
    while (frame := await bob_socket.recv("chat"))["text"] != "after it":
        assert frame["text"] != "from the blocked"
    assert all(f.get("text") != "from the blocked" for f in bob_socket.frames)
    await bob_socket.close()


def test_challenges_cannot_flood_nor_be_answered_by_anyone_else(server: LiveServer) -> None:
    ann = member(server, "Duel Ann")
    assert code(ann.call("POST", "/api/challenges", {"name": "Duel Ann"})) == (
        422, "people_self")
    assert code(ann.call("POST", "/api/challenges", {"name": "Nobody At All"})) == (
        404, "people_unknown")
    for bad in ({"name": "x", "seats": 6}, {"name": "x", "clock_seconds": 1},
                {"name": "x", "table": "abc"}, {"name": "x" * 65}):
        assert ann.call("POST", "/api/challenges", bad)[0] == 422, bad
    targets = [member(server, f"Duel Target {n}") for n in range(MAX_OPEN + 2)]
    made = [ann.call("POST", "/api/challenges", {"name": f"Duel Target {n}"})
            for n in range(len(targets))]
    assert [status for status, _ in made[:MAX_OPEN]] == [201] * MAX_OPEN
    assert {code(m) for m in made[MAX_OPEN:]} == {(429, "challenge_too_many")}
    assert code(ann.call("POST", "/api/challenges", {"name": "Duel Target 0"})) == (
        409, "challenge_open")  # one at a time to one player, however asked
    first = made[0][1]["id"]
    thief = member(server, "Duel Thief")
    for person in (thief, ann, targets[1]):  # not theirs to answer
        for answer in ("accept", "decline"):
            assert code(person.call("POST", f"/api/challenges/{first}/{answer}")) == (
                404, "no_such_challenge")
    assert code(thief.call("POST", f"/api/challenges/{first}/withdraw"))[0] in (404, 409)
    incoming = targets[0].call("GET", "/api/people")[1]["incoming"]
    assert [(c["from"], c["state"]) for c in incoming] == [("Duel Ann", "open")]


def test_a_challenge_accepted_eight_times_at_once_makes_one_table(server: LiveServer) -> None:
    ann, bob = member(server, "Race Ann"), member(server, "Race Bob")
    status, made = ann.call("POST", "/api/challenges", {"name": "Race Bob", "seats": 3})
    assert status == 201, made
    number = made["id"]
    with ThreadPoolExecutor(8) as pool:
        replies = list(pool.map(
            lambda _: bob.call("POST", f"/api/challenges/{number}/accept"), range(8)))
    won = [body for status, body in replies if status == 201]
    assert len(won) == 1, replies
    assert {code(r) for r in replies if r[0] != 201} == {(409, "challenge_gone")}
    assert code(bob.call("POST", f"/api/challenges/{number}/decline")) == (
        409, "challenge_gone")
    table = won[0]["table"]
    people = ann.call("GET", "/api/people")[1]
    assert secrets_in(people) == [] and secrets_in(won[0]) == []
    assert ann.call("POST", f"/api/tables/{table}/start")[0] == 200
    tokens = [_seat_token(ann, table), _seat_token(bob, table)]
    asyncio.run(_watch_the_challenge_table(server, table, tokens))
    # a block after the game: no rematch seats them together, whoever asks
    assert bob.call("POST", "/api/people/block", {"name": "Race Ann"})[0] == 200
    for person in (ann, bob):
        assert code(person.call("POST", f"/api/tables/{table}/rematch")) == (
            403, "people_blocked_table")


async def _watch_the_challenge_table(server: LiveServer, table: str,
                                     tokens: list[str]) -> None:
    """Both play it out from their accounts' tokens; a spectator sees no hand, and the
    TV never carries one, in play or after."""
    watcher = await Sock.open(server, table)
    seated = [await Sock.open(server, table, token) for token in tokens]
    assert secrets_in(await asyncio.to_thread(server.get, "/api/tv")) == []

    async def play(sock: Sock, rng: random.Random) -> None:
        while not _over(sock):
            await move_once(sock, rng)

    await asyncio.gather(*(play(sock, random.Random(n)) for n, sock in enumerate(seated)))
    while not _over(watcher):  # the spectator sees the whole game, to its end
        await watcher.recv("state")
    assert leaks(watcher.frames, None, tokens) == []
    for seat, sock in enumerate(seated):
        assert leaks(sock.frames, seat, [tokens[1 - seat]]) == []
    assert secrets_in(await asyncio.to_thread(server.get, "/api/tv")) == []
    for sock in (watcher, *seated):
        await sock.close()


def _over(sock: Sock) -> bool:
    states = [f for f in sock.frames if f["type"] == "state"]
    return bool(states) and states[-1]["view"]["to_move"] is None


def _seat_token(bob: Browser, table: str) -> str:
    """The seat token a browser of the account holds at the table (its seat kept)."""
    status, grant = bob.call("POST", f"/api/tables/{table}/join", {"name": "x"})
    assert status in (200, 201), grant
    return str(grant["token"])


def test_ratings_beside_names_ask_a_bounded_list(server: LiveServer) -> None:
    query = "&".join(f"name=n{n}" for n in range(51))
    assert Browser(server).call("GET", f"/api/ratings?{query}")[0] == 422
    assert Browser(server).call("GET", "/api/ratings?name=" + "x" * 5000)[0] == 200


def test_reports_cannot_flood_the_operator_nor_name_nobody(server: LiveServer) -> None:
    reporter = member(server, "Report Eve")
    member(server, "Report Target")
    assert code(reporter.call("POST", "/api/reports", {
        "name": "Report Eve", "reason": "me"})) == (422, "report_self")
    assert code(reporter.call("POST", "/api/reports", {
        "name": "Nobody Here", "reason": "x"})) == (404, "no_such_player")
    sent = [reporter.call("POST", "/api/reports", {"name": "Report Target",
                                                   "reason": f"spam {n}"}) for n in range(12)]
    made = [status for status, _ in sent].count(201)
    assert 1 <= made <= 5 and {code(r) for r in sent[made:]} == {(429, "too_many_reports")}
