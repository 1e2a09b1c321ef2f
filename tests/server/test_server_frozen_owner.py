"""A table's owner frozen (SIGSTOP) mid-game, in the deployment: PostgreSQL, HAProxy and three
server processes on loopback. The frozen process keeps its sockets open and silent; the
player's client, heartbeating as the browser does, notices, reconnects through the proxy to
the process that took the table over, and plays on in its own seat: no move of its seat is
played for it by a bot (the table has a 5 s turn clock, so a player counted as gone while
reconnecting would lose a turn to the clock)."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import signal
import time
from pathlib import Path

import pytest

from server.conftest import POSTGRES_URL
from server.kb_cluster import Proxy, lobby, owners, port_range, start_servers
from server.kb_heartbeat import HeartbeatSeat
from server.kb_schema import fresh_schema

pytestmark = [
    pytest.mark.skipif(not POSTGRES_URL, reason="needs KINGSBREAKFAST_TEST_POSTGRES_URL (CI)"),
    pytest.mark.skipif(shutil.which("haproxy") is None,
                       reason="needs haproxy (scripts/ci-services.sh installs it)"),
    pytest.mark.timeout(300, method="thread"),
]


def test_a_frozen_owners_player_notices_reconnects_and_keeps_the_seat(tmp_path: Path) -> None:
    assert POSTGRES_URL is not None
    url = POSTGRES_URL
    fresh_schema(url)
    ports = port_range()
    proxy = Proxy(ports[0], ports[10:13], tmp_path)
    servers = []
    frozen: list[int] = []
    try:
        servers = start_servers(url, ports[10:13], tmp_path, lease_seconds=2.0, bot_delay=0.3)
        proxy.start()
        grant = lobby(proxy.base, "POST", "/api/tables",
                      {"name": "Ann", "seats": 3, "bot_level": "random", "public": False,
                       "clock_seconds": 5})
        table_id = grant["table"]["id"]
        lobby(proxy.base, "POST", f"/api/tables/{table_id}/start", None, grant["token"])
        ann = HeartbeatSeat(proxy.ws_base, table_id, 0, grant["token"], random.Random(3),
                            think=0.2)

        async def play() -> tuple[float, int]:
            game = asyncio.ensure_future(ann.play())
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 60
            while ann.version < 3:
                assert loop.time() < deadline, "the game did not get going"
                assert not game.done()
                await asyncio.sleep(0.05)
            owner = owners(url)[table_id]
            os.kill(owner, signal.SIGSTOP)
            frozen.append(owner)
            at, version = time.monotonic(), ann.version
            try:
                await asyncio.wait_for(game, timeout=180)
            except TimeoutError:
                raise AssertionError(
                    f"the game stalled: version {ann.version}, lost {len(ann.lost)}"
                ) from None
            return at, version

        frozen_at, frozen_version = asyncio.run(play())
        # noticed: the socket on the frozen process was given up (silent) or closed
        assert [t for t in ann.lost + ann.given_up if t > frozen_at]
        # and the game went on past where the frozen process had it: another process
        # served it, through the proxy, to the same seat
        later = [frame for t, frame in ann.states_after if t > frozen_at]
        assert later and max(f["version"] for f in later) > frozen_version
        assert all(f["you"] == 0 for f in later)
        assert all(f["table"]["seats"][0]["kind"] == "human" for f in later)
        assert ann.over
        # every move of the seat was the player's own: nobody counted it as gone
        assert ann.played_for_me() == []
        record = lobby(proxy.base, "GET", f"/games/{table_id}/record")
        assert len(record["actions"]) == ann.version
        assert owners(url).get(table_id) not in frozen
    finally:
        for pid in frozen:
            os.kill(pid, signal.SIGCONT)
        proxy.stop()
        for server in servers:
            server.stop()
