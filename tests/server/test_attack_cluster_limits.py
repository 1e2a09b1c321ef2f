"""Limits per address hold across workers: three server processes on one PostgreSQL behind
HAProxy, one client address hammering them through the proxy. Tables opened, failed
log-ins, registrations and play sockets are counted by all the processes together
(server/shared_counts.py), so no limit multiplies by the number of workers."""

from __future__ import annotations

import asyncio
import json
import shutil
import urllib.error
import urllib.request
from contextlib import suppress
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from kingsbreakfast.server.accounts import ADDRESS_FAILURES
from kingsbreakfast.server.limits import ServerLimits
from kingsbreakfast.server.storage import normalize_url
from server.conftest import POSTGRES_URL
from server.kb_browser import Browser
from server.kb_cluster import Proxy, port_range, start_servers
from server.kb_schema import fresh_schema

pytestmark = [
    pytest.mark.skipif(not POSTGRES_URL, reason="needs KINGSBREAKFAST_TEST_POSTGRES_URL (CI)"),
    pytest.mark.skipif(shutil.which("haproxy") is None,
                       reason="needs haproxy (scripts/ci-services.sh installs it)"),
    pytest.mark.timeout(300, method="thread"),
]
LIMITS = ServerLimits()


def post(proxy: Proxy, path: str, body: Any) -> tuple[int, Any]:
    request = urllib.request.Request(
        proxy.base + path, data=json.dumps(body).encode(), method="POST",
        headers={"content-type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=20) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def test_one_address_gets_one_sites_limits_however_many_workers(tmp_path: Path) -> None:
    assert POSTGRES_URL is not None
    url = POSTGRES_URL
    fresh_schema(url)
    ports = port_range()
    proxy = Proxy(ports[0], ports[4:7], tmp_path)
    servers = []
    try:
        servers = start_servers(url, ports[4:7], tmp_path, lease_seconds=2.0,
                                bot_delay=3600, limits=())
        proxy.start()
        # tables: the burst, not three bursts
        made = [post(proxy, "/api/tables", {"name": "Ann", "seats": 3})
                for _ in range(3 * int(LIMITS.tables_burst))]
        tables = [body["table"]["id"] for status, body in made if status == 201]
        assert len(tables) == LIMITS.tables_burst
        assert {body["error"]["code"] for status, body in made if status != 201} == {
            "too_many_tables"
        }
        # failed log-ins: one window for the site (the proxy sends them round-robin)
        codes = [_login(proxy, f"nobody {n}") for n in range(3 * ADDRESS_FAILURES)]
        assert codes.count(401) == ADDRESS_FAILURES and set(codes) == {401, 429}
        # registrations: the hour's first three need no proof of work from one address,
        # whichever worker answers; the next ones do (server/proof.py)
        made_accounts = [_register(proxy, f"Crowd {n}") for n in range(9)]
        assert made_accounts.count(201) == LIMITS.registrations_without_proof
        assert set(made_accounts) == {201, 428}
        # sockets: the cap counts every worker's sockets (told between workers each second)
        opened = asyncio.run(_open_sockets(proxy, tables, 3 * LIMITS.sockets_per_address,
                                           url))  # fmt: skip
        assert LIMITS.sockets_per_address <= opened <= LIMITS.sockets_per_address + 16
    finally:
        proxy.stop()
        for server in servers:
            server.stop()


def _login(proxy: Proxy, name: str) -> int:
    browser = Browser(proxy, "127.0.0.1")  # type: ignore[arg-type]
    return browser.login(name, "a wrong password")[0]


def _register(proxy: Proxy, name: str) -> int:
    """A registration without a proof of work."""
    browser = Browser(proxy, "127.0.0.1")  # type: ignore[arg-type]
    browser.page()
    return browser.call("POST", "/api/account/register",
                        {"name": name, "password": "correct horse battery"})[0]


async def _open_sockets(proxy: Proxy, tables: list[str], count: int, url: str) -> int:
    """Open ``count`` spectator sockets over the tables, 16 at a time, each batch told to
    every worker before the next (so the cap may be passed by one batch, the round the
    workers' counts lag by, as server/shared_counts.py says); how many stay open."""
    engine = create_engine(normalize_url(url))
    held = []
    try:
        for number in range(count):
            ws = await connect(f"{proxy.ws_base}/ws/tables/{tables[number % len(tables)]}",
                               open_timeout=20, ping_interval=None)
            held.append(ws)
            with suppress(ConnectionClosed):  # turned away at once (4029): counted as closed
                await ws.send(json.dumps({"type": "hello", "token": None}))
            if number % 16 == 15:
                await _told_to_every_worker(engine)
    finally:
        engine.dispose()
    alive = 0
    for ws in held:
        try:  # every socket answers: a state frame if let in, a close if turned away
            async with asyncio.timeout(30):
                while True:
                    frame = json.loads(await ws.recv())
                    if frame["type"] == "state":
                        alive += 1
                        break
        except ConnectionClosed:
            pass
    for ws in held:
        await ws.close()
    return alive


async def _told_to_every_worker(engine: Engine) -> None:
    """Wait until every worker has renewed its lease twice: the first renewal publishes
    the sockets it holds, the second reads what the others published after theirs."""

    def renewals() -> dict[str, float]:
        with engine.begin() as connection:
            rows = connection.execute(text("SELECT name, expires_at FROM server_processes"))
            return {name: float(expires) for name, expires in rows}

    last = renewals()
    seen = dict.fromkeys(last, 0)
    async with asyncio.timeout(60):  # a worker that stopped renewing fails the test here
        while min(seen.values()) < 2:
            await asyncio.sleep(0.05)  # polling the rows, not waiting in place of them
            now = renewals()
            for name in seen:
                if now.get(name) != last[name]:
                    seen[name] += 1
            last = {name: now.get(name, last[name]) for name in last}
