"""The deployment, tested: PostgreSQL, HAProxy and three server processes on loopback. Full
games are played through the proxy with tables spread over the processes; the process that
owns a running table is killed with SIGKILL, another takes the table over from the database,
the clients reconnect on their own, and every game finishes with every acknowledged move."""

from __future__ import annotations

import asyncio
import random
import shutil
from pathlib import Path

import pytest

from server.conftest import POSTGRES_URL
from server.kb_cluster import Player, Proxy, lobby, owners, port_range, start_servers
from server.kb_schema import fresh_schema

pytestmark = [
    pytest.mark.skipif(not POSTGRES_URL, reason="needs KINGSBREAKFAST_TEST_POSTGRES_URL (CI)"),
    pytest.mark.skipif(shutil.which("haproxy") is None,
                       reason="needs haproxy (scripts/ci-services.sh installs it)"),
]

TABLES = 6
SEATS = 3


def test_games_through_the_proxy_survive_killing_a_tables_owner(tmp_path: Path) -> None:
    assert POSTGRES_URL is not None
    url = POSTGRES_URL
    fresh_schema(url)  # once, before the servers start (they run with --no-migrate)
    ports = port_range()
    servers = []
    proxy = Proxy(ports[0], ports[1:4], tmp_path)
    try:
        servers = start_servers(url, ports[1:4], tmp_path, lease_seconds=2.0)
        proxy.start()
        # The proxy's hash ring (over the processes its checks have found up so far) places
        # each table by its random id, so a handful of tables can all land on one process:
        # tables are opened until two processes hold some, so that a kill leaves survivors.
        grants: list[tuple[str, list[str]]] = []
        while len(grants) < TABLES or len(set(owners(url).values())) < 2:
            assert len(grants) < 4 * TABLES, f"every table sits on one process: {owners(url)}"
            grant = lobby(proxy.base, "POST", "/api/tables",
                          {"name": f"host{len(grants)}", "seats": SEATS, "bot_level": "random",
                           "public": False})
            tokens = [grant["token"]]
            table_id = grant["table"]["id"]
            for seat in range(1, SEATS):
                tokens.append(lobby(proxy.base, "POST", f"/api/tables/{table_id}/join",
                                    {"name": f"p{seat}"})["token"])
            grants.append((table_id, tokens))
        rng = random.Random(13)
        players = {
            table_id: [Player(proxy.ws_base, table_id, seat, token, random.Random(rng.random()))
                       for seat, token in enumerate(tokens)]
            for table_id, tokens in grants
        }
        watchers = {table_id: Player(proxy.ws_base, table_id, None, None, random.Random(0))
                    for table_id, _tokens in grants}
        for table_id, tokens in grants:
            lobby(proxy.base, "POST", f"/api/tables/{table_id}/start", None, tokens[0])

        before: dict[str, list[object]] = {}
        killed: list[int] = []

        async def play() -> None:
            tasks = [asyncio.ensure_future(p.play(think=0.01))
                     for seats in [*players.values(), [*watchers.values()]] for p in seats]
            loop = asyncio.get_running_loop()
            # wait until every table is well into its game, then kill one table's owner
            deadline = loop.time() + 60
            while min(p.version for seats in players.values() for p in seats) < 8:
                assert loop.time() < deadline, "the games did not get going"
                await asyncio.sleep(0.05)
            held = owners(url)
            assert len(set(held.values())) >= 2, f"the tables all sit on one process: {held}"
            running = [t for t, seats in players.items() if not any(p.over for p in seats)]
            pids = {s.process.pid: s for s in servers if s.process is not None}
            candidates = [t for t in running if held.get(t) in pids]
            assert candidates, f"no running table on a known process: {held}, {list(pids)}"
            victim_table = candidates[0]
            victim = pids[held[victim_table]]
            for table_id, seats in players.items():
                before[table_id] = list(max(seats, key=lambda p: p.version).history)
            killed.append(held[victim_table])
            victim.kill9()
            try:
                await asyncio.wait_for(asyncio.gather(*tasks), timeout=120)
            except TimeoutError:
                summary = {t: [(p.version, p.over, p.reconnects, p.errors[-3:]) for p in seats]
                           for t, seats in players.items()}
                raise AssertionError(f"games stalled after the kill: {summary}") from None

        asyncio.run(play())
        assert killed
        for table_id, seats in players.items():
            record = lobby(proxy.base, "GET", f"/games/{table_id}/record")
            final = max(seats, key=lambda p: p.version)
            assert all(p.over for p in seats)
            # every move anyone saw acknowledged is in the stored game, in its place
            assert len(record["actions"]) == final.version
            assert final.history[: len(before[table_id])] == before[table_id]
            # a spectator, wherever its socket landed, saw the same game in the same order
            watcher = watchers[table_id]
            assert watcher.over and watcher.history == final.history
            assert watcher.versions == sorted(watcher.versions)
    finally:
        proxy.stop()
        for server in servers:
            server.stop()

