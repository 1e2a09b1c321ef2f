"""Play now with lone strangers on each backend: how many are dealt a game, how many are
left waiting, and how many tables are dealt.

Two patterns, each on one server on SQLite, one on PostgreSQL, and three processes on
PostgreSQL behind HAProxy: six lone players pressing Play now at the same moment, and ten
arriving about a second apart. Each player behaves as the page does: it asks, opens the
table's socket at once, and waits for the deal. A player is *stranded* when no dealt table
holds them ``--wait`` + 20 seconds after they asked (the group's deadline has long passed).

    KINGSBREAKFAST_TEST_POSTGRES_URL=postgresql://... \\
        python benchmarks/play_now_strangers.py [--wait 8] [--seats 4] [--kinds sqlite,...]

The server processes import ``kingsbreakfast`` from ``PYTHONPATH``: point it at another
checkout's ``src`` to measure that code (the figures before a change).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from websockets.exceptions import ConnectionClosed

from server import kb_play_now
from server.kb_play_now import Player, Site, dealt, start_site

LIMITS = ("--tables-per-minute", "600", "--sockets-per-address", "1000")


async def one(player: Player, name: str, seats: int, patience: float) -> str | None:
    """The dealt table this player sits at, or None (stranded)."""
    status, body = await asyncio.to_thread(player.play_now, name, seats)
    if status != 201:
        return None
    try:
        await player.sit(body["table"])
        frame: dict[str, Any] = await player.state(
            lambda f: dealt(f) and f["you"] is not None, timeout=patience)
        return str(frame["table"]["id"])
    except (TimeoutError, OSError, ConnectionClosed):  # closed, refused, or never dealt
        return None
    finally:
        await player.close()


async def pattern(site: Site, players: int, apart: float, seats: int,
                  patience: float) -> tuple[int, int]:
    """(stranded players, dealt tables) when ``players`` ask ``apart`` seconds apart."""
    tasks = []
    for n in range(players):
        tasks.append(asyncio.create_task(one(Player(site), f"Lone {n}", seats, patience)))
        if apart:
            await asyncio.sleep(apart)  # the arrival pattern measured, not a synchronisation
    tables = await asyncio.gather(*tasks)
    return sum(t is None for t in tables), len({t for t in tables if t is not None})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wait", type=float, default=8.0, help="play now's wait (s)")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--kinds", default="sqlite,postgresql,cluster")
    options = parser.parse_args()
    kb_play_now.WAIT = options.wait
    postgres = os.environ.get("KINGSBREAKFAST_TEST_POSTGRES_URL")
    patience = options.wait + 20.0
    print(f"play now, {options.seats} seats, wait {options.wait:g} s "
          f"(kingsbreakfast from {os.environ.get('PYTHONPATH', 'the installed package')})")
    for kind in options.kinds.split(","):
        if kind != "sqlite" and not postgres:
            print(f"{kind}: skipped (KINGSBREAKFAST_TEST_POSTGRES_URL is not set)")
            continue
        site = start_site(kind, Path(tempfile.mkdtemp(prefix=f"kb-pn-{kind}-")), postgres,
                          LIMITS)
        try:
            started = time.monotonic()
            at_once = asyncio.run(pattern(site, 6, 0.0, options.seats, patience))
            apart = asyncio.run(pattern(site, 10, 1.0, options.seats, patience))
            print(f"{kind:10s} 6 at once: {at_once[0]} stranded, {at_once[1]} tables dealt; "
                  f"10 a second apart: {apart[0]} stranded, {apart[1]} tables dealt "
                  f"({time.monotonic() - started:.0f} s)")
        finally:
            site.stop()


if __name__ == "__main__":
    main()
