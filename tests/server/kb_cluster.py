"""Several live server processes on one PostgreSQL database behind HAProxy, and client bots
that play through the proxy and reconnect on their own (as the browser client does)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import websockets
from sqlalchemy import create_engine, text

from kingsbreakfast.server.storage import normalize_url
from server.kb_live import LiveServer, free_port

ROOT = Path(__file__).resolve().parents[2]


def port_range() -> list[int]:
    """Ports for a test's servers: ``KINGSBREAKFAST_TEST_PORT_BASE`` + 0, 1, … when set (a
    shared machine hands each engineer a range), else ports the kernel picks."""
    base = os.environ.get("KINGSBREAKFAST_TEST_PORT_BASE")
    if base:
        return list(range(int(base), int(base) + 20))
    return [free_port() for _ in range(20)]


class Proxy:
    """HAProxy with the configuration of scripts/haproxy-config.sh."""

    def __init__(self, port: int, backends: list[int], folder: Path) -> None:
        self.port = port
        config = subprocess.run(
            ["bash", str(ROOT / "scripts" / "haproxy-config.sh"), f"127.0.0.1:{port}",
             *[f"127.0.0.1:{b}" for b in backends]],
            check=True, capture_output=True, text=True,
        ).stdout
        # a stats socket, so that ``start`` can wait until the checks find every server up
        self.stats = folder / "haproxy.sock"
        config = config.replace("global\n", f"global\n    stats socket {self.stats}\n", 1)
        self.backends = len(backends)
        self.config = folder / "haproxy.cfg"
        self.config.write_text(config)
        self.log = folder / "haproxy.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20.0) -> Proxy:
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(["haproxy", "-db", "-f", str(self.config)],
                                            stdout=log, stderr=log)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"haproxy exited: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.base + "/api/tables", timeout=2):
                    pass
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.1)
                continue
            # The proxy answers once one server passes its checks; until the others do, the
            # hash ring has only that one, and every table opened meanwhile lands on it.
            if self.servers_up() == self.backends:
                return self
            time.sleep(0.1)
        raise RuntimeError(f"the proxy did not come up with all {self.backends} servers "
                           f"(up: {self.servers_up()})")

    def servers_up(self) -> int:
        """How many servers the proxy's checks find up (in the per-table backend)."""
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as stats:
                stats.settimeout(2)
                stats.connect(str(self.stats))
                stats.sendall(b"show stat\n")
                answer = b""
                while chunk := stats.recv(65536):
                    answer += chunk
        except OSError:
            return 0
        lines = answer.decode().splitlines()
        if not lines or not lines[0].startswith("# "):
            return 0
        header = lines[0][2:].split(",")
        proxy, name, status = (header.index(k) for k in ("pxname", "svname", "status"))
        rows = [line.split(",") for line in lines[1:] if line]
        return sum(1 for row in rows if row[proxy] == "by_table"
                   and row[name] not in ("FRONTEND", "BACKEND") and row[status] == "UP")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


@contextmanager
def cluster(url: str, folder: Path, lease_seconds: float = 2.0, bot_delay: float = 0.3,
            extra: tuple[str, ...] = ()) -> Iterator[tuple[Proxy, list[LiveServer]]]:
    """An empty database migrated, three server processes on it and HAProxy before them (the
    deployment docs/deploy.md recommends), all stopped at the end (a test that froze one
    with SIGSTOP wakes it first, or it is killed after its grace)."""
    from server.kb_schema import fresh_schema

    fresh_schema(url)
    ports = port_range()
    proxy = Proxy(ports[0], ports[10:13], folder)
    servers: list[LiveServer] = []
    try:
        servers = start_servers(url, ports[10:13], folder, lease_seconds=lease_seconds,
                                bot_delay=bot_delay, limits=(*LOAD_LIMITS, *extra))
        proxy.start()
        yield proxy, servers
    finally:
        proxy.stop()
        for server in servers:
            server.stop()


LOAD_LIMITS = ("--sockets-per-address", "100000", "--tables-per-minute", "1000000")
"""Every client of a load test comes from loopback: the per-address bounds would stop it."""


def start_servers(url: str, ports: list[int], folder: Path, lease_seconds: float,
                  bot_delay: float = 0.05,
                  limits: tuple[str, ...] = LOAD_LIMITS,
                  start_timeout: float = 30.0) -> list[LiveServer]:
    servers = []
    for number, port in enumerate(ports):
        servers.append(LiveServer(
            url, bot_delay=bot_delay, zombie_grace=600.0, port=port,
            log_path=folder / f"server{number}.log",
            extra=("--lease-seconds", str(lease_seconds), "--no-migrate", *limits),
        ))
    for port in ports:  # a server left over from elsewhere would answer in ours' place
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                raise RuntimeError(f"port {port} is already taken")
    try:
        for server in servers:
            server.start(start_timeout)
    except BaseException:
        for server in servers:
            server.stop()
        raise
    return servers


def lobby(base: str, method: str, path: str, body: Any = None,
          token: str | None = None, attempts: int = 40) -> Any:
    """A lobby call through the proxy, retried while a server is being replaced (503)."""
    headers = {"content-type": "application/json"}
    if token:
        headers["x-seat-token"] = token
    data = None if body is None else json.dumps(body).encode()
    for _attempt in range(attempts):
        request = urllib.request.Request(base + path, data=data, headers=headers,
                                         method=method)
        try:
            with urllib.request.urlopen(request, timeout=15) as reply:
                raw = reply.read()
                return json.loads(raw) if raw else None
        except urllib.error.HTTPError as error:
            if error.code not in (502, 503, 504):
                raise
        except (urllib.error.URLError, ConnectionError, OSError):
            pass
        time.sleep(0.25)
    raise AssertionError(f"{method} {path} kept failing")


class Player:
    """One seat's client bot: plays a random legal move on its turn, reconnects on its own
    whenever its socket closes, and remembers every state it was sent."""

    def __init__(self, ws_base: str, table_id: str, seat: int | None, token: str | None,
                 rng: random.Random) -> None:
        self.url = f"{ws_base}/ws/tables/{table_id}"
        self.seat = seat
        self.token = token
        self.rng = rng
        self.version = -1
        self.history: list[Any] = []
        self.over = False
        self.reconnects = 0
        self.errors: list[str] = []
        self.moved_at: float | None = None
        """When the last state this seat saw arrived (monotonic)."""
        self.versions: list[int] = []
        """The version of every state frame received, in order (across reconnects)."""
        self.acted: list[int] = []
        """The version of every state this seat sent a move for (resent after a reconnect)."""

    async def play(self, think: float = 0.0) -> None:
        backoff = 0.05
        while not self.over:
            try:
                async with websockets.connect(self.url, open_timeout=15,
                                              ping_interval=None) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": self.token}))
                    acted = -1  # a move sent before a reconnect may be lost: send it again
                    async for text in ws:
                        frame = json.loads(text)
                        if frame["type"] == "error":
                            self.errors.append(frame["code"])
                            continue
                        if frame["type"] != "state" or frame["view"] is None:
                            continue
                        backoff = 0.05
                        view = frame["view"]
                        self.versions.append(frame["version"])
                        if frame["version"] >= self.version:
                            self.version = frame["version"]
                            self.history = view["history"]
                            self.moved_at = time.monotonic()
                        if view["to_move"] is None:
                            self.over = True
                            return
                        if view["to_move"] == self.seat and frame["version"] > acted:
                            acted = frame["version"]
                            self.acted.append(acted)
                            if think:
                                await asyncio.sleep(think * (0.5 + self.rng.random()))
                            words = self.rng.choice(view["legal"]).split()
                            action: dict[str, Any] = {"type": words[0]}
                            if words[0] == "take":
                                action["dish"] = words[1]
                            elif words[0] == "feed":
                                action["dishes"] = words[1:]
                            await ws.send(json.dumps(
                                {"type": "act", "version": frame["version"], "action": action}
                            ))
            except (websockets.ConnectionClosed, OSError, TimeoutError,
                    websockets.InvalidStatus, websockets.InvalidHandshake):
                pass
            if not self.over:
                self.reconnects += 1
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 1.0)


def owners(url: str) -> dict[str, int]:
    """Table → pid of the process holding its lease (the owner name carries the pid)."""
    engine = create_engine(normalize_url(url))
    with engine.begin() as connection:
        rows = connection.execute(
            text("SELECT game_id, owner FROM leases WHERE owner IS NOT NULL")
        ).all()
    engine.dispose()
    return {game: int(owner.split(":")[1]) for game, owner in rows}
