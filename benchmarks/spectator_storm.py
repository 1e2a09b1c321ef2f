"""A storm of spectators at one table while its seated players keep playing.

Starts ``kingsbreakfast serve`` as its own process (SQLite in a temporary folder), opens a
four-seat table with ``--seated`` players (client bots in this process answering each turn
after ``--think`` seconds) and server bots in the other seats, and, once the game runs,
sends ``--spectators`` sockets (from ``--storm-procs`` other processes, so the crowd's own
work does not slow the seated clients' clock) that each connect, say hello and wait for their
first state frame, all within about ``--storm-seconds``. When a game ends the host opens the
next one, so play goes on through the whole storm.

Measured on the seated sockets: every move's time from being sent to the new state arriving
on each seated socket (so a move gives one sample per seated player), how many seated sockets
were closed, and how many bytes and frames they got during the storm, and the server's CPU;
on the crowd: how many got their first frame and how long the storm took.

On one shared machine the crowd's own handshakes compete with the server for the cores; the
crowd's processes run at a lower priority (``--crowd-nice``), as if they were elsewhere.

    python benchmarks/spectator_storm.py [--spectators 1000] [--storm-seconds 4]

Goal (issue): 1,000 spectators in at most 5 s, 0 seated sockets closed, seated
move → broadcast p99 at most 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx  # the test extra's client (the same API as httpx)
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from kingsbreakfast.engine import Action
from server.kb_live import LiveServer


class Seated:
    """One seated player's socket: answers its turns at once and times each answer."""

    def __init__(self, ws: Any, rng: random.Random, table_id: str, think: float,
                 sent: dict[int, float]) -> None:
        self.ws = ws
        self.table_id = table_id
        self.think = think
        self.rng = rng
        self.sent = sent
        """When each version was asked for, shared by the table's seated sockets."""
        self.latencies: list[float] = []
        self.when: list[float] = []
        self.bytes = 0
        self.frames = 0
        self.closed = False
        self.over = asyncio.Event()

    async def play(self, counting: asyncio.Event) -> None:
        try:
            async for raw in self.ws:
                now = time.perf_counter()
                if counting.is_set():
                    self.bytes += len(raw)
                    self.frames += 1
                frame = json.loads(raw)
                if frame["type"] != "state":
                    continue
                version = frame["version"]
                if version in self.sent:
                    self.latencies.append(now - self.sent[version])
                    self.when.append(now)
                view = frame["view"]
                if view is None:
                    continue
                if view["to_move"] is None:
                    self.over.set()
                    return
                if view["to_move"] == frame["you"]:
                    await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
                    action = Action.parse(self.rng.choice(view["legal"]))
                    self.sent[version + 1] = time.perf_counter()
                    await self.ws.send(json.dumps({
                        "type": "act", "version": version, "action": action.to_record()}))
        except websockets.ConnectionClosed as closed:
            self.closed = closed.rcvd is not None and closed.rcvd.code != 1000


async def open_game(http: httpx.AsyncClient, seated: int) -> tuple[str, list[str]]:
    grant = (await http.post("/api/tables", json={
        "name": "Host", "seats": 4, "bot_level": "random", "public": True})).json()
    table_id = grant["table"]["id"]
    tokens = [grant["token"]]
    for number in range(1, seated):
        joined = (await http.post(f"/api/tables/{table_id}/join",
                                  json={"name": f"Guest {number}"})).json()
        tokens.append(joined["token"])
    await http.post(f"/api/tables/{table_id}/start", headers={"x-seat-token": tokens[0]})
    return table_id, tokens


def crowd(args: tuple[str, str, int, float, int]) -> dict[str, Any]:
    """One process's share of the storm: ``count`` spectators spread over ``seconds``."""
    ws_base, table_id, count, seconds, nice = args
    os.nice(nice)
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass

    async def one(delay: float, held: list[Any], firsts: list[float]) -> None:
        await asyncio.sleep(delay)
        start = time.perf_counter()
        ws = await websockets.connect(f"{ws_base}/ws/tables/{table_id}", open_timeout=30,
                                      max_size=2**22, ping_interval=None)
        await ws.send(json.dumps({"type": "hello", "token": None}))
        while json.loads(await ws.recv())["type"] != "state":
            pass
        firsts.append(time.perf_counter() - start)
        held.append(ws)

    async def main() -> dict[str, Any]:
        held: list[Any] = []
        firsts: list[float] = []
        start = time.perf_counter()
        results = await asyncio.gather(
            *(one(seconds * i / count, held, firsts) for i in range(count)),
            return_exceptions=True,
        )
        took = time.perf_counter() - start
        failed = [repr(r) for r in results if isinstance(r, BaseException)]
        await asyncio.sleep(1.0)  # the crowd stays a moment, then leaves together
        await asyncio.gather(*(ws.close() for ws in held), return_exceptions=True)
        return {"in": len(held), "failed": failed[:5], "took": took, "firsts": firsts}

    return asyncio.run(main())


async def drive(server: LiveServer, options: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(options.seed)
    counting = asyncio.Event()
    seated: list[Seated] = []
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        stop = asyncio.Event()

        async def games() -> str:
            first = ""
            while not stop.is_set():
                table_id, tokens = await open_game(http, options.seated)
                first = first or table_id
                if not ready.done():
                    ready.set_result(table_id)
                sockets = []
                sent: dict[int, float] = {}
                for token in tokens:
                    ws = await websockets.connect(f"{server.ws_base}/ws/tables/{table_id}",
                                                  max_size=2**22, ping_interval=None)
                    await ws.send(json.dumps({"type": "hello", "token": token}))
                    player = Seated(ws, rng, table_id, options.think, sent)
                    seated.append(player)
                    sockets.append(asyncio.ensure_future(player.play(counting)))
                await asyncio.gather(*sockets)
                for player in seated[-len(tokens):]:
                    await player.ws.close()
            return first

        ready: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        playing = asyncio.ensure_future(games())
        table_id = await ready
        await asyncio.sleep(1.0)  # play is under way
        before = {id(p): len(p.latencies) for p in seated}
        counting.set()
        procs = max(1, options.storm_procs)
        shares = [options.spectators // procs + (i < options.spectators % procs)
                  for i in range(procs)]
        loop = asyncio.get_running_loop()
        assert server.process is not None
        cpu_before = cpu_seconds(server.process.pid)
        storm_start = time.perf_counter()
        with multiprocessing.Pool(procs) as pool:
            storm = await loop.run_in_executor(None, lambda: pool.map(crowd, [
                (server.ws_base, table_id, n, options.storm_seconds, options.crowd_nice)
                for n in shares]))
        counting.clear()
        server_cpu = cpu_seconds(server.process.pid) - cpu_before
        slow = sorted(
            ((round(w - storm_start, 2), round(1000 * x)) for p in seated
             if p.table_id == table_id
             for w, x in zip(p.when[before.get(id(p), 0):], p.latencies[before.get(id(p), 0):],
                             strict=True) if x > 0.05),
        )
        if options.verbose:
            print("slow samples (s into the storm, ms):", slow)
        during = [x for p in seated if p.table_id == table_id
                  for x in p.latencies[before.get(id(p), 0):]]
        stop.set()
        await asyncio.wait_for(playing, 60)
    return {"storm": storm, "during": during, "seated": seated, "cpu": server_cpu}


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--storm-seconds", type=float, default=4.0)
    parser.add_argument("--storm-procs", type=int, default=2)
    parser.add_argument("--crowd-nice", type=int, default=10,
                        help="how much lower the crowd processes' priority is (0: the same)")
    parser.add_argument("--seated", type=int, default=4,
                        help="players (client bots) at the four-seat table; bots take the rest")
    parser.add_argument("--bot-delay", type=float, default=0.2)
    parser.add_argument("--think", type=float, default=0.1,
                        help="mean seconds a seated client waits before its move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--verbose", action="store_true", help="list the slow samples")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = LiveServer(
            f"sqlite:///{Path(tmp) / 'storm.db'}", bot_delay=options.bot_delay,
            log_path=Path(tmp) / "server.log",
            extra=("--sockets-per-address", str(options.spectators + 100),
                   "--sockets-per-table", str(options.spectators + 100),
                   "--tables-per-minute", "100000"),
        ).start()
        try:
            result = asyncio.run(drive(server, options))
        finally:
            server.stop()
    storm = result["storm"]
    during = sorted(result["during"])
    joined = sum(s["in"] for s in storm)
    took = max(s["took"] for s in storm)
    firsts = sorted(x for s in storm for x in s["firsts"])
    seated: list[Seated] = result["seated"]

    def pct(values: list[float], p: float) -> float:
        return 1000 * values[min(len(values) - 1, int(p * len(values)))] if values else 0.0

    print(f"spectators in:            {joined} of {options.spectators} in {took:.2f} s "
          f"(failed: {sum(len(s['failed']) for s in storm)} {storm[0]['failed'][:2]})")
    print(f"spectator first frame ms: p50 {pct(firsts, 0.5):.1f}  p99 {pct(firsts, 0.99):.1f}")
    print(f"seated sockets closed:    {sum(p.closed for p in seated)} of {len(seated)}")
    print(f"seated moves in storm:    {len(during)} samples (at the storm's table)")
    if during:
        print(f"seated move→state ms:     p50 {pct(during, 0.5):.1f}  p90 {pct(during, 0.9):.1f}"
              f"  p99 {pct(during, 0.99):.1f}  max {1000 * during[-1]:.1f}"
              f"  mean {1000 * statistics.mean(during):.1f}")
    print(f"to seated during storm:   {sum(p.frames for p in seated)} frames, "
          f"{sum(p.bytes for p in seated) / 1024:.1f} KiB")
    print(f"server CPU in the storm:  {result['cpu']:.2f} s")


if __name__ == "__main__":
    main()
