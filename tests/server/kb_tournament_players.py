"""Two people in a cluster's Swiss when their table's process dies: two accounts registered
through HAProxy enter a 3-round Swiss at a table of five with three bots (one table a round,
so both sit at it every round), the maker starts it, and each plays their own seat over a
websocket through the proxy with the seat token GET /api/tournaments/{id}/seat hands them,
as a program playing for an account does. In round 2, once their game is under way, the
process holding that table's lease is killed with SIGKILL; another takes the table over.

What it returns lets the test check: every table of theirs finished, every move of a
person's seat in the stored record is one that person sent (no bot played for them), no move
seen before the kill is missing or changed afterwards, and the standings are the recount.
"""

from __future__ import annotations

import asyncio
import random
import time
from fractions import Fraction
from typing import Any

from kingsbreakfast.engine.record import read_record
from server.kb_browser import Browser
from server.kb_cluster import Player, Proxy, lobby, owners
from server.kb_live import LiveServer
from server.kb_tournaments import recount

ROUNDS = 3


def movers(record: dict[str, Any]) -> list[int]:
    """The seat each action of a stored record was played from, by replaying it with the
    engine (a record stores the actions alone: whose turn it was follows from the rules)."""
    game = read_record(record)
    state = game.start()
    seats = []
    for action in game.actions:
        seats.append(state.to_move)
        state.play(action)
    return seats


async def _play_every_round(person: Browser, tid: str, rng: random.Random,
                            tables: dict[str, Player]) -> None:
    """Sit down at each new table the tournament hands this person, play it to its end,
    until the tournament is over."""
    while True:
        status, seat = await asyncio.to_thread(person.call, "GET",
                                               f"/api/tournaments/{tid}/seat")
        if status == 200 and seat["table"] not in tables:
            player = Player(person.server.ws_base,  # type: ignore[attr-defined]
                            seat["table"], seat["seat"], seat["token"], rng)
            tables[seat["table"]] = player
            await player.play()
            continue
        if status not in (200, 404, 502, 503, 504):
            raise AssertionError(f"the seat answer was {status}: {seat}")
        if status == 404:
            _, shown = await asyncio.to_thread(person.call, "GET", f"/api/tournaments/{tid}")
            if shown["status"] == "over":
                return
        await asyncio.sleep(0.1)  # polling the REST API of other processes


async def run_people_scenario(url: str, proxy: Proxy, servers: list[LiveServer],
                              timeout: float = 240.0) -> dict[str, Any]:
    ann = Browser(proxy, "127.0.13.1")  # type: ignore[arg-type]
    bea = Browser(proxy, "127.0.13.2")  # type: ignore[arg-type]
    for person, name in ((ann, "Kill Ann"), (bea, "Kill Bea")):
        status, body = await asyncio.to_thread(person.register, name)
        assert status == 201, body
    status, made = await asyncio.to_thread(ann.call, "POST", "/api/tournaments", {
        "name": "People's Swiss", "kind": "swiss", "seats": 5, "rounds": ROUNDS,
        "starts_in": 600, "bots": 3, "bot_level": "random"})
    assert status == 201, made
    tid = made["id"]
    for person in (ann, bea):
        status, body = await asyncio.to_thread(person.call, "POST",
                                               f"/api/tournaments/{tid}/entry")
        assert status == 201, body
    status, body = await asyncio.to_thread(ann.call, "POST", f"/api/tournaments/{tid}/start")
    assert status == 204, body
    rng = random.Random(11)
    tables: list[dict[str, Player]] = [{}, {}]
    people = [asyncio.ensure_future(_play_every_round(person, tid, rng, mine))
              for person, mine in zip((ann, bea), tables, strict=True)]
    killed: dict[str, Any] = {}
    snapshot: dict[str, list[Any]] = {}
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not all(task.done() for task in people):
        assert loop.time() < deadline, f"the Swiss did not end: {killed}"
        if not killed and all(len(mine) == 2 for mine in tables):
            now = [list(mine.values())[1] for mine in tables]
            table = list(tables[0])[1]
            if table == list(tables[1])[1] and all(p.version >= 5 and not p.over
                                                   for p in now):
                pid = (await asyncio.to_thread(owners, url)).get(table)
                victims = [s for s in servers
                           if s.process is not None and s.process.pid == pid]
                if victims:
                    snapshot = {t: list(p.history) for mine in tables for t, p in mine.items()}
                    killed = {"pid": pid, "table": table, "version": now[0].version}
                    victims[0].kill9()
        await asyncio.sleep(0.05)  # polling the players of this loop
    for task in people:
        task.result()  # a person's failure is the test's
    shown = await asyncio.to_thread(lobby, proxy.base, "GET", f"/api/tournaments/{tid}")
    lost = 0
    not_theirs = 0
    own_moves = 0
    for mine in tables:
        for table, player in mine.items():
            record = await asyncio.to_thread(lobby, proxy.base, "GET",
                                             f"/games/{table}/record")
            actions = record["actions"]
            lost += max(0, player.version - len(actions))
            before = snapshot.get(table, [])
            lost += sum(1 for a, b in zip(before, player.history, strict=False) if a != b)
            lost += max(0, len(before) - len(player.history))
            sent = set(player.acted)
            for number, seat in enumerate(movers(record)):
                if seat == player.seat:
                    own_moves += 1
                    not_theirs += number not in sent
    counted = recount(shown)
    wrong = sum(Fraction(line["points"]).limit_denominator(8) != counted[line["entrant"]]
                for line in shown["standings"])
    return {
        "killed": killed, "shown": shown, "lost_moves": lost, "moves_not_theirs": not_theirs,
        "own_moves": own_moves, "standings_lines_wrong": wrong,
        "tables": [{t: (p.over, p.reconnects, len(p.acted)) for t, p in mine.items()}
                   for mine in tables],
        "sample": record["actions"][:2], "finished_at": time.time(),
    }
