"""What a stranger can make the server spend: amplification of refused moves, and memory
after a flood of junk requests at the bounded endpoints.

Starts ``kingsbreakfast serve`` as its own process (SQLite in a temporary folder) and runs:

* **Amplification.** A seated socket at a table that waits on another (connected) player
  spams moves: out of turn, on a stale version, illegal, and ``sync`` requests, at just under
  the rate limit until the server closes it (``sync`` is no refusal: 600 of them). Reported:
  bytes the server sent ÷ bytes it was sent, per kind and overall (the state frame answering
  the hello is the price of joining, not of the attack, and is left out).
* **Memory.** The server's RSS after a warm-up, then after ``--junk`` requests spread over the
  bounded endpoints: made-up language codes for the strings and the rules, oversized bodies
  (announced and streamed), tables opened past the per-address allowance, names refused, the
  lobby list pages, and sockets turned away by the per-address cap.

    python benchmarks/server_limits.py [--junk 10000]

Goals (issue): amplification ≤ 2; RSS after the junk within 10 % of the start.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx2 as httpx  # the test extra's client (the same API as httpx)
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import contextlib

from server.kb_live import LiveServer

SOCKET_CAP = 20


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def seated_table(http: httpx.AsyncClient) -> tuple[str, list[str]]:
    grant = (await http.post("/api/tables", json={"name": "Ann", "seats": 3,
                                                  "bot_level": "random"})).json()
    table_id = grant["table"]["id"]
    bob = (await http.post(f"/api/tables/{table_id}/join", json={"name": "Bob"})).json()
    await http.post(f"/api/tables/{table_id}/start", headers={"x-seat-token": grant["token"]})
    return table_id, [grant["token"], bob["token"]]


async def amplification(server: LiveServer, kind: str) -> tuple[int, int, int]:
    """(bytes sent to us after the greeting, bytes we sent, frames we got)."""
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        table_id, tokens = await seated_table(http)
    url = f"{server.ws_base}/ws/tables/{table_id}"
    async with websockets.connect(url, ping_interval=None) as ann:
        await ann.send(json.dumps({"type": "hello", "token": tokens[0]}))
        frame = json.loads(await ann.recv())
        while frame.get("type") != "state" or frame["view"]["to_move"] != 0:
            frame = json.loads(await ann.recv())  # bots and Bob's zombie play up to Ann
        version = frame["version"]
        async with websockets.connect(url, ping_interval=None) as bob:
            await bob.send(json.dumps({"type": "hello", "token": tokens[1]}))
            while json.loads(await bob.recv())["type"] != "state":
                pass
            message = {
                "out_of_turn": {"type": "act", "version": version, "action": {"type": "draw"}},
                "stale": {"type": "act", "version": max(0, version - 1),
                          "action": {"type": "draw"}},
                "illegal": {"type": "act", "version": version,
                            "action": {"type": "feed", "dishes": ["wine", "cake"]}},
                "sync": {"type": "sync"},
            }[kind]
            text = json.dumps(message, separators=(",", ":"))
            got = answered = 0

            async def read() -> None:
                nonlocal got, answered
                try:
                    async for raw in bob:
                        got += len(raw.encode() if isinstance(raw, str) else raw)
                        answered += 1
                except websockets.ConnectionClosed:
                    pass

            reader = asyncio.ensure_future(read())
            sent = 0
            for _ in range(600):  # 60 s at most; a refused move is closed on long before
                if bob.protocol.close_rcvd is not None or reader.done():
                    break
                try:
                    await bob.send(text)
                except websockets.ConnectionClosed:
                    break
                sent += 1
                await asyncio.sleep(0.11)  # under 10 a second: only the strikes stop it
            await bob.close()
            await reader
    return got, sent * len(text), answered


async def junk(server: LiveServer, count: int) -> dict[str, int]:
    rng = random.Random(3)
    statuses: dict[str, int] = {}
    big = b"{" + b" " * 200_000 + b"}"
    limits = httpx.Limits(max_connections=16)

    async def one(http: httpx.AsyncClient, n: int) -> None:
        kind = n % 8
        try:
            if kind == 0:
                reply = await http.get(f"/api/strings/{rng.choice('dhfv')}e_{n}")
            elif kind == 1:
                reply = await http.get(f"/api/rules/x{n}_{'y' * (n % 50)}")
            elif kind == 2:
                reply = await http.post("/api/tables", content=big,
                                        headers={"content-type": "application/json"})
            elif kind == 3:
                async def chunks() -> Any:
                    for _ in range(4):
                        yield b" " * 8192

                reply = await http.post("/api/tables", content=chunks(),
                                        headers={"content-type": "application/json"})
            elif kind == 4:
                reply = await http.post("/api/tables", json={"name": f"Junk {n}"})
            elif kind == 5:
                reply = await http.post("/api/tables", json={"name": f"Bot {n} (easy)"})
            elif kind == 6:
                reply = await http.get(f"/api/tables?offset={n}&limit=100")
            else:
                reply = await http.get(f"/api/tables/{'z' * (n % 40)}{n}")
            key = f"{kind}:{reply.status_code}"
        except httpx.HTTPError as error:
            key = f"{kind}:{type(error).__name__}"
        statuses[key] = statuses.get(key, 0) + 1

    async with httpx.AsyncClient(base_url=server.base, timeout=30, limits=limits) as http:
        for start in range(0, count, 200):
            await asyncio.gather(*(one(http, n) for n in range(start, min(count, start + 200))))
    # sockets past the per-address cap, a few rounds
    for _ in range(max(1, count // 2000)):
        held = []
        for _ in range(SOCKET_CAP + 20):
            with contextlib.suppress(OSError, websockets.InvalidHandshake):
                held.append(await websockets.connect(
                    f"{server.ws_base}/ws/tables/nosuchtable", ping_interval=None))
        for ws in held:
            await ws.close()
    return statuses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--junk", type=int, default=10_000)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = LiveServer(
            f"sqlite:///{Path(tmp) / 'limits.db'}", bot_delay=0.0, zombie_grace=0.1,
            log_path=Path(tmp) / "server.log",
            extra=("--sockets-per-address", str(SOCKET_CAP), "--tables-per-minute", "6",
                   "--lobby-expiry", "2"),
        ).start()
        assert server.process is not None
        pid = server.process.pid
        try:
            print("amplification (bytes the server sent ÷ bytes it was sent, until it closed):")
            total_out = total_in = 0
            for kind in ("out_of_turn", "stale", "illegal", "sync"):
                out, inn, answered = asyncio.run(amplification(server, kind))
                total_out += out
                total_in += inn
                print(f"  {kind:12s} {out:6d} B ÷ {inn:6d} B = {out / max(1, inn):.2f} "
                      f"({answered} frames back)")
            print(f"  overall      {total_out / max(1, total_in):.2f}")
            asyncio.run(junk(server, 400))  # warm-up: every path and cache touched once
            start = rss_mib(pid)
            statuses = asyncio.run(junk(server, options.junk))
            end = rss_mib(pid)
        finally:
            server.stop()
    print(f"memory: {start:.1f} MiB at the start, {end:.1f} MiB after {options.junk} junk "
          f"requests ({100 * (end - start) / start:+.1f} %)")
    print("answers by kind:status:", json.dumps(dict(sorted(statuses.items()))))


if __name__ == "__main__":
    main()
