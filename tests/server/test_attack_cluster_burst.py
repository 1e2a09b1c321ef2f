"""A burst of play sockets from one address, all at once, through HAProxy to three server
processes: the servers tell each other their counts only once a second, so the burst lands
on all three before any hears of the others (148 sockets got in against a cap of 64). The
proxy, which every socket passes, counts them itself (scripts/haproxy-config.sh): the burst
gets the cap and at most the proxy's margin over it, however it is spread."""

from __future__ import annotations

import asyncio
import json
import shutil
from contextlib import suppress
from pathlib import Path

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from kingsbreakfast.server.limits import ServerLimits
from server.conftest import POSTGRES_URL
from server.kb_cluster import Proxy, lobby, port_range, start_servers
from server.kb_schema import fresh_schema

pytestmark = [
    pytest.mark.skipif(not POSTGRES_URL, reason="needs KINGSBREAKFAST_TEST_POSTGRES_URL (CI)"),
    pytest.mark.skipif(shutil.which("haproxy") is None,
                       reason="needs haproxy (scripts/ci-services.sh installs it)"),
    pytest.mark.timeout(300, method="thread"),
]
CAP = ServerLimits().sockets_per_address
PROXY_CAP = 80
"""The proxy's own cap per address (``KB_PROXY_SOCKETS_PER_ADDRESS``, 80 by default)."""


def test_a_burst_of_sockets_gets_the_cap_however_it_is_spread(tmp_path: Path) -> None:
    assert POSTGRES_URL is not None
    url = POSTGRES_URL
    fresh_schema(url)
    ports = port_range()
    proxy = Proxy(ports[0], ports[13:16], tmp_path)
    servers = []
    try:
        servers = start_servers(url, ports[13:16], tmp_path, lease_seconds=2.0,
                                bot_delay=3600, limits=())
        proxy.start()
        tables = [lobby(proxy.base, "POST", "/api/tables", {"name": "Ann", "seats": 3})
                  ["table"]["id"] for _ in range(6)]
        alive = asyncio.run(_burst(proxy, tables, 3 * CAP))
        assert CAP <= alive <= PROXY_CAP
    finally:
        proxy.stop()
        for server in servers:
            server.stop()


async def _burst(proxy: Proxy, tables: list[str], count: int) -> int:
    """Open ``count`` spectator sockets over the tables at once; how many were greeted."""
    opened: list[ClientConnection] = []

    async def one(number: int) -> bool:
        try:
            ws = await connect(f"{proxy.ws_base}/ws/tables/{tables[number % len(tables)]}",
                               open_timeout=30, ping_interval=None)
        except InvalidStatus:  # turned away by the proxy (429)
            return False
        opened.append(ws)
        try:
            await ws.send(json.dumps({"type": "hello", "token": None}))
            async with asyncio.timeout(30):
                while True:
                    if json.loads(await ws.recv())["type"] == "state":
                        return True
        except ConnectionClosed:  # turned away by a server (4029)
            return False

    try:
        greeted = await asyncio.gather(*(one(number) for number in range(count)))
    finally:
        for ws in opened:
            with suppress(ConnectionClosed):
                await ws.close()
    return sum(greeted)
