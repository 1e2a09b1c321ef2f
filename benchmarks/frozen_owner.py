"""How soon a player notices that the process holding their table froze, and is back at the
table: PostgreSQL, HAProxy (scripts/haproxy-config.sh) and three server processes on
loopback; a seat's client heartbeating as the browser does (tests/server/kb_heartbeat.py)
plays a 3-seat table with a 5 s turn clock; its owner is stopped (SIGSTOP) and left stopped.
Measured from the stop: when the client lost its socket (given up as silent, or closed by
the proxy once its checks took the process out), when a state came again (from the new
owner, after the loss), and whether any move of the seat was played for it.

    python benchmarks/frozen_owner.py --db postgresql://... [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from server.kb_cluster import Proxy, lobby, owners, port_range, start_servers
from server.kb_heartbeat import HeartbeatSeat
from server.kb_schema import fresh_schema


async def one_round(proxy: Proxy, url: str, seed: int) -> tuple[dict[str, Any], int]:
    grant = lobby(proxy.base, "POST", "/api/tables",
                  {"name": "Ann", "seats": 3, "bot_level": "random", "public": False,
                   "clock_seconds": 5})
    table_id = grant["table"]["id"]
    lobby(proxy.base, "POST", f"/api/tables/{table_id}/start", None, grant["token"])
    seat = HeartbeatSeat(proxy.ws_base, table_id, 0, grant["token"], random.Random(seed),
                         think=0.2)
    game = asyncio.ensure_future(seat.play())
    while seat.version < 3:
        await asyncio.sleep(0.05)
    owner = owners(url)[table_id]
    os.kill(owner, signal.SIGSTOP)
    frozen_at = time.monotonic()
    await asyncio.wait_for(game, timeout=180)
    lost = [t - frozen_at for t in seat.lost + seat.given_up if t > frozen_at]
    # back: the first state after the socket was lost (one sent just before the stop may
    # still arrive on the old socket)
    back = [t - frozen_at for t, _frame in seat.states_after
            if lost and t - frozen_at > min(lost)]
    return {
        "noticed_s": round(min(lost), 2) if lost else None,
        "given_up_for_silence": any(t > frozen_at for t in seat.given_up),
        "back_at_the_table_s": round(min(back), 2) if back else None,
        "moves_played_for_the_seat": len(seat.played_for_me()),
    }, owner


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="a PostgreSQL URL (wiped)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rounds = []
    for number in range(args.rounds):
        folder = Path(tempfile.mkdtemp(prefix="kb-frozen-"))
        fresh_schema(args.db)
        ports = port_range()
        proxy = Proxy(ports[0], ports[10:13], folder)
        servers = start_servers(args.db, ports[10:13], folder, lease_seconds=2.0,
                                bot_delay=0.3)
        frozen = None
        try:
            proxy.start()
            result, frozen = asyncio.run(one_round(proxy, args.db, number))
            rounds.append(result)
            print(json.dumps(result), flush=True)
        finally:
            if frozen is not None:
                os.kill(frozen, signal.SIGCONT)
            proxy.stop()
            for server in servers:
                server.stop()
    print(json.dumps({"rounds": rounds}, indent=1))


if __name__ == "__main__":
    main()
