"""Failover: how long the tables of a server process killed with SIGKILL stand still.

Starts PostgreSQL-backed ``kingsbreakfast serve`` processes behind HAProxy (the
configuration of scripts/haproxy-config.sh), seats three client bots at each of N tables
(they play through the proxy and reconnect on their own, as the browser client does), and
then, K times: picks the process owning the most running tables, kills it with SIGKILL,
measures for each of its tables the time from the kill to the next move the table accepts
(a client receiving a higher version), and starts the process again. At the end every
table's stored game is checked against what its clients saw acknowledged.

    python benchmarks/failover.py --db postgresql://… --kills 20 [--tables 30] [--servers 3]
        [--lease-seconds 3] [--port-base 18300]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
import urllib.error
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from server.kb_cluster import Player, Proxy, lobby, owners, start_servers
from server.kb_schema import fresh_schema

SEATS = 3


def new_table(base: str, number: int) -> tuple[str, list[str]]:
    grant = lobby(base, "POST", "/api/tables", {"name": f"h{number}", "seats": SEATS,
                                                 "bot_level": "random", "public": False})
    table_id, tokens = grant["table"]["id"], [grant["token"]]
    for seat in range(1, SEATS):
        tokens.append(lobby(base, "POST", f"/api/tables/{table_id}/join",
                            {"name": f"p{seat}"})["token"])
    lobby(base, "POST", f"/api/tables/{table_id}/start", None, tokens[0])
    return table_id, tokens


async def run(options: argparse.Namespace, folder: Path) -> dict[str, Any]:
    fresh_schema(options.db)
    ports = list(range(options.port_base, options.port_base + options.servers + 1))
    proxy = Proxy(ports[0], ports[1:], folder)
    servers = []
    try:
        servers = start_servers(options.db, ports[1:], folder, options.lease_seconds,
                                bot_delay=0.05)
        proxy.start()
        rng = random.Random(options.seed)
        players: dict[str, list[Player]] = {}
        tasks: list[asyncio.Task[None]] = []
        loop = asyncio.get_running_loop()

        async def refill() -> None:
            """Keep N games running: a finished table is replaced by a new one."""
            for table_id in [t for t, ps in players.items() if any(p.over for p in ps)]:
                finished.append(players.pop(table_id))
            while len(players) < options.tables:
                table_id, tokens = await loop.run_in_executor(
                    None, new_table, proxy.base, len(players) + len(finished))
                seats = [Player(proxy.ws_base, table_id, s, tok, random.Random(rng.random()))
                         for s, tok in enumerate(tokens)]
                players[table_id] = seats
                tasks.extend(asyncio.ensure_future(p.play(think=options.think)) for p in seats)

        finished: list[list[Player]] = []
        await refill()

        async def keep_full() -> None:
            while True:
                await asyncio.sleep(0.5)
                await refill()

        filler = asyncio.ensure_future(keep_full())
        kills: list[dict[str, Any]] = []
        every_wait: list[float] = []
        for _kill in range(options.kills):
            await asyncio.sleep(options.settle)
            held = owners(options.db)
            pids = {s.process.pid: s for s in servers if s.process is not None}
            counts: dict[int, list[str]] = {}
            for table_id, seats in list(players.items()):
                if held.get(table_id) in pids and not any(p.over for p in seats) and min(
                    p.version for p in seats
                ) >= 0:
                    counts.setdefault(held[table_id], []).append(table_id)
            if not counts:  # told: a kill that finds no process holding a running table
                print(json.dumps({"kill": _kill, "skipped": "no process holds a running table",
                                  "tables": len(players),
                                  "held_by_a_live_process": sum(
                                      1 for t in players if held.get(t) in pids)}),
                      file=sys.stderr, flush=True)
                continue
            pid, orphaned = max(counts.items(), key=lambda item: len(item[1]))
            victim = pids[pid]
            seats_of = {t: players[t] for t in orphaned}
            marks = {t: max(p.version for p in seats_of[t]) for t in orphaned}
            killed_at = time.monotonic()
            victim.kill9()
            waits: dict[str, float] = {}
            deadline = killed_at + 60
            while len(waits) < len(orphaned) and time.monotonic() < deadline:
                for t in orphaned:
                    if t in waits:
                        continue
                    moved = [p.moved_at for p in seats_of[t]
                             if p.version > marks[t] and p.moved_at is not None]
                    if moved:
                        waits[t] = min(moved) - killed_at
                await asyncio.sleep(0.01)
            victim.start()  # the process comes back, as a supervisor would bring it
            every_wait.extend(waits.values())
            kills.append({"tables": len(orphaned), "max_s": max(waits.values(), default=None),
                          "median_s": statistics.median(waits.values()) if waits else None,
                          "stuck": len(orphaned) - len(waits)})
        filler.cancel()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        lost = 0
        for seats in [*players.values(), *finished]:
            table_id = seats[0].url.rsplit("/", 1)[1]
            seen = max(p.version for p in seats)
            info = None
            if not any(p.over for p in seats):
                try:
                    info = lobby(proxy.base, "GET", f"/api/tables/{table_id}")
                except urllib.error.HTTPError as error:  # finished as the clients stopped:
                    if error.code != 404:               # it is in the archive
                        raise
            stored = (info["version"] if info is not None else
                      len(lobby(proxy.base, "GET", f"/games/{table_id}/record")["actions"]))
            if stored < seen:
                lost += 1
        per_kill_max = [k["max_s"] for k in kills if k["max_s"] is not None]
        all_waits = per_kill_max
        return {
            "servers": options.servers, "tables": options.tables,
            "lease_seconds": options.lease_seconds, "kills": len(kills),
            "orphaned_tables_per_kill": [k["tables"] for k in kills],
            "kill_to_next_move_s_per_kill_max": [round(x, 2) for x in per_kill_max],
            "median_of_per_kill_max_s": round(statistics.median(all_waits), 2)
            if all_waits else None,
            "max_s": round(max(all_waits), 2) if all_waits else None,
            "orphaned_tables": len(every_wait),
            "per_table_median_s": round(statistics.median(every_wait), 2) if every_wait else None,
            "per_table_p90_s": round(sorted(every_wait)[int(0.9 * len(every_wait))], 2)
            if every_wait else None,
            "stuck_tables": sum(k["stuck"] for k in kills),
            "tables_with_lost_moves": lost,
        }
    finally:
        proxy.stop()
        for server in servers:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="a PostgreSQL URL (its tables are dropped)")
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--servers", type=int, default=3)
    parser.add_argument("--lease-seconds", type=float, default=3.0)
    parser.add_argument("--think", type=float, default=0.2)
    parser.add_argument("--settle", type=float, default=4.0,
                        help="seconds between a restart and the next kill")
    parser.add_argument("--port-base", type=int, default=18300)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        report = asyncio.run(run(options, Path(tmp)))
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
