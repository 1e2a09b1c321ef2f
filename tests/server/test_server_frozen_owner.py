"""A table's owner frozen (SIGSTOP) mid-game, in the deployment: PostgreSQL, HAProxy and three
server processes on loopback. The frozen process keeps its sockets open and silent; the
player's client, heartbeating as the browser (and the terminal's relay) does, notices,
reconnects through the proxy to the process that took the table over, and plays on in its
own seat: no move of its seat is played for it by a bot (the table has a 5 s turn clock, so
a player counted as gone while reconnecting would lose a turn to the clock)."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from kingsbreakfast.bots.outside import outside_bot
from kingsbreakfast.cli.seat_relay import Address, Relay
from kingsbreakfast.server.storage import normalize_url
from server.conftest import POSTGRES_URL
from server.kb_browser import Browser
from server.kb_cluster import Proxy, cluster, lobby, owners, port_range, start_servers
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


FIRST_LEGAL = (
    "import json, sys\n"
    "for line in sys.stdin:\n"
    "    r = json.loads(line)\n"
    "    print(json.dumps({'id': r['id'], 'action': r['legal'][0]}), flush=True)\n"
)


def test_a_terminal_relay_notices_a_frozen_owner_and_keeps_the_seat(tmp_path: Path) -> None:
    """``kingsbreakfast agent``'s relay in a seat, its table's owner frozen mid-game: the
    relay loses the frozen process's socket (the proxy closes it once its health check
    fails; the relay's own pings give it up when no proxy does), reconnects through the
    proxy to the process that took the table, and plays every move of its seat itself."""
    assert POSTGRES_URL is not None
    url = POSTGRES_URL
    frozen: list[int] = []
    with cluster(url, tmp_path) as (proxy, _servers):
        try:
            grant = lobby(proxy.base, "POST", "/api/tables",
                          {"name": "Ann", "seats": 3, "bot_level": "random", "public": False,
                           "clock_seconds": 5})
            table_id = grant["table"]["id"]
            lobby(proxy.base, "POST", f"/api/tables/{table_id}/start", None, grant["token"])
            script = tmp_path / "first_legal.py"
            script.write_text(FIRST_LEGAL)
            retried: list[float] = []
            relay = Relay(Address(proxy.base, table_id), grant["token"],
                          outside_bot(f"cmd:{sys.executable} {script}", 20), seed=3,
                          on_retry=lambda code, attempt: retried.append(time.monotonic()))
            final: dict[str, Any] = {}
            failure: list[BaseException] = []

            def run() -> None:
                try:
                    final.update(relay.run())
                except BaseException as error:  # reported by the test below
                    failure.append(error)

            thread = threading.Thread(target=run, daemon=True)
            thread.start()
            moved = threading.Event()
            while not moved.wait(0.05):  # until the relay has played twice
                assert thread.is_alive(), failure
                if relay.played.moves >= 2:
                    moved.set()
            owner = owners(url)[table_id]
            os.kill(owner, signal.SIGSTOP)
            frozen.append(owner)
            frozen_at = time.monotonic()
            thread.join(180)
            assert not thread.is_alive(), "the relay's game stalled"
            assert failure == []
            # noticed: a socket given up or lost after the freeze, and a new one made
            assert [t for t in retried if t > frozen_at]
            assert final["table"]["seats"][0]["kind"] == "human"
            history = final["view"]["history"]
            mine = {number for number, entry in enumerate(history) if entry["seat"] == 0}
            assert mine and mine <= relay.played.acted, "a move of the seat was not the relay's"
            assert owners(url).get(table_id) not in frozen
        finally:
            for pid in frozen:
                os.kill(pid, signal.SIGCONT)


def test_a_rated_game_survives_its_owner_freezing_with_no_leaver(tmp_path: Path) -> None:
    """Two accounts at a rated table (a bot in the third seat), their table's owner frozen
    mid-game: both notice, reconnect and finish in their own seats; nobody is recorded as
    leaving, and the game is rated for both with its real places."""
    assert POSTGRES_URL is not None
    url = POSTGRES_URL
    frozen: list[int] = []
    with cluster(url, tmp_path) as (proxy, _servers):
        try:
            ann, bob = Browser(proxy, "127.0.9.1"), Browser(proxy, "127.0.9.2")
            assert ann.register("Frozen Ann")[0] == 201 and bob.register("Frozen Bob")[0] == 201
            status, grant = ann.call("POST", "/api/tables", {
                "name": "x", "seats": 3, "bot_level": "random", "clock_seconds": 5})
            assert status == 201, grant
            table_id = grant["table"]["id"]
            status, joined = bob.call("POST", f"/api/tables/{table_id}/join", {"name": "x"})
            assert status == 201, joined
            assert ann.call("POST", f"/api/tables/{table_id}/start")[0] == 200
            seats = [HeartbeatSeat(proxy.ws_base, table_id, seat, token, random.Random(seat),
                                   think=0.2)
                     for seat, token in ((0, grant["token"]), (1, joined["token"]))]

            async def play() -> float:
                games = [asyncio.ensure_future(seat.play()) for seat in seats]
                loop = asyncio.get_running_loop()
                deadline = loop.time() + 60
                while min(seat.version for seat in seats) < 4:
                    assert loop.time() < deadline, "the game did not get going"
                    assert not any(game.done() for game in games)
                    await asyncio.sleep(0.05)
                owner = owners(url)[table_id]
                os.kill(owner, signal.SIGSTOP)
                frozen.append(owner)
                at = time.monotonic()
                await asyncio.wait_for(asyncio.gather(*games), timeout=180)
                return at

            frozen_at = asyncio.run(play())
            for seat in seats:
                assert seat.over
                assert [t for t in seat.lost + seat.given_up if t > frozen_at]
                assert seat.played_for_me() == [], "a bot or the clock moved for a player"
            engine = create_engine(normalize_url(url))
            try:
                with engine.connect() as connection:
                    leavers = connection.execute(text(
                        "SELECT count(*) FROM game_leavers WHERE game_id = :g"), {"g": table_id}
                    ).scalar_one()
            finally:
                engine.dispose()
            assert leavers == 0
            profiles = [Browser(proxy).call("GET", f"/api/players/Frozen%20{name}")[1]
                        for name in ("Ann", "Bob")]
            assert [p["rated_games"] for p in profiles] == [1, 1]
        finally:
            for pid in frozen:
                os.kill(pid, signal.SIGCONT)
