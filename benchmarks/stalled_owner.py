"""Failover with a stalled owner: how long another process needs to take a table whose
owner was frozen (SIGSTOP) in the middle of its lease renewal, for each ``--db-idle-timeout``
given to the owner (0: the database never ends a stalled session). A renewal is one statement
with no transaction around it, so the frozen session holds no lock and the
successor waits for the lease alone, whatever the timeout (a renewal inside a transaction
once kept the row locked until the database ended the session, or for ever).

The successor here retries as a reconnecting client makes a process do, each try bounded by
its own ``lock_timeout``, for at most ``--bound`` seconds.

    KINGSBREAKFAST_TEST_POSTGRES_URL=postgresql://… python benchmarks/stalled_owner.py \\
        [--idle 0 5] [--lease 1] [--rounds 3] [--port 18460]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine

from kingsbreakfast.server.storage import normalize_url

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from server.kb_live import LiveServer
from server.kb_schema import fresh_schema
from server.kb_stall import freeze_inside_renewal, take_over


def one_round(url: str, idle: float, lease: float, bound: float, port: int,
              folder: Path) -> float | None:
    fresh_schema(url)
    owner = LiveServer(url, bot_delay=3600.0, port=port, log_path=folder / "owner.log",
                       extra=("--lease-seconds", str(lease), "--no-migrate",
                              "--db-idle-timeout", str(idle))).start()
    engine = create_engine(normalize_url(url), isolation_level="AUTOCOMMIT")
    try:
        status, grant = owner.request("POST", "/api/tables", {"name": "Ann", "seats": 3})
        assert status == 201, grant
        table_id = grant["table"]["id"]
        owner.request("POST", f"/api/tables/{table_id}/start", None, grant["token"])
        freeze_inside_renewal(owner, engine, table_id)
        stalled = time.monotonic()
        taken = asyncio.run(take_over(url, table_id, lease, bound))
        return None if taken is None else round(time.monotonic() - stalled, 2)
    finally:
        assert owner.process is not None
        if owner.process.poll() is None:
            os.kill(owner.process.pid, signal.SIGCONT)
        owner.stop()
        engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle", type=float, nargs="+", default=[0.0, 5.0])
    parser.add_argument("--lease", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bound", type=float, default=30.0)
    parser.add_argument("--port", type=int, default=18460)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    url = os.environ["KINGSBREAKFAST_TEST_POSTGRES_URL"]
    figures: dict[str, Any] = {"lease_seconds": args.lease, "bound_seconds": args.bound}
    with tempfile.TemporaryDirectory() as folder:
        runs: dict[float, list[float | None]] = {idle: [] for idle in args.idle}
        for _round in range(args.rounds):  # interleaved, so load hits every setting alike
            for idle in args.idle:
                runs[idle].append(one_round(url, idle, args.lease, args.bound, args.port,
                                            Path(folder)))
        for idle, times in runs.items():
            done = [t for t in times if t is not None]
            figures[f"idle_timeout_{idle:g}s"] = {
                "taken": f"{len(done)}/{len(times)}",
                "median_s": round(statistics.median(done), 2) if done else None,
                "max_s": max(done) if done else None,
                "runs": times,
            }
    print(json.dumps(figures, indent=2))
    if args.out:
        args.out.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
