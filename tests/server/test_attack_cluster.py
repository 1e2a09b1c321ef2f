"""Presence and seats by consent in a cluster: two server processes on PostgreSQL behind
HAProxy, every socket and call through the proxy. The table's sockets all reach its owner
(routed by table id), so a crowd of spectators costs a seated player nothing there too, a
player's arrival is told in one presence update, and a freed seat changes hands only when
the host accepts."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from server.conftest import POSTGRES_URL
from server.kb_attack import Sock, leaks
from server.kb_cluster import Proxy, lobby, port_range, start_servers
from server.kb_schema import fresh_schema

pytestmark = [
    pytest.mark.skipif(not POSTGRES_URL, reason="needs KINGSBREAKFAST_TEST_POSTGRES_URL (CI)"),
    pytest.mark.skipif(shutil.which("haproxy") is None,
                       reason="needs haproxy (scripts/ci-services.sh installs it)"),
]


def test_presence_and_consent_through_the_proxy(tmp_path: Path) -> None:
    assert POSTGRES_URL is not None
    url = POSTGRES_URL
    fresh_schema(url)
    ports = port_range()
    proxy = Proxy(ports[0], ports[1:3], tmp_path)
    servers = []
    try:
        servers = start_servers(url, ports[1:3], tmp_path, lease_seconds=2.0, bot_delay=3600)
        proxy.start()
        grant = lobby(proxy.base, "POST", "/api/tables",
                      {"name": "Ann", "seats": 3, "bot_level": "random", "public": False})
        table_id, ann_token = grant["table"]["id"], grant["token"]
        bob_token = lobby(proxy.base, "POST", f"/api/tables/{table_id}/join",
                          {"name": "Bob"})["token"]
        lobby(proxy.base, "POST", f"/api/tables/{table_id}/start", None, ann_token)
        # the record of a running game, asked of every process in turn (HAProxy routes
        # /games/ round-robin): refused by the owner and by the process that is not
        for _ask in range(8):
            status, body = _call(proxy, "GET", f"/games/{table_id}/record", None)
            assert (status, body["error"]["code"]) == (409, "not_over")
            assert "deck" not in json.dumps(body)

        async def main() -> None:
            ann = await Sock.open(proxy, table_id, ann_token)  # type: ignore[arg-type]
            await ann.recv("state")
            crowd = [await Sock.open(proxy, table_id) for _ in range(20)]  # type: ignore[arg-type]
            for sock in crowd:
                assert (await sock.recv("state"))["you"] is None
            bob = await Sock.open(proxy, table_id, bob_token)  # type: ignore[arg-type]
            await bob.recv("state")
            update = await ann.recv("presence")
            assert [s["connected"] for s in update["seats"]] == [True, True, False]
            assert [f["type"] for f in ann.frames[1:]] == ["presence"]  # the crowd: nothing
            await bob.close()
            status, _ = _call(proxy, "POST", f"/api/tables/{table_id}/leave", bob_token)
            assert status == 204
            status, cid = _call(proxy, "POST", f"/api/tables/{table_id}/join", None,
                                {"name": "Cid"})
            assert status == 202 and cid["pending"] is True
            newcomer = await Sock.open(proxy, table_id, cid["token"])  # type: ignore[arg-type]
            assert (await newcomer.recv("state"))["you"] is None
            asked = await ann.recv("seat_request")
            await ann.send({"type": "seat_answer", "seat": asked["seat"], "accept": True})
            mine = await newcomer.recv("state")
            while mine["you"] is None:
                mine = await newcomer.recv("state")
            assert mine["you"] == 1 and "draws" in mine["view"]["hands"][1]
            assert leaks(ann.frames, 0, [bob_token, cid["token"]]) == []
            holders = lobby(proxy.base, "GET", f"/api/tables/{table_id}/holders")
            assert [(h["kind"], h["name"]) for h in holders if h["seat"] == 1] == [
                ("human", "Bob"), ("bot", ""), ("human", "Cid")
            ]
            for sock in [ann, newcomer, *crowd]:
                await sock.close()

        asyncio.run(main())
    finally:
        proxy.stop()
        for server in servers:
            server.stop()


def _call(proxy: Proxy, method: str, path: str, token: str | None,
          body: Any = None) -> tuple[int, Any]:
    """A lobby call through the proxy that keeps the status (``lobby`` raises on errors)."""
    import urllib.error
    import urllib.request

    headers = {"content-type": "application/json"}
    if token:
        headers["x-seat-token"] = token
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(proxy.base + path, data=data, headers=headers,
                                     method=method)
    try:
        with urllib.request.urlopen(request, timeout=20) as reply:
            raw = reply.read()
            return reply.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as error:
        raw = error.read()
        return error.code, json.loads(raw) if raw else None
