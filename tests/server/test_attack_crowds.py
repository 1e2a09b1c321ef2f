"""Crowds against a real ``kingsbreakfast serve`` on loopback: a storm of spectators at a
table in play, 500 sockets that never say hello, and more watchers than a table takes.

The seated player must not notice a storm: a spectator who comes or goes changes nothing a
seated socket is shown (spectators are not listed), so the seated socket gets exactly one
state frame per move and no presence update at all, however many arrive.
"""

from __future__ import annotations

import asyncio
import random
import time
import urllib.request
from pathlib import Path

from server.kb_attack import Sock, leaks, move_once, seated_game
from server.kb_live import LiveServer


def sockets_fall_to(server: LiveServer, count: int, seconds: float = 20.0) -> None:
    """Wait (bounded) until the server's own socket gauge says ``count``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with urllib.request.urlopen(server.base + "/metrics", timeout=10) as reply:
            for line in reply.read().decode().splitlines():
                if line.startswith("kingsbreakfast_sockets ") and float(line.split()[1]) <= count:
                    return
        time.sleep(0.05)
    raise AssertionError(f"the server still counts more than {count} sockets")


STORM = 300
"""Spectators of the storm in CI (the benchmark sends 1,000)."""


def test_a_spectator_storm_never_reaches_the_seated_player(tmp_path: Path) -> None:
    server = LiveServer(
        f"sqlite:///{tmp_path / 'games.db'}", bot_delay=0.02, log_path=tmp_path / "server.log",
        extra=("--sockets-per-address", str(STORM + 20)),
    ).start()

    async def main() -> None:
        table_id, tokens = seated_game(server, humans=1, seats=4)
        ann = await Sock.open(server, table_id, tokens[0])
        rng = random.Random(6)
        await move_once(ann, rng)
        before = len(ann.frames)

        async def watch() -> Sock:
            sock = await Sock.open(server, table_id, None)
            await sock.recv("state")
            return sock

        storm = asyncio.gather(*(watch() for _ in range(STORM)))
        moves = 0
        while not storm.done() or moves < 3:  # Ann plays on through the storm
            await move_once(ann, rng)
            moves += 1
            if ann.frames[-1]["view"]["to_move"] is None:
                break
        crowd = await storm
        for sock in crowd:
            first = sock.frames[0]
            assert first["type"] == "state" and first["you"] is None
            assert leaks(sock.frames, None, tokens) == []
        await asyncio.gather(*(sock.close() for sock in crowd))
        during = ann.frames[before:]
        states = [f["version"] for f in during if f["type"] == "state"]
        assert len(states) == len(set(states))  # one state frame per move, none per watcher
        assert [f for f in during if f["type"] == "presence"] == []
        assert ann.ws.protocol.close_rcvd is None  # never closed
        assert leaks(ann.frames, 0, []) == []
        await ann.close()

    try:
        asyncio.run(main())
    finally:
        server.stop()


def test_sockets_that_never_say_hello_are_capped_per_address(tmp_path: Path) -> None:
    cap = 30
    server = LiveServer(
        f"sqlite:///{tmp_path / 'games.db'}", bot_delay=0.02,
        extra=("--sockets-per-address", str(cap)),
    ).start()

    async def main() -> None:
        table_id, tokens = seated_game(server, humans=1, seats=3)
        ann = await Sock.open(server, table_id, tokens[0])
        await ann.recv("state")
        silent = [await Sock.open(server, table_id, hello=False) for _ in range(500)]
        ends = await asyncio.gather(*(sock.closed() for sock in silent))
        codes = [code for code, _ in ends]
        said = [frames[0]["code"] if frames else None for _, frames in ends]
        # past the cap a socket may still show a seat's token (a player reconnecting from a
        # full address), up to twice the cap; the rest are turned away at once
        assert codes.count(4029) == 500 - (2 * cap - 1)
        assert codes.count(1008) == 2 * cap - 1  # the ones let in wait for a hello, then go
        assert sorted(set(said)) == ["no_hello", "too_many_sockets"]
        # Ann played on: her socket was never one of the refused
        assert await move_once(ann, random.Random(7)) >= 1
        assert ann.ws.protocol.close_rcvd is None
        await ann.close()

    try:
        asyncio.run(main())
    finally:
        server.stop()


def test_a_table_takes_only_so_many_watchers(tmp_path: Path) -> None:
    cap = 20
    server = LiveServer(
        f"sqlite:///{tmp_path / 'games.db'}", bot_delay=0.02,
        extra=("--sockets-per-table", str(cap)),
    ).start()

    async def main() -> None:
        table_id, tokens = seated_game(server, humans=1, seats=3)
        ann = await Sock.open(server, table_id, tokens[0])
        await ann.recv("state")
        crowd = [await Sock.open(server, table_id) for _ in range(cap + 5)]
        turned = 0
        for sock in crowd[cap - 1:]:
            code, frames = await sock.closed()
            assert (code, frames[0]["code"], frames[0]["params"]) == (
                4029, "table_crowded", {}
            )
            turned += 1
        for sock in crowd[: cap - 1]:
            assert (await sock.recv())["type"] == "state"
            await sock.close()
        assert turned == 6
        # room again once they left (the server counts them out as it sees them close)
        await asyncio.to_thread(sockets_fall_to, server, 1)
        again = await Sock.open(server, table_id)
        assert (await again.recv("state"))["you"] is None
        await again.close()
        await ann.close()

    try:
        asyncio.run(main())
    finally:
        server.stop()
