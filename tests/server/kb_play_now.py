"""Play now against a real site: one server on SQLite, one on PostgreSQL, or three processes
on PostgreSQL behind HAProxy; and players that behave like browsers (a cookie jar each, a
loopback address of their own, the table's socket opened after the answer).

Each player calls from its own loopback address (127.0.0.N): the per-address bounds then
count each player alone, as they would count people on the internet, and a test that wants
one address to ask many times says so."""

from __future__ import annotations

import asyncio
import http.client
import itertools
import json
import os
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from server.kb_cluster import Proxy, port_range, start_servers
from server.kb_live import LiveServer
from server.kb_schema import empty_database, fresh_schema

WAIT = 6.0
"""The sites' play-now wait in these tests (seconds)."""
ARRIVAL = 5.0
"""How long a reserved seat waits for its socket."""
TIMEOUT = 30.0
_addresses = itertools.count(2)


def new_address() -> str:
    """A loopback address nobody in this run used yet."""
    n = next(_addresses)
    return f"127.0.{n // 250}.{n % 250 + 2}"


@dataclass
class Site:
    """Where the players go: one address and port for HTTP and sockets."""

    port: int
    kind: str
    stop: Callable[[], None]
    base_path: Path

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


@contextmanager
def play_now_env() -> Iterator[None]:
    """The server processes started inside read the short wait."""
    saved = {k: os.environ.get(k) for k in ("KINGSBREAKFAST_PLAY_NOW_WAIT",
                                            "KINGSBREAKFAST_PLAY_NOW_ARRIVAL")}
    os.environ["KINGSBREAKFAST_PLAY_NOW_WAIT"] = str(WAIT)
    os.environ["KINGSBREAKFAST_PLAY_NOW_ARRIVAL"] = str(ARRIVAL)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def start_site(kind: str, folder: Path, postgres: str | None,
               extra: tuple[str, ...] = ()) -> Site:
    """A live site of ``kind`` (``sqlite``, ``postgresql`` or ``cluster``)."""
    with play_now_env():
        if kind in ("sqlite", "postgresql"):
            url = (f"sqlite:///{folder / 'games.db'}" if kind == "sqlite"
                   else empty_database(postgres or ""))
            live = LiveServer(url, bot_delay=3600, zombie_grace=600, log_path=folder / "s.log",
                              extra=("--log-level", "info", *extra)).start()
            return Site(live.port, kind, live.stop, folder)
        assert postgres is not None and shutil.which("haproxy") is not None
        fresh_schema(postgres)
        ports = port_range()
        proxy = Proxy(ports[0], ports[1:4], folder)
        servers = start_servers(postgres, ports[1:4], folder, lease_seconds=2.0,
                                bot_delay=3600, limits=extra)
        try:
            proxy.start()
        except BaseException:
            for server in servers:
                server.stop()
            raise

        def stop() -> None:
            proxy.stop()
            for server in servers:
                server.stop()

        return Site(proxy.port, kind, stop, folder)


@dataclass
class Player:
    """One browser: a cookie jar, an address, and the table's socket once it has one."""

    site: Site
    address: str = field(default_factory=new_address)
    jar: dict[str, str] = field(default_factory=dict)
    sock: ClientConnection | None = None
    frames: list[dict[str, Any]] = field(default_factory=list)

    def call(self, method: str, path: str, body: Any = None,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
        connection = http.client.HTTPConnection(
            "127.0.0.1", self.site.port, timeout=TIMEOUT, source_address=(self.address, 0)
        )
        sent = {"content-type": "application/json", **(headers or {})}
        if self.jar:
            sent["cookie"] = "; ".join(f"{k}={v}" for k, v in self.jar.items())
        if method != "GET" and "kb_csrf" in self.jar:
            sent["x-csrf-token"] = self.jar["kb_csrf"]
        try:
            connection.request(method, path, None if body is None else json.dumps(body), sent)
            reply = connection.getresponse()
            raw = reply.read()
            for name, value in reply.getheaders():
                if name.lower() == "set-cookie":
                    self._keep(value)
            return reply.status, json.loads(raw) if raw else None
        finally:
            connection.close()

    def _keep(self, header: str) -> None:
        pair, *attributes = [part.strip() for part in header.split(";")]
        name, _, value = pair.partition("=")
        if any(a.lower() in ("max-age=0",) for a in attributes) or not value.strip('"'):
            self.jar.pop(name, None)
        else:
            self.jar[name] = value.strip('"')

    def play_now(self, name: str, seats: int = 3, speed: str = "live") -> tuple[int, Any]:
        return self.call("POST", "/api/play-now", {"name": name, "seats": seats,
                                                   "speed": speed})

    def register(self, name: str) -> None:
        self.call("GET", "/api/account")
        status, body = self.call("POST", "/api/account/register",
                                 {"name": name, "password": "correct horse battery"})
        assert status == 201, body

    async def sit(self, table_id: str) -> None:
        """Open the table's socket as the page does: the hello takes the cookies' seat."""
        cookie = "; ".join(f"{k}={v}" for k, v in self.jar.items())
        self.sock = await connect(
            f"{self.site.ws_base}/ws/tables/{table_id}", open_timeout=TIMEOUT,
            additional_headers={"Cookie": cookie} if cookie else None,
            local_addr=(self.address, 0), ping_interval=None,
        )
        await self.sock.send(json.dumps({"type": "hello", "cookie": True}))

    async def state(self, until: Callable[[dict[str, Any]], bool],
                    timeout: float = TIMEOUT) -> dict[str, Any]:
        """The first state frame (from the newest seen on) that satisfies ``until``."""
        for seen in reversed(self.frames):
            if seen["type"] == "state":
                if until(seen):
                    return seen
                break
        assert self.sock is not None
        async with asyncio.timeout(timeout):
            while True:
                frame: dict[str, Any] = json.loads(await self.sock.recv())
                self.frames.append(frame)
                if frame["type"] == "state" and until(frame):
                    return frame

    async def close(self) -> None:
        if self.sock is not None:
            with suppress(ConnectionClosed, OSError):
                await self.sock.close()


def dealt(frame: dict[str, Any]) -> bool:
    return bool(frame["table"]["status"] != "lobby")


def poll(check: Callable[[], Any], timeout: float = TIMEOUT, what: str = "") -> Any:
    """``check()`` until it answers something true, or fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        answer = check()
        if answer:
            return answer
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.05)
