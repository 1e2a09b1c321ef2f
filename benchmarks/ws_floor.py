"""The WebSocket stack's own cost per move, with no game behind it: a floor for
``server_load.py``'s ``server_cpu_ms_per_move_in_window``.

A move on the real server is one small frame in (the mover's action) and one state frame out
to each of the table's four sockets. This script serves exactly that traffic and nothing
else: a table is four sockets; a frame from one of them is answered by a frame of
``--frame-bytes`` (2,548 by default: the mean state frame of four-seat games, see
``--measure-frames``) to each of the four. No rules, no validation, no database, no
frames to build. Three servers, one per ``--stack``:

* ``starlette``: uvicorn as ``kingsbreakfast serve`` configures it (uvloop, httptools,
  websockets' sans-I/O protocol, pings every 20 s, 64 KiB messages) with a Starlette
  WebSocket route, the layer the game's play socket is written on (FastAPI's ``WebSocket``
  is Starlette's);
* ``asgi``: the same uvicorn with a bare ASGI application (the ``websocket.send`` messages
  written by hand, no Starlette);
* ``sansio``: no ASGI server at all: a uvloop server whose protocol drives websockets'
  sans-I/O ``ServerProtocol`` itself and writes its bytes to the transport (what a play
  socket below ASGI would cost).

The client side is ``server_load.py``'s: ``--tables`` tables in ``--client-procs`` processes,
each move sent by the seat whose turn it is after ``--think`` × U(0.5, 1.5) seconds, a move
timed until each of the four sockets has its frame. The server's CPU (user + system, from
``/proc``) is read when every client process is in its window and when the first leaves it.

    python benchmarks/ws_floor.py --stack starlette --tables 1000 --seconds 30 --client-procs 2
    python benchmarks/ws_floor.py --measure-frames 200   # the real frames' mean size
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_load import SEATS, cpu_seconds, rss_mib

ACTION = '{"type":"act","version":%d,"action":{"type":"take","dish":"porridge"}}'


def padded_frame(version: int, size: int) -> bytes:
    """A text frame of ``size`` bytes that names the version it answers (a state frame's
    size, none of its content)."""
    head = b'{"type":"state","version":%d,"pad":"' % version
    return head + b"x" * max(0, size - len(head) - 2) + b'"}'


def version_of(frame: bytes | str) -> int:
    text = frame if isinstance(frame, str) else frame.decode()
    return int(text[text.index('"version":') + 10:].split(",", 1)[0].split("}", 1)[0])


# ---- the three servers ------------------------------------------------------------------


def serve_uvicorn(stack: str, port: int, size: int) -> None:
    import uvicorn

    tables: dict[str, dict[int, Any]] = {}

    async def bare(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            return
        _, _, table, seat_text = scope["path"].split("/")
        seat = int(seat_text)
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        sockets = tables.setdefault(table, {})
        sockets[seat] = send
        try:
            while True:
                event = await receive()
                if event["type"] != "websocket.receive":
                    break
                frame = padded_frame(version_of(event.get("bytes") or event["text"]) + 1,
                                    size).decode()
                for peer in list(sockets.values()):
                    await peer({"type": "websocket.send", "text": frame})
        finally:
            sockets.pop(seat, None)

    app: Any = bare
    if stack == "starlette":
        from starlette.applications import Starlette
        from starlette.routing import WebSocketRoute
        from starlette.websockets import WebSocket, WebSocketDisconnect

        async def play(websocket: WebSocket) -> None:
            table = websocket.path_params["table"]
            seat = int(websocket.path_params["seat"])
            await websocket.accept()
            sockets = tables.setdefault(table, {})
            sockets[seat] = websocket
            try:
                while True:
                    text = await websocket.receive_text()
                    frame = padded_frame(version_of(text) + 1, size).decode()
                    for peer in list(sockets.values()):
                        await peer.send_text(frame)
            except WebSocketDisconnect:
                pass
            finally:
                sockets.pop(seat, None)

        app = Starlette(routes=[WebSocketRoute("/ws/{table}/{seat}", play)])
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=64 * 1024,
                ws_ping_interval=20.0, ws_ping_timeout=20.0, ws="websockets-sansio",
                http="httptools", loop="uvloop", lifespan="off")


def serve_sansio(port: int, size: int) -> None:
    import uvloop
    from websockets.frames import Frame, Opcode
    from websockets.http11 import Request
    from websockets.protocol import State
    from websockets.server import ServerProtocol

    tables: dict[str, dict[int, Any]] = {}

    class Play(asyncio.Protocol):
        """One socket: websockets' sans-I/O protocol fed from ``data_received``."""

        def connection_made(self, transport: Any) -> None:
            self.transport = transport
            self.ws = ServerProtocol(max_size=64 * 1024)
            self.table: dict[int, Any] | None = None
            self.seat = -1
            self.ping = asyncio.get_running_loop().call_later(20.0, self.keepalive)

        def keepalive(self) -> None:
            self.ws.send_ping(os.urandom(4))
            self.flush()
            self.ping = asyncio.get_running_loop().call_later(20.0, self.keepalive)

        def flush(self) -> None:
            data = self.ws.data_to_send()
            if data:
                self.transport.write(b"".join(data))

        def data_received(self, data: bytes) -> None:
            self.ws.receive_data(data)
            for event in self.ws.events_received():
                if isinstance(event, Request):
                    self.ws.send_response(self.ws.accept(event))
                    _, _, table, seat_text = event.path.split("/")
                    self.seat = int(seat_text)
                    self.table = tables.setdefault(table, {})
                    self.table[self.seat] = self
                elif isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                    frame = padded_frame(version_of(bytes(event.data)) + 1, size)
                    for peer in list((self.table or {}).values()):
                        if peer.ws.state is not State.OPEN:  # closing at the run's end
                            continue
                        peer.ws.send_text(frame)
                        peer.flush()
            self.flush()
            if self.ws.close_expected():
                self.transport.close()

        def connection_lost(self, exc: BaseException | None) -> None:
            self.ping.cancel()
            if self.table is not None:
                self.table.pop(self.seat, None)

    async def main() -> None:
        server = await asyncio.get_running_loop().create_server(Play, "127.0.0.1", port,
                                                                backlog=4096)
        await server.serve_forever()

    uvloop.run(main())


# ---- the clients ------------------------------------------------------------------------


async def drive(port: int, tables: int, seconds: float, think: float, seed: int,
                marker: str, procs: int) -> dict[str, Any]:
    import websockets

    rng = random.Random(seed)
    latencies: list[float] = []
    sent_at: list[float] = []
    errors: list[str] = []
    measure = [float("inf")]
    stop = asyncio.Event()
    ready = asyncio.Barrier(tables * SEATS + 1)
    tag = f"{seed}-"
    gate = asyncio.Semaphore(50)

    async def table(number: int) -> None:
        sent: dict[int, float] = {}
        table_rng = random.Random(rng.random())

        async def seat(index: int) -> None:
            async with gate:  # at most 50 handshakes under way at once
                ws = await websockets.connect(
                    f"ws://127.0.0.1:{port}/ws/{tag}{number}/{index}", max_size=2**20,
                    ping_interval=None, open_timeout=120,
                )
            async with ws:
                await ready.wait()
                if index == 0:  # the first move
                    sent[1] = time.monotonic()
                    sent_at.append(sent[1])
                    await ws.send(ACTION % 0)
                while not stop.is_set():
                    try:
                        text = await asyncio.wait_for(ws.recv(), 1.0)
                    except TimeoutError:
                        continue
                    now = time.monotonic()
                    version = version_of(text)
                    started = sent.get(version)
                    if started is not None and started >= measure[0]:
                        latencies.append(now - started)
                    if version % SEATS == index and not stop.is_set():  # this seat's turn
                        await asyncio.sleep(think * (0.5 + table_rng.random()))
                        sent[version + 1] = time.monotonic()
                        sent_at.append(sent[version + 1])
                        await ws.send(ACTION % version)

        try:
            await asyncio.gather(*(seat(i) for i in range(SEATS)))
        except Exception as error:  # counted and reported
            errors.append(repr(error))

    runs = [asyncio.ensure_future(table(n)) for n in range(tables)]
    connect_start = time.monotonic()
    await ready.wait()
    connected = time.monotonic() - connect_start
    Path(f"{marker}.ready").touch()
    folder = Path(marker).parent
    while len(list(folder.glob("*.ready"))) < procs:  # every client process's window at once
        await asyncio.sleep(0.05)
    measure[0] = time.monotonic()
    await asyncio.sleep(seconds)
    end = time.monotonic()
    Path(f"{marker}.done").touch()
    stop.set()
    await asyncio.gather(*runs, return_exceptions=True)
    return {
        "latencies": latencies,
        "moves_in_window": sum(measure[0] <= t < end for t in sent_at),
        "window": end - measure[0],
        "errors": errors,
        "connect_seconds": connected,
    }


def client(args: tuple[int, int, float, float, int, str, int]) -> dict[str, Any]:
    import uvloop

    return uvloop.run(drive(*args))


def measure_frames(games: int) -> None:
    """The real state frames' mean size, four seats, random play, every seat's frame after
    every move (the frames of ``kingsbreakfast.server.tables.state_frames``)."""
    from kingsbreakfast.engine import Rules, State
    from kingsbreakfast.server.tables import HUMAN, Seat, Table, state_frames

    rng = random.Random(7)
    sizes: list[int] = []
    for _ in range(games):
        state = State.new(SEATS, rng)
        table = Table(id="x" * 12,  # a table id: token_urlsafe(9)
                      num_seats=SEATS, rules=Rules(), bot_level="random",
                      clock_seconds=None, public=False,
                      seats=[Seat(HUMAN, f"p{n}") for n in range(SEATS)], state=state)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            table.version += 1
            frames = state_frames(table, set(range(SEATS)), present=set(range(SEATS)))
            sizes += [len(text.encode()) for text in frames.values()]
    print(json.dumps({"games": games, "frames": len(sizes),
                      "mean_bytes": round(statistics.fmean(sizes), 1),
                      "median_bytes": statistics.median(sizes)}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stack", choices=("starlette", "asgi", "sansio"), default="starlette")
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--client-procs", type=int, default=2)
    parser.add_argument("--frame-bytes", type=int, default=2548)
    parser.add_argument("--port", type=int, default=8391)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--measure-frames", type=int, metavar="GAMES",
                        help="print the real state frames' mean size over GAMES games")
    options = parser.parse_args()
    if options.measure_frames:
        measure_frames(options.measure_frames)
        return
    if options.serve:
        if options.stack == "sansio":
            serve_sansio(options.port, options.frame_bytes)
        else:
            serve_uvicorn(options.stack, options.port, options.frame_bytes)
        return
    server = subprocess.Popen([sys.executable, __file__, "--serve", "--stack", options.stack,
                               "--port", str(options.port),
                               "--frame-bytes", str(options.frame_bytes)])
    try:
        wait_listening(options.port)
        idle = rss_mib(server.pid)
        shares = [options.tables // options.client_procs + (i < options.tables
                  % options.client_procs) for i in range(options.client_procs)]
        with tempfile.TemporaryDirectory() as folder:
            markers = [str(Path(folder) / f"proc-{i}") for i in range(len(shares))]
            jobs = [(options.port, n, options.seconds, options.think, options.seed * 100 + i,
                     markers[i], len(shares)) for i, n in enumerate(shares)]
            with multiprocessing.get_context("spawn").Pool(len(shares)) as pool:
                pending = pool.map_async(client, jobs)
                marks: list[tuple[float, float]] = []
                peak = idle
                while not pending.ready():
                    time.sleep(0.05)
                    peak = max(peak, rss_mib(server.pid))
                    if not marks and all(Path(f"{m}.ready").exists() for m in markers):
                        marks.append((time.monotonic(), cpu_seconds(server.pid)))
                    if len(marks) == 1 and any(Path(f"{m}.done").exists() for m in markers):
                        marks.append((time.monotonic(), cpu_seconds(server.pid)))
                results = pending.get()
    finally:
        server.terminate()
        server.wait(10)
    latencies: list[float] = sorted(x for r in results for x in r["latencies"])
    move_rate = sum(r["moves_in_window"] / r["window"] for r in results)
    (t0, c0), (t1, c1) = marks
    cpu_rate = (c1 - c0) / (t1 - t0)

    def pct(p: float) -> float:
        return round(latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000, 2)

    print(json.dumps({
        "stack": options.stack, "tables": options.tables, "connections": options.tables * SEATS,
        "frame_bytes": options.frame_bytes, "think_s": options.think,
        "client_procs": options.client_procs, "window_s": round(t1 - t0, 1),
        "moves_per_s": round(move_rate, 1),
        "p50_ms": pct(0.5), "p99_ms": pct(0.99), "max_ms": pct(1.0),
        "errors": sum(len(r["errors"]) for r in results),
        "server_cpu_share_of_a_core": round(cpu_rate, 3),
        "server_cpu_ms_per_move_in_window": round(1000 * cpu_rate / move_rate, 3),
        "server_rss_mib_idle": round(idle, 1), "server_rss_mib_peak": round(peak, 1),
        "connect_all_s": round(max(r["connect_seconds"] for r in results), 1),
    }, indent=2))


def wait_listening(port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"the {port} server did not start listening")


if __name__ == "__main__":
    main()
