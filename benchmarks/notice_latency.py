"""How fast an absent player is brought back (issue 41): a turn-based game of two accounts
and a bot on a real server process; Bob is away, and each time the turn comes to him the
time from the move that handed it over to the push message arriving (decrypted) at a push
service on loopback, and to the digest mail arriving at an SMTP server on loopback.

The mail digest normally waits (``--notice-digest-seconds``, 120 s by default) to gather a
player's other games; it is set to 0 here so the figure is the mail path itself. A game is
mailed once a day, so each game gives one mail figure and every Bob turn a push figure.

    python benchmarks/notice_latency.py --games 3 --turns 4
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from server.kb_browser import Browser
from server.kb_live import LiveServer
from server.kb_mailbox import Mailbox
from server.kb_push import PushInbox

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


async def bob_moves(live: LiveServer, table_id: str, token: str) -> None:
    """Bob opens the table, plays his move and closes it again."""
    async with websockets.connect(f"{live.ws_base}/ws/tables/{table_id}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        frame = await next_state(ws, -1)
        await ws.send(json.dumps({"type": "act", "version": frame["version"],
                                  "action": action_of(frame["view"])}))
        await next_state(ws, frame["version"])


async def one_game(live: LiveServer, ann: Browser, bob: Browser, inbox: PushInbox,
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
    async with websockets.connect(f"{live.ws_base}/ws/tables/{table_id}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": ann_token}))
        frame = json.loads(await ws.recv())  # the lobby's state (no view before the deal)
        handed = time.perf_counter()
        status, _ = ann.call("POST", f"/api/tables/{table_id}/start",
                             headers={"x-seat-token": ann_token})
        assert status == 200
        while len(pushes) < turns:
            frame = await next_state(ws, frame["version"])
            to_move = frame["view"]["to_move"]
            if to_move is None:
                break
            if to_move == 0:
                handed = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "version": frame["version"],
                                          "action": action_of(frame["view"])}))
            elif to_move == 1:
                pushed = await asyncio.to_thread(inbox.next, 30.0)
                pushes.append(pushed.at - handed)
                if not mails:
                    mails.append((await asyncio.to_thread(mailbox.next, 30.0)).at - handed)
                await bob_moves(live, table_id, joined["token"])
    return pushes, mails


def verified(live: LiveServer, mailbox: Mailbox, player: Browser, name: str) -> None:
    status, _ = player.call("PUT", "/api/me/email", {
        "address": f"{name.lower()}@example.org", "password": "correct horse battery"})
    assert status == 200
    token = mailbox.next().token
    assert player.call("POST", "/api/email/verify", {"token": token})[0] == 200


def ms(values: list[float]) -> str:
    if not values:
        return "none"
    v = sorted(x * 1000 for x in values)
    return (f"n={len(v)} median {statistics.median(v):.1f} ms, min {v[0]:.1f}, "
            f"max {v[-1]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--turns", type=int, default=4, help="Bob's turns a game")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        mailbox, inbox = Mailbox().start(), PushInbox().start()
        live = LiveServer(
            f"sqlite:///{folder}/notices.db", bot_delay=0.0, log_path=Path(folder) / "log",
            extra=(*mailbox.options(), "--push-local-endpoints",
                   "--notice-digest-seconds", "0"),
        ).start()
        try:
            ann, bob = Browser(live), Browser(live, "127.0.0.2")
            assert ann.register("Ann")[0] == 201 and bob.register("Bob")[0] == 201
            verified(live, mailbox, bob, "Bob")
            status, _ = bob.call("POST", "/api/me/push", {**inbox.subscription("bob"),
                                                         "language": "en"})
            assert status == 200
            pushes: list[float] = []
            mails: list[float] = []
            for _ in range(args.games):
                p, m = asyncio.run(one_game(live, ann, bob, inbox, mailbox, args.turns))
                pushes += p
                mails += m
        finally:
            live.stop()
            inbox.stop()
            mailbox.stop()
    print(f"move -> push received: {ms(pushes)}")
    print(f"move -> mail received: {ms(mails)} (digest wait 0 s; one mail per game per day)")


if __name__ == "__main__":
    main()
