"""Load on loopback: N concurrent tables of bot clients against one server process.

Starts ``kingsbreakfast serve`` as a separate process (SQLite in a temporary directory unless
``--db`` names another database), creates N four-seat tables through the lobby API, seats four
client bots at each (every seat a WebSocket), starts them, and lets every bot answer its turn
with a random legal move after ``--think`` seconds. When a game ends the table's host opens a
new table, so the load stays at N tables for the whole measurement window.

Measured, for every move: the time from the move being sent to the new state being received,
on each of the table's four connections (so each move gives four samples). Reported: moves/s,
p50/p90/p99/max latency, error frames, unexpected closes, lost actions (a table whose server
version differs from the last version its clients saw acknowledged), and the server's memory.

    python benchmarks/server_load.py --tables 100 --seconds 30 [--think 1.0] [--client-procs 2]

Where the server's CPU goes over the whole run: ``server_cpu_s_setup`` / ``_window`` /
``_after`` split it at the window's ends, and ``client_steps`` gives, for each client
process, every step's wall seconds and the server's CPU seconds meanwhile (creating and
joining the tables, connecting and greeting the sockets, starting the games, the window,
closing, the final checks). ``--profile`` / ``--profile-setup`` / ``--profile-after`` record
py-spy over the window, the set-up and the end (``--profile-gil``: only the thread holding
the interpreter lock, i.e. CPU in Python rather than an idle loop's waits);
``benchmarks/profile_top.py`` lists the top entries.

With ``--servers N --db postgresql://…`` it starts N server processes on PostgreSQL behind
HAProxy (scripts/haproxy-config.sh; ``--proxy`` puts the proxy in front of one process too,
for a like-for-like comparison) on ports ``--port-base`` + 0 … N, and drives them through
the proxy. The database's tables are dropped first. ``--pg-statements`` (PostgreSQL with the
``pg_stat_statements`` extension loaded) also counts the database's statements over the
measurement window, each kind per move, and the CPU per move of the proxy and of
PostgreSQL's processes (benchmarks/cluster_cost.py compares 1, 2 and 3 processes so).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import multiprocessing
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx  # the test extra's client (the same API as httpx)
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from server.kb_cluster import LOAD_LIMITS, Proxy, start_servers
from server.kb_live import LiveServer
from server.kb_schema import fresh_schema

SEATS = 4


class TableRun:
    """One table's four client bots."""

    def __init__(self, ws_base: str, think: float, rng: random.Random) -> None:
        self.ws_base = ws_base
        self.think = think
        self.rng = rng
        self.sent: dict[int, float] = {}  # version the move creates → send time
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.closes = 0
        self.moves = 0
        self.sent_at: list[float] = []  # when each move was sent
        self.table_id = ""
        self.tokens: list[str] = []
        self.seen = [0] * SEATS
        self.finished = False
        self.games = 0
        self.seated = asyncio.Event()

    async def open_table(self, http: httpx.AsyncClient) -> None:
        grant = await post(http, "/api/tables", {"name": "host", "seats": SEATS,
                                                 "bot_level": "random", "public": False})
        self.table_id, self.tokens = grant["table"]["id"], [grant["token"]]
        for number in range(1, SEATS):
            joined = await post(http, f"/api/tables/{self.table_id}/join", {"name": f"p{number}"})
            self.tokens.append(joined["token"])

    async def start(self, http: httpx.AsyncClient) -> None:
        await post(http, f"/api/tables/{self.table_id}/start", None, self.tokens[0])

    async def play_on(self, ready: asyncio.Barrier, measure: list[float],
                      http: httpx.AsyncClient, gate: asyncio.Semaphore) -> None:
        """The first game on the common start, then a new table each time a game ends, so
        the load stays at N tables however short the games are."""
        await self.play(ready, measure)
        while self.finished and not self.closes:
            self.finished = False
            self.sent = {}
            self.seen = [0] * SEATS
            async with gate:
                await self.open_table(http)
            started = asyncio.ensure_future(self._start_when_seated(http))
            await self.play(None, measure)
            await started
            self.games += 1

    async def _start_when_seated(self, http: httpx.AsyncClient) -> None:
        await self.seated.wait()
        await self.start(http)

    async def play(self, ready: asyncio.Barrier | None, measure: list[float]) -> None:
        seen = self.seen
        done = asyncio.Event()
        self.seated = asyncio.Event()
        greeted = [0]

        async def seat(number: int) -> None:
            try:
                async with websockets.connect(
                    f"{self.ws_base}/ws/tables/{self.table_id}", max_size=2**20,
                    ping_interval=None, open_timeout=120,
                ) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": self.tokens[number]}))
                    json.loads(await ws.recv())  # the lobby state: connected
                    greeted[0] += 1
                    if greeted[0] == SEATS:
                        self.seated.set()
                    if ready is not None:
                        await ready.wait()
                    acted = -1
                    while not done.is_set():  # ends when the game does, or by cancel
                        text = await ws.recv()
                        now = time.monotonic()
                        frame = json.loads(text)
                        if frame["type"] == "error":
                            self.errors.append(frame["code"])
                            continue
                        if frame["type"] != "state" or frame["view"] is None:
                            continue
                        version = frame["version"]
                        if version > seen[number]:  # the first news of this move here
                            seen[number] = version  # (presence updates repeat a version)
                            started = self.sent.get(version)
                            if started is not None and started >= measure[0]:
                                self.latencies.append(now - started)
                        view = frame["view"]
                        if view["to_move"] is None:
                            self.finished = True
                            done.set()
                            break
                        if view["to_move"] == number and version > acted:
                            acted = version
                            await asyncio.sleep(self.think * (0.5 + self.rng.random()))
                            words = self.rng.choice(view["legal"]).split()
                            action: dict[str, Any] = {"type": words[0]}
                            if words[0] == "take":
                                action["dish"] = words[1]
                            elif words[0] == "feed":
                                action["dishes"] = words[1:]
                            self.sent[version + 1] = time.monotonic()
                            self.sent_at.append(self.sent[version + 1])
                            self.moves += 1
                            await ws.send(json.dumps(
                                {"type": "act", "version": version, "action": action}
                            ))
            except websockets.ConnectionClosed as closed:
                self.closes += 1
                self.errors.append(f"closed {closed}")
                done.set()

        await asyncio.gather(*(seat(n) for n in range(SEATS)))


RETRIED = [0]
"""Lobby calls answered 429 or 502–504 and tried again (this client process's count)."""


async def post(http: httpx.AsyncClient, path: str, body: Any, token: str | None = None) -> Any:
    """A lobby call, retried when a kept-alive connection was closed under it, or when the
    proxy or the server answered that it could not serve it now (502–504: a process too
    busy for its health check, or waiting for the database), as a browser client would.
    A 429 is tried again after its ``Retry-After``: the server's burst of ten tables an
    address is not one of the bounds ``LOAD_LIMITS`` lifts, and a server paused (by a
    profiler, say) answers a backlog of table openings at one instant."""
    headers = {"x-seat-token": token} if token else {}
    for attempt in range(8):
        try:
            reply = await http.post(path, json=body, headers=headers)
            if reply.status_code == 429 and attempt < 7:
                RETRIED[0] += 1
                await asyncio.sleep(min(2.0, float(reply.headers.get("retry-after", 1))))
                continue
            if reply.status_code in (502, 503, 504) and attempt < 7:
                RETRIED[0] += 1
                await asyncio.sleep(0.25 * (attempt + 1))
                continue
            reply.raise_for_status()
            return reply.json()
        except httpx.TransportError:
            if attempt == 7:
                raise
            await asyncio.sleep(0.2)
    raise AssertionError("unreachable")


async def stored_version(http: httpx.AsyncClient, table_id: str) -> int | None:
    """How many actions the server holds for a table: its version while it is in play,
    else its record's actions; None when neither could be read (a busy cluster may answer
    503 for a moment: asked again five times)."""
    for attempt in range(5):
        reply = await http.get(f"/api/tables/{table_id}")
        if reply.status_code == 200:
            return int(reply.json()["version"])
        if reply.status_code == 404:  # finished and archived: count the record's actions
            record = await http.get(f"/games/{table_id}/record")
            if record.status_code == 200:
                return len(record.json()["actions"])
        await asyncio.sleep(0.5 * (attempt + 1))
    return None


async def drive(base: str, ws_base: str, tables: int, seconds: float, think: float,
                seed: int, marker: str | None = None, procs: int = 1,
                watch: tuple[int, ...] = ()) -> dict[str, Any]:
    steps: list[tuple[str, float, float]] = []  # (step, monotonic, the servers' CPU) at its end

    def step(name: str) -> None:
        steps.append((name, time.monotonic(), sum(cpu_seconds(pid) for pid in watch)))

    step("begin")
    limits = httpx.Limits(max_connections=20, max_keepalive_connections=10)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=120) as http:
        rng = random.Random(seed)
        runs = [TableRun(ws_base, think, random.Random(rng.random())) for _ in range(tables)]
        gate = asyncio.Semaphore(20)

        async def limited(coro: Any) -> None:
            async with gate:
                await coro

        await asyncio.gather(*(limited(r.open_table(http)) for r in runs))
        step("open_tables")
        ready = asyncio.Barrier(tables * SEATS + 1)
        measure = [float("inf")]
        setup_start = time.monotonic()
        players = [asyncio.ensure_future(r.play_on(ready, measure, http, gate)) for r in runs]
        await ready.wait()  # every socket is connected and greeted
        connect_seconds = time.monotonic() - setup_start
        step("connect_and_greet")
        if marker is not None:  # every client process starts its window at once
            Path(f"{marker}.ready").touch()
            folder = Path(marker).parent
            deadline = time.monotonic() + 120  # a client process that failed never comes
            while len(list(folder.glob("window-*.ready"))) < procs:
                if time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.02)
        step("wait_for_others")
        await asyncio.gather(*(limited(r.start(http)) for r in runs))
        measure[0] = time.monotonic()
        step("start_tables")
        if marker is not None:  # tell the parent the window began (its CPU reading, py-spy)
            Path(marker).touch()
        await asyncio.sleep(seconds)
        end = time.monotonic()
        if marker is not None:
            Path(marker + ".end").touch()
        await asyncio.sleep(0.5)  # let the moves in flight be acknowledged
        for task in players:
            task.cancel()
        step("window")
        await asyncio.gather(*players, return_exceptions=True)
        step("close_sockets")
        lost = unverified = 0
        for r in runs:
            stored = await stored_version(http, r.table_id)
            if stored is None:
                unverified += 1
            elif stored < min(r.seen):
                lost += 1
        step("final_checks")
        in_window = [x for r in runs for x in r.latencies]
        return {
            "latencies": in_window,
            "moves": sum(r.moves for r in runs),
            "moves_in_window": sum(measure[0] <= t < end for r in runs for t in r.sent_at),
            "window": end - measure[0],
            "errors": [e for r in runs for e in r.errors],
            "closes": sum(r.closes for r in runs),
            "lost": lost,
            "unverified": unverified,
            "finished": sum(r.games + r.finished for r in runs),
            "connect_seconds": connect_seconds,
            "lobby_retries": RETRIED[0],
            "steps": {name: [round(t - before[1], 2), round(c - before[2], 2)]
                      for before, (name, t, c) in itertools.pairwise(steps)},
        }


def client_process(
    args: tuple[str, str, int, float, float, int, str | None, int, tuple[int, ...]],
) -> dict[str, Any]:
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    try:
        return asyncio.run(drive(*args))
    except Exception as error:  # sent back as text: an exception the pool cannot unpickle
        # would stop its result thread, and the run would wait for ever
        return {"failed": f"{type(error).__name__}: {error}"}


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def switches(pids: list[int]) -> tuple[float, float, float]:
    """The servers' system CPU seconds, and their threads' voluntary context switches (a
    thread waiting: for the event loop, its next socket event or a database answer) and
    involuntary ones (a thread preempted by another process wanting the core)."""
    system = voluntary = involuntary = 0.0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        system += int(fields[12]) / os.sysconf("SC_CLK_TCK")
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError):  # a thread that ended in between
                for line in (task / "status").read_text().splitlines():
                    if line.startswith("voluntary_ctxt_switches:"):
                        voluntary += int(line.split()[1])
                    elif line.startswith("nonvoluntary_ctxt_switches:"):
                        involuntary += int(line.split()[1])
    return system, voluntary, involuntary


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Statements:
    """``pg_stat_statements`` over a window: reset at its start, read at its end (the
    calls of this benchmark's own reset and read left out)."""

    def __init__(self, url: str) -> None:
        from sqlalchemy import create_engine

        from kingsbreakfast.server.storage import normalize_url

        self.engine = create_engine(normalize_url(url))
        with self.engine.begin() as connection:
            connection.exec_driver_sql("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
            self.postmaster = connection.exec_driver_sql(
                "SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'"
            ).scalar_one()
        self.marks: list[tuple[float, float]] = []  # (monotonic, PostgreSQL CPU)

    def _cpu(self) -> float:
        """CPU of PostgreSQL's server processes (the checkpointer's siblings and parent)."""
        parent = int(Path(f"/proc/{self.postmaster}/stat").read_text().rsplit(")", 1)[1]
                     .split()[1])
        children = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
        total = 0.0
        for pid in [parent, *map(int, children)]:
            with contextlib.suppress(OSError):  # a backend that ended in between
                total += cpu_seconds(pid)
        return total

    def start(self) -> None:
        with self.engine.begin() as connection:
            connection.exec_driver_sql("SELECT pg_stat_statements_reset()")
        self.marks.append((time.monotonic(), self._cpu()))

    def end(self) -> list[tuple[str, int, int]]:
        """Every statement run since :meth:`start`: (query, calls, rows)."""
        self.marks.append((time.monotonic(), self._cpu()))
        with self.engine.begin() as connection:
            found = connection.exec_driver_sql(
                "SELECT query, calls, rows FROM pg_stat_statements "
                "WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())"
            ).all()
        self.engine.dispose()
        return [(q, c, r) for q, c, r in found if "pg_stat_statements" not in q]


def statement_kind(query: str) -> str:
    """``INSERT actions``, ``UPDATE leases``, ``SELECT games``, ``BEGIN``…: the verb and the
    table it names first."""
    words = [w.strip('"').lower() for w in query.replace("(", " ").replace(",", " ").split()]
    if not words:
        return "?"
    head = words[0].upper()
    marker = {"INSERT": "into", "UPDATE": "update", "DELETE": "from", "SELECT": "from",
              "WITH": "from"}.get(head)
    if head == "WITH" and "insert" in words:  # the group commit: one statement
        return f"WITH … INSERT {words[words.index('insert') + 2]}"
    if head == "WITH" and "update" in words:  # the lease renewal: one statement
        return f"WITH … UPDATE {words[words.index('update') + 1]}"
    if marker in words:
        return f"{head} {words[words.index(marker) + 1]}"
    return head


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds a client bot waits before its move")
    parser.add_argument("--client-procs", type=int, default=1)
    parser.add_argument("--db", default=None, help="database URL (default: a temporary SQLite)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--servers", type=int, default=1,
                        help="server processes behind HAProxy (PostgreSQL only)")
    parser.add_argument("--proxy", action="store_true",
                        help="put HAProxy in front even of one server")
    parser.add_argument("--lease-seconds", type=float, default=3.0)
    parser.add_argument("--port-base", type=int, default=18300)
    parser.add_argument("--profile", type=Path, default=None,
                        help="record the (first) server with py-spy over the measurement "
                        "window into this file (py-spy's raw collapsed stacks)")
    parser.add_argument("--profile-setup", type=Path, default=None,
                        help="the same from the clients' start until the window (creating "
                        "the tables, the handshakes, the greetings)")
    parser.add_argument("--profile-gil", action="store_true",
                        help="sample only the thread holding the interpreter lock (py-spy "
                        "--gil): the CPU spent in Python, without the idle event loop")
    parser.add_argument("--profile-after", type=Path, default=None,
                        help="the same from the window's end until the clients are done "
                        "(the sockets closing, the final checks)")
    parser.add_argument("--ws", default=None,
                        help="the server's --ws (uvicorn's WebSocket implementation)")
    parser.add_argument("--http", default=None, help="the server's --http (HTTP parser)")
    parser.add_argument("--pg-statements", action="store_true",
                        help="count PostgreSQL's statements over the window "
                        "(pg_stat_statements must be loaded)")
    parser.add_argument("--deflate", action="store_true",
                        help="serve with permessage-deflate (the server's default is without)")
    options = parser.parse_args()

    clustered = options.servers > 1 or options.proxy
    if (clustered or options.pg_statements) and not (options.db or "").startswith(
        "postgresql"
    ):
        parser.error("--servers above 1, --proxy and --pg-statements need --db postgresql://…")
    with tempfile.TemporaryDirectory() as tmp:
        db = options.db or f"sqlite:///{Path(tmp) / 'load.db'}"
        proxy: Proxy | None = None
        if clustered:
            fresh_schema(db)
            ports = list(range(options.port_base, options.port_base + options.servers + 1))
            proxy = Proxy(ports[0], ports[1:], Path(tmp))
            servers = start_servers(db, ports[1:], Path(tmp), options.lease_seconds,
                                    bot_delay=0.0, start_timeout=180.0)
            proxy.start()
            base, ws_base = proxy.base, proxy.ws_base
        else:
            layers = (*(("--ws", options.ws) if options.ws else ()),
                      *(("--http", options.http) if options.http else ()))
            servers = [LiveServer(db, bot_delay=0.0, zombie_grace=600.0,
                                  log_path=Path(tmp) / "server.log", port=options.port_base,
                                  extra=(*LOAD_LIMITS, *layers,
                                         *(("--ws-deflate",) if options.deflate else ())),
                                  ).start()]
            base, ws_base = servers[0].base, servers[0].ws_base
        pids = [s.process.pid for s in servers if s.process is not None]
        found: list[tuple[str, int, int]] = []
        proxy_pid = proxy.process.pid if proxy is not None and proxy.process else None
        proxy_cpu: list[float] = []
        rss_before = sum(rss_mib(pid) for pid in pids)
        cpu_before = sum(cpu_seconds(pid) for pid in pids)
        try:
            statements = Statements(db) if options.pg_statements else None
            procs = max(1, options.client_procs)
            shares = [options.tables // procs + (i < options.tables % procs) for i in range(procs)]
            markers = [Path(tmp) / f"window-{i}" for i in range(len(shares))]
            busy = sum(1 for n in shares if n)
            jobs = [(base, ws_base, n, options.seconds, options.think,
                     options.seed + i, str(markers[i]), busy, tuple(pids))
                    for i, n in enumerate(shares) if n]
            markers = markers[:len(jobs)]
            peak = 0.0
            profilers: list[subprocess.Popen[bytes]] = []

            def record(into: Path | None, duration: float | None) -> subprocess.Popen[bytes]:
                """py-spy on the (first) server, for ``duration`` seconds or until told
                to stop (SIGINT makes it write what it has)."""
                profiler = subprocess.Popen([
                    str(Path(sys.executable).with_name("py-spy")), "record",
                    "--pid", str(pids[0]), "--duration", str(int(duration or 3600)),
                    "--rate", "200", "--format", "raw", "--nonblocking", "-o", str(into),
                    *(("--gil",) if options.profile_gil else ()),
                ], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                profilers.append(profiler)
                return profiler

            setup_profiler = record(options.profile_setup, None) if options.profile_setup \
                else None
            after_profiler: subprocess.Popen[bytes] | None = None
            window_cpu: list[tuple[float, float]] = []  # (monotonic, server CPU) at its ends
            window_switches: list[tuple[float, float, float]] = []  # (system CPU, switches)
            with multiprocessing.Pool(len(jobs)) as pool:
                pending = pool.map_async(client_process, jobs, chunksize=1)
                while not pending.ready():
                    pending.wait(0.1)
                    peak = max(peak, sum(rss_mib(pid) for pid in pids))
                    if not window_cpu and all(m.exists() for m in markers):
                        # every client process is in its window: no set-up work from here
                        window_cpu.append((time.monotonic(),
                                           sum(cpu_seconds(pid) for pid in pids)))
                        window_switches.append(switches(pids))
                        if setup_profiler is not None:
                            setup_profiler.send_signal(signal.SIGINT)
                        if proxy_pid is not None:
                            proxy_cpu.append(cpu_seconds(proxy_pid))
                        if statements is not None:
                            statements.start()
                        if options.profile:
                            record(options.profile, options.seconds * 0.8)
                    if len(window_cpu) == 1 and any(
                        Path(f"{m}.end").exists() for m in markers
                    ):  # the first process left its window
                        window_cpu.append((time.monotonic(),
                                           sum(cpu_seconds(pid) for pid in pids)))
                        window_switches.append(switches(pids))
                        if proxy_pid is not None:
                            proxy_cpu.append(cpu_seconds(proxy_pid))
                        if statements is not None:
                            found = statements.end()
                        if options.profile_after:
                            after_profiler = record(options.profile_after, None)
                results = pending.get()
            if after_profiler is not None:
                after_profiler.send_signal(signal.SIGINT)
            failed = [r["failed"] for r in results if "failed" in r]
            if failed:
                raise RuntimeError(f"a client process failed: {failed[0]}")
            for profiler in profilers:
                profiler.wait(60)
            server_cpu = sum(cpu_seconds(pid) for pid in pids) - cpu_before
            elapsed = max(r["window"] for r in results)
        finally:
            if proxy is not None:
                proxy.stop()
            for server in servers:
                server.stop()
    latencies = sorted(x for r in results for x in r["latencies"])
    # CPU per move while every client process is in its window (no set-up, no final
    # checks): the server's CPU rate then, over the moves' rate (each process's own window)
    in_window_cpu = None
    move_rate = sum(r["moves_in_window"] / r["window"] for r in results)
    per_move: dict[str, Any] = {}
    if len(window_cpu) == 2 and window_cpu[1][0] - window_cpu[0][0] > options.seconds / 2:
        span = window_cpu[1][0] - window_cpu[0][0]
        cpu_rate = (window_cpu[1][1] - window_cpu[0][1]) / span
        in_window_cpu = round(1000 * cpu_rate / move_rate, 3) if move_rate else None
        if len(window_switches) == 2 and move_rate:
            (sys0, vol0, inv0), (sys1, vol1, inv1) = window_switches
            moved = move_rate * span
            per_move["server_system_cpu_share_in_window"] = round(
                (sys1 - sys0) / max(1e-9, window_cpu[1][1] - window_cpu[0][1]), 3)
            per_move["server_waits_per_move_in_window"] = round((vol1 - vol0) / moved, 2)
            per_move["server_preemptions_per_move_in_window"] = round((inv1 - inv0) / moved, 2)
        if len(proxy_cpu) == 2 and move_rate:
            per_move["proxy_cpu_ms_per_move_in_window"] = round(
                1000 * (proxy_cpu[1] - proxy_cpu[0]) / span / move_rate, 3)
        if statements is not None and len(statements.marks) == 2 and move_rate:
            (t0, c0), (t1, c1) = statements.marks
            window_moves = move_rate * (t1 - t0)
            kinds: dict[str, float] = {}
            for query, calls, _rows in found:
                kinds[statement_kind(query)] = kinds.get(statement_kind(query), 0) + calls
            per_move["postgres_cpu_ms_per_move_in_window"] = round(
                1000 * (c1 - c0) / (t1 - t0) / move_rate, 3)
            per_move["statements_per_move_in_window"] = round(
                sum(kinds.values()) / window_moves, 3)
            per_move["statements_per_move_by_kind"] = {
                k: round(n / window_moves, 4)
                for k, n in sorted(kinds.items(), key=lambda item: -item[1])}
    moves = sum(r["moves"] for r in results)
    phases: dict[str, float] = {}  # where the whole run's CPU went: before, in, after
    if len(window_cpu) == 2:
        phases = {
            "server_cpu_s_setup": round(window_cpu[0][1] - cpu_before, 2),
            "server_cpu_s_window": round(window_cpu[1][1] - window_cpu[0][1], 2),
            "server_cpu_s_after": round(cpu_before + server_cpu - window_cpu[1][1], 2),
        }
    errors = [e for r in results for e in r["errors"]]

    def pct(p: float) -> float:
        if not latencies:
            return float("nan")
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000

    report = {
        "tables": options.tables,
        "connections": options.tables * SEATS,
        "think_s": options.think,
        "client_procs": options.client_procs,
        "servers": options.servers,
        "proxy": clustered,
        "deflate": options.deflate,
        "ws": options.ws or "auto",
        "http": options.http or "auto",
        "window_s": round(elapsed, 1),
        "games_finished_in_window": sum(r["finished"] for r in results),
        "connect_all_s": round(max(r["connect_seconds"] for r in results), 1),
        # each client process's steps: [wall seconds, the server's CPU seconds meanwhile]
        "client_steps": [r["steps"] for r in results],
        "moves": moves,
        "moves_per_s": round(moves / elapsed, 1),
        # the moves sent in the clients' windows; the rest were played before (at tables
        # started first, while the others were being started) or in the last half second
        "moves_in_window": sum(r["moves_in_window"] for r in results),
        "latency_samples": len(latencies),
        "p50_ms": round(pct(0.50), 2),
        "p90_ms": round(pct(0.90), 2),
        "p99_ms": round(pct(0.99), 2),
        "max_ms": round(latencies[-1] * 1000, 2) if latencies else None,
        "mean_ms": round(statistics.fmean(latencies) * 1000, 2) if latencies else None,
        "lobby_retries": sum(r["lobby_retries"] for r in results),
        "error_frames": len([e for e in errors if not e.startswith("closed")]),
        "unexpected_closes": sum(r["closes"] for r in results),
        "lost_actions_tables": sum(r["lost"] for r in results),
        "unverified_tables": sum(r["unverified"] for r in results),
        "server_cpu_s": round(server_cpu, 1),
        "server_cpu_ms_per_move": round(1000 * server_cpu / moves, 2) if moves else None,
        "server_cpu_ms_per_move_in_window": in_window_cpu,
        **phases,
        **per_move,
        "server_rss_mib_idle": round(rss_before, 1),
        "server_rss_mib_peak": round(peak, 1),
        "cpus": os.cpu_count(),
    }
    print(json.dumps(report, indent=2))
    if errors:
        print("first errors:", errors[:5], file=sys.stderr)


if __name__ == "__main__":
    main()
