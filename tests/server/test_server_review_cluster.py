"""The review and the record through the deployment: HAProxy in front of two server processes
on one PostgreSQL database. ``/api/games/...`` is not routed by table, so any process may be
asked for a game's review; while the game is played, neither the process that holds it nor
the other one serves its review or its record (the guard in ``Master.finished``: the store's
copy of a running game is not over). Once it is over, every process serves the same review."""

from __future__ import annotations

import json
import shutil
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numpy")

from server.conftest import POSTGRES_URL
from server.kb_cluster import Proxy, lobby, owners, port_range, start_servers
from server.kb_schema import fresh_schema
from server.test_server_review_live import finish

pytestmark = [
    pytest.mark.skipif(not POSTGRES_URL, reason="needs KINGSBREAKFAST_TEST_POSTGRES_URL (CI)"),
    pytest.mark.skipif(shutil.which("haproxy") is None,
                       reason="needs haproxy (scripts/ci-services.sh installs it)"),
]


def ask(base: str, path: str) -> tuple[int, Any]:
    """GET ``path`` from ``base``: the status and the body (JSON, else its text), refusals
    included."""
    try:
        with urllib.request.urlopen(base + path, timeout=30) as reply:
            status, raw = reply.status, reply.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, {"error": {"code": raw.decode(errors="replace")[:200]}}


def test_no_process_serves_a_running_game_s_review_and_every_one_the_finished_one(
    tmp_path: Path,
) -> None:
    assert POSTGRES_URL is not None
    fresh_schema(POSTGRES_URL)  # once, before the servers start (they run with --no-migrate)
    ports = port_range()
    proxy = Proxy(ports[0], ports[1:3], tmp_path)
    servers = []
    try:
        servers = start_servers(POSTGRES_URL, ports[1:3], tmp_path, lease_seconds=2.0,
                                bot_delay=0.0)
        proxy.start()
        grant = lobby(proxy.base, "POST", "/api/tables",
                      {"name": "Ann", "seats": 3, "bot_level": "random", "public": False})
        table_id, token = grant["table"]["id"], grant["token"]
        lobby(proxy.base, "POST", f"/api/tables/{table_id}/start", None, token)
        held = owners(POSTGRES_URL)
        assert table_id in held  # one process holds the running game; the other does not
        paths = (f"/api/games/{table_id}/review?seat=1", f"/games/{table_id}/record")
        # seat 0 has not moved: the game is running wherever it is asked
        for base in [server.base for server in servers] + [proxy.base] * 4:
            for path in paths:
                status, body = ask(base, path)
                assert (status, body["error"]["code"]) == (409, "not_over"), (base, path)
        finish(proxy, table_id, token)  # type: ignore[arg-type]  # a proxy has a ws_base too
        reviews = []
        for base in [server.base for server in servers] + [proxy.base]:
            status, review = ask(base, paths[0])
            assert status == 200, (base, review)
            reviews.append(review)
            assert ask(base, paths[1])[0] == 200
        assert all(review == reviews[0] for review in reviews)
        assert reviews[0]["seat"] == 1 and reviews[0]["moves"]
    finally:
        proxy.stop()
        for server in servers:
            server.stop()
