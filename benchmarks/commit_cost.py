"""The server's own CPU for one group commit of a cluster process on PostgreSQL, by the
number of moves in it: the part of a move's cost that grows when the same load is spread
over more processes (each process's commits then hold fewer moves).

Fills a database with tables in play held by one process's lease, then makes ``--commits``
fenced group commits (``Storage.append_actions`` with the lease's fence, as the process's
database thread does) of each batch size, and prints the process CPU and the time each
commit took. With several ``--src`` folders (e.g. a ``git worktree`` of main and this
branch) each runs in its own process, in turn, round after round, so whatever else the
machine does hits each alike.

    python benchmarks/commit_cost.py --db postgresql://… [--src OLD/src NEW/src]
        [--batches 1 2 4 8] [--commits 300] [--rounds 2]

The database's tables are dropped first.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

TABLES = 50


def measure(db: str, batches: list[int], commits: int) -> list[dict[str, float]]:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from kingsbreakfast.server.storage import Storage
    from kingsbreakfast.server.store import SeatRecord
    from server.kb_schema import fresh_schema

    fresh_schema(db)
    storage = Storage(db)
    life = storage.register_process("bench", 3600.0)
    seats = [SeatRecord(n, "human", "P", None) for n in range(3)]
    epochs: dict[str, int] = {}
    for number in range(TABLES):
        game = f"g{number}"
        storage.create_game(game, num_seats=3, rules={}, bot_level="easy", clock_seconds=None,
                            public=True, seats=seats)
        storage.start_game(game, ("7",) * 110, 0, seats)
        epoch = storage.acquire_lease(game, "bench", life)
        assert epoch is not None
        epochs[game] = epoch
    fence = ("bench", epochs)
    moves = dict.fromkeys(epochs, 0)
    storage.append_actions([("g0", 0, 0, 1, False)], fence)  # the connection opened
    moves["g0"] = 1
    found = []
    for batch in batches:
        cpu0, wall0 = time.process_time(), time.perf_counter()
        for commit in range(commits):
            items = []
            for slot in range(batch):
                game = f"g{(commit * batch + slot) % TABLES}"
                items.append((game, moves[game], 0, 1, False))
                moves[game] += 1
            assert storage.append_actions(items, fence) == [None] * batch
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        found.append({"batch": batch, "cpu_ms_per_commit": round(1000 * cpu / commits, 3),
                      "cpu_ms_per_move": round(1000 * cpu / commits / batch, 3),
                      "wall_ms_per_commit": round(1000 * wall / commits, 2)})
    storage.dispose()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="a PostgreSQL URL (its tables are dropped)")
    parser.add_argument("--src", type=Path, nargs="*", default=[],
                        help="source folders to compare, each in its own process")
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 2, 4, 8])
    parser.add_argument("--commits", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.one or not options.src:
        print(json.dumps(measure(options.db, options.batches, options.commits)), flush=True)
        return
    for round_no in range(options.rounds):
        for src in options.src:
            done = subprocess.run(
                [sys.executable, __file__, "--db", options.db, "--one",
                 "--commits", str(options.commits), "--batches", *map(str, options.batches)],
                env={**os.environ, "PYTHONPATH": str(src.resolve())},
                capture_output=True, text=True, check=True,
            )
            for row in json.loads(done.stdout.strip().splitlines()[-1]):
                print(json.dumps({"round": round_no, "src": str(src), **row}), flush=True)


if __name__ == "__main__":
    main()
