"""Can slow work starve sign-in and play? A real server process (SQLite), measured quiet and
under two floods: 87 reviews of finished games asked at once, and 600 ``POST /api/learn``
calls from one address (50 at a time). Through each phase, registrations (one at a time, each
from its own loopback address) and a live table's moves (a seat's move to the state that
answers it) are timed; the goal is each within twice its quiet figure. Each lesson call is
the longest there is (the whole lesson replayed, ``benchmarks/lesson_replay.py``).

    python benchmarks/starvation.py [--src PATH] [--samples 12] [--out FILE.json]

``--src`` runs the server from another checkout's ``src`` (main's, for a before figure).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from server.kb_browser import Browser
from server.kb_live import LiveServer

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lesson_replay import whole_lesson

OPEN = ("--registrations-per-hour", "1000000", "--registrations-per-day", "1000000",
        "--tables-per-minute", "1000000", "--sockets-per-address", "100000")
REVIEWS = 87
LESSONS = 600


def call(server: LiveServer, method: str, path: str, body: Any = None,
         token: str | None = None, source: str = "127.0.0.1") -> tuple[int, Any]:
    request = urllib.request.Request(
        server.base + path, method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"content-type": "application/json", **({"x-seat-token": token} if token else {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=120) as reply:
            raw = reply.read()
            return reply.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as error:
        return error.code, None


async def play_seat0(server: LiveServer, table_id: str, token: str,
                     times: list[float] | None) -> None:
    """Play seat 0 to the end (its first legal move each turn), timing each move's answer."""
    async with websockets.connect(f"{server.ws_base}/ws/tables/{table_id}",
                                  ping_interval=None, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        async for text in ws:
            frame = json.loads(text)
            if frame["type"] != "state" or frame["view"] is None:
                continue
            if sent_at is not None and times is not None:
                times.append((time.perf_counter() - sent_at) * 1000)
            sent_at = None
            view = frame["view"]
            if view["to_move"] is None:
                return
            if view["to_move"] == 0:
                words = view["legal"][0].split()
                action: dict[str, Any] = {"type": words[0]}
                if words[0] == "take":
                    action["dish"] = words[1]
                elif words[0] == "feed":
                    action["dishes"] = words[1:]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "version": frame["version"],
                                          "action": action}))


def new_game(server: LiveServer) -> tuple[str, str]:
    status, grant = call(server, "POST", "/api/tables",
                         {"name": "Ann", "seats": 3, "bot_level": "random"})
    assert status == 201, status
    table_id, token = grant["table"]["id"], grant["token"]
    call(server, "POST", f"/api/tables/{table_id}/start", None, token)
    return table_id, token


class Mover:
    """A live table's seat, playing game after game in a thread of its own."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.times: list[float] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            table_id, token = new_game(self.server)
            asyncio.run(play_seat0(self.server, table_id, token, self.times))

    def take(self) -> list[float]:
        taken, self.times = self.times, []
        return taken


def registrations(server: LiveServer, count: int, tag: str) -> list[float]:
    times = []
    for number in range(count):
        browser = Browser(server, f"127.0.{1 + number // 200}.{2 + number % 200}")
        browser.page()
        start = time.perf_counter()
        status, _ = browser.register(f"{tag} {number} {random.randrange(10**6)}")
        times.append((time.perf_counter() - start) * 1000)
        assert status == 201, status
    return times


def summary(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    if not values:
        return {}
    return {"n": len(values), "p50_ms": round(statistics.median(values), 1),
            "p90_ms": round(values[int(0.9 * (len(values) - 1))], 1),
            "max_ms": round(values[-1], 1)}


def phase(name: str, server: LiveServer, mover: Mover, samples: int,
          flood: Callable[[], dict[str, int]] | None) -> dict[str, Any]:
    mover.take()
    outcome: dict[str, float] = {}
    thread = None
    if flood is not None:
        def flooding() -> None:
            started = time.perf_counter()
            outcome.update(flood())
            outcome["seconds"] = round(time.perf_counter() - started, 1)

        thread = threading.Thread(target=flooding)
        thread.start()
        time.sleep(0.2)  # the flood under way before the timing starts
    registered = registrations(server, samples, name)
    moves = mover.take()
    if thread is not None:
        thread.join()
    return {"registration": summary(registered), "move": summary(moves), "flood": outcome}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=Path(__file__).resolve().parents[1] / "src")
    parser.add_argument("--samples", type=int, default=24)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    os.environ["PYTHONPATH"] = f"{args.src}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"
    folder = Path(tempfile.mkdtemp(prefix="kb-starvation-"))
    server = LiveServer(f"sqlite:///{folder / 'games.db'}", bot_delay=0.0,
                        log_path=folder / "server.log", extra=OPEN).start()
    try:
        finished = []
        for _ in range(REVIEWS // 3):  # 29 finished games of 3 seats: 87 reviews
            table_id, token = new_game(server)
            asyncio.run(play_seat0(server, table_id, token, None))
            finished.append(table_id)
        asks = [f"/api/games/{t}/review?seat={s}" for t in finished for s in range(3)]

        def reviews() -> dict[str, int]:
            with ThreadPoolExecutor(REVIEWS) as pool:
                statuses = list(pool.map(lambda path: call(server, "GET", path)[0], asks))
            return {str(s): statuses.count(s) for s in sorted(set(statuses))}

        texts = [str(move) for move in whole_lesson()]
        longest = {"language": "de", "moves": texts[:-1], "move": texts[-1]}

        def lessons() -> dict[str, int]:
            learner = Browser(server, "127.9.9.9")
            with ThreadPoolExecutor(50) as pool:
                statuses = list(pool.map(
                    lambda _n: learner.call("POST", "/api/learn", longest)[0],
                    range(LESSONS)))
            return {str(s): statuses.count(s) for s in sorted(set(statuses))}

        mover = Mover(server)
        results = {
            "src": str(args.src),
            "quiet": phase("quiet", server, mover, args.samples, None),
            "reviews": phase("reviews", server, mover, args.samples, reviews),
            "lessons": phase("lessons", server, mover, args.samples, lessons),
            "quiet again": phase("quiet again", server, mover, args.samples, None),
        }
        mover.stop.set()
    finally:
        server.stop()
    print(json.dumps(results, indent=1))
    if args.out:
        args.out.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
