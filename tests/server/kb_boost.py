"""The rotating-puppet attack on the leaderboard, through a real server's HTTP and WebSocket
API: five puppet accounts made from two addresses sit in pairs beside one account that plays
random moves, and leave at the first move, the pairs rotating so no set of accounts meets
more than twice. Used by tests/server/test_attack_boosting.py and by
benchmarks/rotating_puppets.py (before and after)."""

from __future__ import annotations

import asyncio
import itertools
import random
from typing import Any

from server.kb_attack import Sock, move_once
from server.kb_browser import Browser
from server.kb_live import LiveServer

TABLE = {"name": "x", "seats": 3, "bot_level": "random"}
PUPPET_ADDRESSES = ("127.0.9.2", "127.0.9.2", "127.0.9.2", "127.0.9.3", "127.0.9.3")


async def _play_out(server: LiveServer, table_id: str, token: str, seed: int) -> None:
    """One seat's random legal moves until the game ends."""
    sock = await Sock.open(server, table_id, token)
    rng = random.Random(seed)
    try:
        while True:
            await move_once(sock, rng)
            states = [f for f in sock.frames if f["type"] == "state"]
            if states[-1]["view"]["to_move"] is None:
                return
    finally:
        await sock.close()


async def _puppet(
    server: LiveServer, puppet: Browser, table_id: str, token: str, moves: int, seed: int
) -> None:
    """A puppet that makes ``moves`` moves of its own (random), then leaves."""
    sock = await Sock.open(server, table_id, token)
    rng = random.Random(seed)
    try:
        for _ in range(moves):
            await move_once(sock, rng)
    finally:
        await sock.close()
    status = (await asyncio.to_thread(puppet.call, "POST", f"/api/tables/{table_id}/leave"))[0]
    assert status == 204


async def _game(
    server: LiveServer, table_id: str, token: str, puppets: list[tuple[Browser, str]],
    moves: int, seed: int,
) -> None:
    await asyncio.gather(
        _play_out(server, table_id, token, seed),
        *(_puppet(server, p, table_id, t, moves, seed + n) for n, (p, t) in enumerate(puppets)),
    )


def rotating_puppets(
    server: LiveServer, games: int = 20, booster_name: str = "Lucky", puppet_moves: int = 0,
    addresses: tuple[str, ...] = PUPPET_ADDRESSES,
) -> dict[str, Any]:
    """Run the attack (``puppet_moves``: the puppets make that many moves before they
    leave, 0: they leave at the first move; ``addresses``: one puppet from each, each
    registration paying the proof of work it is asked for); what it achieved: the
    booster's leaderboard rank (None: not listed), rating, and how many of its games are
    rated."""
    booster = Browser(server, "127.0.9.1")
    assert booster.register(booster_name)[0] == 201
    puppets = [Browser(server, where) for where in addresses]
    for number, puppet in enumerate(puppets):
        status, body = puppet.register(f"{booster_name} puppet {number}")
        assert status == 201, body
    pairs = itertools.cycle(itertools.combinations(range(len(puppets)), 2))
    for game in range(games):
        status, grant = booster.call("POST", "/api/tables", TABLE)
        assert status == 201, grant
        table_id, token = grant["table"]["id"], grant["token"]
        pair = next(pairs)
        seated: list[tuple[Browser, str]] = []
        for number in pair:
            status, joined = puppets[number].call("POST", f"/api/tables/{table_id}/join",
                                                  {"name": "x"})
            assert status == 201, joined
            seated.append((puppets[number], joined["token"]))
        assert booster.call("POST", f"/api/tables/{table_id}/start")[0] == 200
        if puppet_moves == 0:
            for number in pair:  # at the first move: the puppets' seats go to bots
                assert puppets[number].call("POST", f"/api/tables/{table_id}/leave")[0] == 204
        asyncio.run(_game(server, table_id, token, seated if puppet_moves else [],
                          puppet_moves, 100 * game))
    profile = Browser(server).call("GET", f"/api/players/{booster_name}")[1]
    assert profile["games"] == games, profile
    board = Browser(server).call("GET", "/api/leaderboard?size=100")[1]
    rank = next((row["rank"] for row in board["rows"] if row["name"] == booster_name), None)
    return {
        "games_played": profile["games"], "games_rated": len(profile["history"]),
        "rating": profile["rating"], "provisional": profile["provisional"],
        "leaderboard_rank": rank, "leaderboard_total": board["total"],
    }
