"""A real server process on a free loopback port, started through ``kingsbreakfast serve``.

Used by the crash test, the browser tests and the load benchmark: each needs the server as a
separate process it can talk to over real sockets (and kill).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

_RUNNER = """
import sys, typer
from kingsbreakfast.cli.serve_commands import register
app = typer.Typer()
@app.callback()
def _root() -> None: pass
register(app)
app(sys.argv[1:])
"""


PORTS_PER_WORKER = 1500
FIRST_PORT = 20000
"""Under pytest-xdist each worker takes its servers' ports from a range of its own, below
the kernel's ephemeral ports: two workers asking the kernel for a free port at once could be
told the same one, and a test would then talk to the other worker's server."""
_next_port: list[int] = []


def free_port() -> int:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw") or not worker[2:].isdigit():
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.bind(("127.0.0.1", 0))
            return int(sock.getsockname()[1])
    first = FIRST_PORT + int(worker[2:]) * PORTS_PER_WORKER
    if not _next_port:
        _next_port.append(first)
    for _ in range(PORTS_PER_WORKER):  # round the range, never the port just handed out
        port = _next_port[0]
        _next_port[0] = first + (port + 1 - first) % PORTS_PER_WORKER
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port between {first} and {first + PORTS_PER_WORKER - 1}")


class LiveServer:
    def __init__(
        self, db_url: str, *, bot_delay: float = 0.0, zombie_grace: float = 30.0,
        log_path: Path | None = None, port: int | None = None,
        extra: tuple[str, ...] = (),
    ) -> None:
        self.extra = extra
        self.db_url = db_url
        self.bot_delay = bot_delay
        self.zombie_grace = zombie_grace
        self.port = port or free_port()
        self.log_path = log_path
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 90.0) -> LiveServer:
        log = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        self.process = subprocess.Popen(
            [
                sys.executable, "-c", _RUNNER, "serve", "--host", "127.0.0.1",
                "--port", str(self.port), "--db", self.db_url,
                "--bot-delay", str(self.bot_delay), "--zombie-grace", str(self.zombie_grace),
                "--log-level", "warning", *self.extra,
            ],
            stdout=log, stderr=log, env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited with {self.process.returncode}")
            try:
                self.get("/api/tables")
                return self
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.1)
        raise RuntimeError("server did not come up")

    def kill9(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        headers = {"content-type": "application/json"}
        if token:
            headers["x-seat-token"] = token
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=10) as reply:
                raw = reply.read()
                return reply.status, json.loads(raw) if raw else None
        except urllib.error.HTTPError as error:
            raw = error.read()
            return error.code, json.loads(raw) if raw else None

    def get(self, path: str) -> Any:
        status, body = self.request("GET", path)
        if status != 200:
            raise urllib.error.URLError(f"{status}")
        return body
