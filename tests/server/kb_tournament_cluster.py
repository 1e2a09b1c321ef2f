"""A Swiss and an arena run on a cluster (three processes on PostgreSQL behind HAProxy) while
the process directing the Swiss is killed with SIGKILL in the middle of round 2. Shared by the
cluster test and benchmarks/tournament_cluster.py, which prints what it returns.

A spectator socket watches every tournament table through the proxy (reconnecting on its
own). A *lost move* is one a spectator saw that the stored game does not hold in its place:
the moves seen before the kill must open the final game, and each table's stored record
must be as long as the last version seen. The standings the server shows are checked
against :func:`~server.kb_tournaments.recount` (the Swiss) and an arena recount here, both
made from the tables alone.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import time
from fractions import Fraction
from itertools import combinations
from typing import Any

from sqlalchemy import create_engine, text

from kingsbreakfast.server.storage import normalize_url
from kingsbreakfast.server.tournaments.making import make_setup
from kingsbreakfast.server.tournaments.store import TournamentStore
from server.kb_cluster import Player, lobby
from server.kb_live import LiveServer
from server.kb_tournaments import recount


def arena_recount(shown: dict[str, Any]) -> dict[int, Fraction]:
    """Arena points from the tables alone: pairwise points by R12, doubled after two wins
    in a row (docs/tournaments.md)."""
    games = sorted((g for g in shown["games"] if g["points"] is not None),
                   key=lambda g: g["finished_ms"])
    points: dict[int, Fraction] = {e["number"]: Fraction(0) for e in shown["entrants"]}
    streak: dict[int, int] = dict.fromkeys(points, 0)
    for game in games:
        order = [(p, -d) for p, d in zip(game["points"], game["discarded"], strict=True)]
        for me, seat in enumerate(game["seats"]):
            if seat is None:
                continue
            mine = sum((Fraction(1) if order[me] > order[o] else Fraction(1, 2)
                        if order[me] == order[o] else Fraction(0))
                       for o in range(len(order)) if o != me)
            entrant = seat["entrant"]
            points[entrant] += mine * (2 if streak[entrant] >= 2 else 1)
            won = all(order[me] >= order[o] for o in range(len(order)))
            streak[entrant] = streak[entrant] + 1 if won else 0
    return points


def _director_pid(url: str, tournament_id: str) -> int | None:
    engine = create_engine(normalize_url(url))
    try:
        with engine.begin() as connection:
            owner = connection.execute(text("SELECT director FROM tournaments WHERE id = :i"),
                                       {"i": tournament_id}).scalar_one()
    finally:
        engine.dispose()
    return None if owner is None else int(owner.split(":")[1])


async def run_scenario(url: str, base: str, ws_base: str, servers: list[LiveServer],
                       rounds: int = 3, arena_seconds: float = 15.0,
                       timeout: float = 300.0) -> dict[str, Any]:
    engine = create_engine(normalize_url(url))
    store = TournamentStore(engine)
    now = time.time()
    swiss = make_setup(name="Cluster Swiss", kind="swiss", seats=3, speed="live", rated=False,
                       rounds=rounds, minutes=5, starts_in=0, bots=8, bot_level="random",
                       created_by=None, now=now)
    swiss = dataclasses.replace(swiss, bots=(*swiss.bots, "Anise"))  # nine: threes, no bye
    arena = dataclasses.replace(
        make_setup(name="Cluster arena", kind="arena", seats=3, speed="live", rated=False,
                   rounds=0, minutes=5, starts_in=0, bots=7, bot_level="random",
                   created_by=None, now=now),
        ends_at=now + arena_seconds)
    store.create(swiss, now)
    store.create(arena, now)
    engine.dispose()
    rng = random.Random(7)
    watchers: dict[str, Player] = {}
    tasks: list[asyncio.Task[None]] = []
    snapshot: dict[str, list[Any]] = {}
    killed: dict[str, Any] = {}
    shown: dict[str, dict[str, Any]] = {}
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        assert loop.time() < deadline, f"the tournaments did not end: {killed}"
        for tid in (swiss.id, arena.id):
            shown[tid] = await asyncio.to_thread(lobby, base, "GET", f"/api/tournaments/{tid}")
            for game in shown[tid]["games"]:
                if game["state"] != "made" and game["table"] not in watchers:
                    watcher = Player(ws_base, game["table"], None, None, rng)
                    watchers[game["table"]] = watcher
                    tasks.append(asyncio.ensure_future(watcher.play()))
        if not killed:
            running = [g["table"] for g in shown[swiss.id]["games"]
                       if g["round"] == 2 and g["state"] == "dealt"]
            if any(watchers[t].version >= 5 and not watchers[t].over for t in running):
                pid = _director_pid(url, swiss.id)
                victims = [s for s in servers if s.process is not None
                           and s.process.pid == pid]
                if victims:
                    snapshot = {t: list(w.history) for t, w in watchers.items()}
                    killed = {"pid": pid, "at": time.monotonic(),
                              "round": shown[swiss.id]["round"]}
                    victims[0].kill9()
        if killed and "taken_over_s" not in killed:
            pid = _director_pid(url, swiss.id)
            if pid is not None and pid != killed["pid"]:
                killed["taken_over_s"] = round(time.monotonic() - killed["at"], 2)
        if all(shown[t]["status"] == "over" for t in shown) and all(w.over for w in
                                                                     watchers.values()):
            break
        await asyncio.sleep(0.1)  # polling the REST API of other processes
    await asyncio.gather(*tasks)
    lost = 0
    moves = 0
    for table_id, watcher in watchers.items():
        record = await asyncio.to_thread(lobby, base, "GET", f"/games/{table_id}/record")
        stored = len(record["actions"])
        moves += stored
        lost += max(0, watcher.version - stored)
        before = snapshot.get(table_id, [])
        lost += sum(1 for a, b in zip(before, watcher.history, strict=False) if a != b)
        lost += max(0, len(before) - len(watcher.history))
    swiss_shown, arena_shown = shown[swiss.id], shown[arena.id]
    wrong = 0
    for view, counted in ((swiss_shown, recount(swiss_shown)),
                          (arena_shown, arena_recount(arena_shown))):
        for line in view["standings"]:
            if Fraction(line["points"]).limit_denominator(8) != counted[line["entrant"]]:
                wrong += 1
    repeats = 0
    met: set[frozenset[int]] = set()
    for game in swiss_shown["games"]:
        for a, b in combinations([s["entrant"] for s in game["seats"] if s], 2):
            repeats += frozenset((a, b)) in met
            met.add(frozenset((a, b)))
    return {
        "killed_pid": killed.get("pid"), "killed_in_round": killed.get("round"),
        "director_taken_over_s": killed.get("taken_over_s"),
        "swiss_rounds": swiss_shown["round"], "swiss_tables": len(swiss_shown["games"]),
        "swiss_repeated_meetings": repeats,
        "arena_tables": len(arena_shown["games"]), "moves": moves, "lost_moves": lost,
        "standings_lines_wrong": wrong,
        "standings_lines": len(swiss_shown["standings"]) + len(arena_shown["standings"]),
        "swiss_standings": swiss_shown["standings"], "arena_standings": arena_shown["standings"],
        "swiss": swiss_shown, "arena": arena_shown,
    }
