"""An absent player of a turn-based game, driven over a real server's HTTP and sockets
(the notices): Ann at the table, a bot, and Bob who comes to the table only to play
his move. Each time the turn comes to Bob, the push message and (once a game a day) the
digest mail that bring him back are awaited, and the time from the move that handed him the
turn to their arrival is kept. Used by ``benchmarks/notice_latency.py`` and the cluster's
notice test."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from typing import Any

import websockets

from server.kb_browser import PASSWORD, Browser
from server.kb_mailbox import Mailbox
from server.kb_push import Pushed, PushInbox

HOUR = 3600


def action_of(view: dict[str, Any]) -> dict[str, Any]:
    words = view["legal"][0].split()
    action: dict[str, Any] = {"type": words[0]}
    if words[0] == "take":
        action["dish"] = words[1]
    elif words[0] == "feed":
        action["dishes"] = words[1:]
    return action


async def next_state(ws: Any, after: int) -> dict[str, Any]:
    while True:
        frame = json.loads(await ws.recv())
        if frame["type"] == "state" and frame["view"] is not None and frame["version"] > after:
            return dict(frame)


async def bob_moves(live: Any, table_id: str, token: str) -> None:
    """Bob opens the table, plays his move and closes it again."""
    async with websockets.connect(f"{live.ws_base}/ws/tables/{table_id}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        frame = await next_state(ws, -1)
        await ws.send(json.dumps({"type": "act", "version": frame["version"],
                                  "action": action_of(frame["view"])}))
        await next_state(ws, frame["version"])


async def one_game(live: Any, ann: Browser, bob: Browser, inbox: PushInbox,
                   mailbox: Mailbox, turns: int) -> tuple[list[float], list[float]]:
    status, made = ann.call("POST", "/api/tables", {"name": "x", "seats": 3,
                                                    "bot_level": "random",
                                                    "clock_seconds": HOUR})
    assert status == 201, made
    table_id, ann_token = made["table"]["id"], made["token"]
    status, joined = bob.call("POST", f"/api/tables/{table_id}/join", {"name": "x"})
    assert status in (200, 201) and joined["seat"] == 1, joined
    pushes: list[float] = []
    mails: list[float] = []
    stale: list[Pushed] = []
    async with websockets.connect(f"{live.ws_base}/ws/tables/{table_id}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": ann_token}))
        version, acted, bob_here = json.loads(await ws.recv())["version"], -1, False
        current: dict[str, Any] | None = None
        bob_turns = 0
        handed, fresh = time.perf_counter(), True
        """When Ann's move (or the deal) went out, and whether the turn came from it: a turn
        the bot handed Bob is not measured (its move's moment is not seen here)."""
        status, _ = ann.call("POST", f"/api/tables/{table_id}/start",
                             headers={"x-seat-token": ann_token})
        assert status == 200
        while bob_turns < turns:
            frame = json.loads(await ws.recv())
            if frame["type"] == "presence":
                bob_here = frame["seats"][1]["connected"]
            elif frame["type"] == "state" and frame["view"] is not None:
                bob_here = frame["table"]["seats"][1]["connected"]
                if frame["version"] >= version:  # the deal is version 0, as the lobby
                    version, current = frame["version"], frame
            if current is None or acted == version:
                continue
            to_move = current["view"]["to_move"]
            if to_move is None:
                break
            if to_move == 0 and not bob_here:  # Bob's socket has gone: he is away again
                while not inbox.empty():  # came before this move: not what it brings
                    stale.append(inbox.next())
                acted, handed, fresh = version, time.perf_counter(), True
                await ws.send(json.dumps({"type": "act", "version": version,
                                          "action": action_of(current["view"])}))
            elif to_move == 1:
                acted, bob_turns = version, bob_turns + 1
                if not bob_here:  # the turn reached him away: a push, and a mail a day
                    pushed = await asyncio.to_thread(inbox.next, 30.0)
                    while pushed.message["url"] != f"/t/{table_id}":  # an earlier game's
                        stale.append(pushed)
                        pushed = await asyncio.to_thread(inbox.next, 30.0)
                    if fresh:
                        pushes.append(pushed.at - handed)
                    if bob_turns == 1:  # his first turn: he was never at the table yet
                        mail = await asyncio.to_thread(mailbox.next, 30.0)
                        if fresh:
                            mails.append(mail.at - handed)
                await bob_moves(live, table_id, joined["token"])
                fresh = False
            elif to_move == 2:
                fresh = False
    if stale:
        print(f"pushes for earlier turns or games set aside: {len(stale)} (a game goes on "
              "after it is left: the bot's move can hand Bob the turn again)", file=sys.stderr)
    return pushes, mails


def verified(mailbox: Mailbox, player: Browser, name: str) -> None:
    status, _ = player.call("PUT", "/api/me/email", {
        "address": f"{name.lower()}@example.org", "password": PASSWORD})
    assert status == 200
    token = mailbox.next().token
    assert player.call("POST", "/api/email/verify", {"token": token})[0] == 200
