"""Tournaments on the cluster: a 3-round Swiss (nine bots entered by name, tables of three)
and a short arena (seven bots) on three ``kingsbreakfast serve`` processes on PostgreSQL
behind HAProxy; the process directing the Swiss is killed with SIGKILL in the middle of
round 2. Prints whether the standings match an independent recount from the tables, the
moves lost (seen by a spectator but not stored), the repeated meetings of the Swiss, and
how long the Swiss went undirected (tests/server/kb_tournament_cluster.py does the run).

    python benchmarks/tournament_cluster.py --db postgresql://… [--arena-seconds 30]
        [--port-base 18400] [--lease-seconds 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from server.kb_cluster import Proxy, start_servers
from server.kb_schema import fresh_schema
from server.kb_tournament_cluster import run_scenario


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--arena-seconds", type=float, default=30.0)
    parser.add_argument("--port-base", type=int, default=18400)
    parser.add_argument("--lease-seconds", type=float, default=2.0)
    parser.add_argument("--bot-delay", type=float, default=0.05)
    options = parser.parse_args()
    fresh_schema(options.db)
    ports = list(range(options.port_base, options.port_base + 4))
    with tempfile.TemporaryDirectory() as folder:
        proxy = Proxy(ports[0], ports[1:], Path(folder))
        servers = []
        try:
            servers = start_servers(options.db, ports[1:], Path(folder), options.lease_seconds,
                                    bot_delay=options.bot_delay)
            proxy.start()
            result = asyncio.run(run_scenario(options.db, proxy.base, proxy.ws_base, servers,
                                              arena_seconds=options.arena_seconds,
                                              timeout=options.arena_seconds + 300.0))
        finally:
            proxy.stop()
            for server in servers:
                server.stop()
    for key in ("swiss", "arena", "arena_standings"):
        result.pop(key)
    result["swiss_standings"] = [
        {k: line[k] for k in ("rank", "name", "bot", "points", "wins", "buchholz")}
        for line in result["swiss_standings"]]
    result["standings_correct"] = result["standings_lines_wrong"] == 0
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
