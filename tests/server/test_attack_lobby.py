"""Attacks on the lobby and the files, against a real ``kingsbreakfast serve`` on loopback:
made-up language codes, oversized bodies (announced or streamed), tables opened in a loop,
names that pass for bots or hide control and bidi characters, script and SQL in names,
encoded path traversal; and what an operator sees meanwhile (health, readiness, metrics, the
server's own log without a token in it, an owner-only database file, a favicon)."""

from __future__ import annotations

import http.client
import json
import os
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.kb_live import LiveServer


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("attack-lobby")


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[LiveServer]:
    live = LiveServer(
        f"sqlite:///{folder / 'games.db'}", log_path=folder / "server.log",
        extra=("--log-level", "info", "--tables-per-minute", "600"),
    ).start()
    yield live
    live.stop()


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server with a slow bucket and a short lobby expiry."""
    folder = tmp_path_factory.mktemp("attack-lobby-strict")
    live = LiveServer(
        f"sqlite:///{folder / 'games.db'}",
        extra=("--tables-per-minute", "6", "--lobby-expiry", "1.2"),
    ).start()
    yield live
    live.stop()


def raw(server: LiveServer, method: str, path: str, body: bytes | None = None,
        headers: dict[str, str] | None = None, chunks: list[bytes] | None = None,
        ) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
    try:
        if chunks is not None:
            connection.putrequest(method, path)
            for name, value in (headers or {}).items():
                connection.putheader(name, value)
            connection.putheader("Transfer-Encoding", "chunked")
            connection.endheaders()
            try:
                for chunk in chunks:
                    connection.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                connection.send(b"0\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                pass  # refused before the end: the answer is already there
        else:
            connection.request(method, path, body=body, headers=headers or {})
        reply = connection.getresponse()
        return reply.status, dict(reply.getheaders()), reply.read()
    finally:
        connection.close()


def code_of(body: Any) -> str:
    return str(body["error"]["code"])


def test_made_up_language_codes_are_normalised_before_any_cache(server: LiveServer) -> None:
    german = server.get("/api/strings/de")
    for n in range(300):
        assert server.get(f"/api/strings/de_{n}") == german
    status, body = server.request("GET", "/api/strings/xx_1")
    assert (status, code_of(body)) == (404, "unknown_language")
    status, body = server.request("GET", "/api/rules/" + "q" * 500)
    assert (status, code_of(body)) == (404, "unknown_language")


def test_oversized_bodies_are_refused_before_they_are_read(server: LiveServer) -> None:
    big = json.dumps({"name": "x" * 200_000}).encode()
    status, _, body = raw(server, "POST", "/api/tables", big,
                          {"content-type": "application/json"})
    assert status == 413 and json.loads(body)["error"]["code"] == "body_too_large"
    status, _, body = raw(server, "POST", "/api/tables", headers={
        "content-type": "application/json"}, chunks=[b"{" + b" " * 8192] * 8)
    assert status == 413 and json.loads(body)["error"]["code"] == "body_too_large"
    assert server.get("/healthz") == {"status": "ok"}


def test_tables_are_opened_a_few_at_a_time_per_address(strict: LiveServer) -> None:
    server = strict
    opened = refused = 0
    last: Any = None
    for number in range(30):
        status, last = server.request("POST", "/api/tables", {"name": f"Host {number}"})
        if status == 201:
            opened += 1
        else:
            assert (status, code_of(last)) == (429, "too_many_tables")
            refused += 1
    assert opened == 10 and refused == 20  # the burst, then nothing until the bucket fills
    assert last["error"]["params"]["per_minute"] == 6.0


def test_the_lobby_list_is_paged_and_idle_tables_expire(strict: LiveServer) -> None:
    server = strict
    status, _, body = raw(server, "GET", "/api/tables?limit=3")
    assert status == 200 and len(json.loads(body)) <= 3
    status, _, body = raw(server, "GET", "/api/tables?limit=1000")
    assert status == 422
    # the tables opened above had nobody at them: they expire (1.2 s here)
    deadline = time.monotonic() + 20
    while server.get("/api/tables") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert server.get("/api/tables") == []
    status, headers, _ = raw(server, "GET", "/api/tables")
    assert headers["x-total-count"] == "0"


NAMES = {
    "a bot's name": ("Bot 3 (easy)", "reserved_name"),
    "in full width": ("ＢＯＴ 2", "reserved_name"),
    "a level in brackets": ("Ann (expert)", "reserved_name"),
    "a bidi override": ("Ann\u202egnp.exe", "bad_name"),
    "a control character": ("Ann\x07", "bad_name"),
    "too long": ("A" * 33, "bad_name"),
}


@pytest.mark.parametrize(("name", "code"), NAMES.values(), ids=NAMES.keys())
def test_names_that_deceive_are_refused(server: LiveServer, name: str, code: str) -> None:
    status, body = server.request("POST", "/api/tables", {"name": name})
    assert (status, code_of(body)) == (422, code)


def test_script_and_sql_in_names_are_kept_as_text(server: LiveServer, folder: Path) -> None:
    hostile = ["<script>alert(1)</script>", "'; DROP TABLE games; --"]
    tables = []
    for name in hostile:
        status, grant = server.request("POST", "/api/tables", {"name": name})
        assert status == 201
        tables.append(grant["table"]["id"])
        assert grant["table"]["seats"][0]["name"] == name
    _, headers, page = raw(server, "GET", "/")
    assert b"<script>alert" not in page and "text/html" in headers["content-type"]
    for table_id, name in zip(tables, hostile, strict=True):
        assert server.get(f"/api/tables/{table_id}")["seats"][0]["name"] == name


TRAVERSALS = [
    "/static/../pyproject.toml",
    "/static/%2e%2e/%2e%2e/pyproject.toml",
    "/static/..%2f..%2f..%2fetc%2fpasswd",
    "/static/%252e%252e/%252e%252e/etc/passwd",
    "/static/....//....//etc/passwd",
]


@pytest.mark.parametrize("path", TRAVERSALS)
def test_encoded_path_traversal_finds_nothing(server: LiveServer, path: str) -> None:
    status, _, body = raw(server, "GET", path)
    assert status == 404 and b"root:" not in body and b"[project]" not in body


def test_what_the_operator_sees(server: LiveServer, folder: Path) -> None:
    assert server.get("/healthz") == {"status": "ok"}
    big = json.dumps({"name": "x" * 200_000}).encode()  # a refusal for the counters to show
    status, _, _body = raw(server, "POST", "/api/tables", big,
                           {"content-type": "application/json"})
    assert status == 413
    assert server.get("/readyz") == {"status": "ready"}
    status, headers, icon = raw(server, "GET", "/favicon.ico")
    assert status == 200 and icon.startswith(b"<svg") and "svg" in headers["content-type"]
    status, _, text = raw(server, "GET", "/metrics")
    metrics = text.decode()
    assert status == 200
    for name in ("kingsbreakfast_tables", "kingsbreakfast_sockets",
                 "kingsbreakfast_moves_total", "kingsbreakfast_commit_seconds_bucket",
                 'kingsbreakfast_refusals_total{code="body_too_large"}'):
        assert name in metrics
    database = folder / "games.db"
    for path in (database, Path(f"{database}-wal")):
        if path.exists():
            assert stat.S_IMODE(os.stat(path).st_mode) == 0o600, path
    assert database.exists()


def test_the_log_tells_events_and_never_a_token(server: LiveServer, folder: Path) -> None:
    status, grant = server.request("POST", "/api/tables", {"name": "Logged"})
    assert status == 201
    table_id, token = grant["table"]["id"], grant["token"]
    deadline = time.monotonic() + 20
    log = ""
    while f"table {table_id} created" not in log and time.monotonic() < deadline:
        time.sleep(0.05)
        log = (folder / "server.log").read_text()
    assert f"table {table_id} created" in log
    assert " INFO kingsbreakfast.server: " in log
    assert token not in log
