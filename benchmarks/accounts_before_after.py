"""Registration and log-in through the HTTP routes, for two source trees in turn (before and
after a change), interleaved round by round so that a shared machine's load hits both alike.

Each round runs one child process per tree, with that tree's ``src`` first on the path, on
its own PostgreSQL (or SQLite) database; only the public routes are used, so the same code
measures both trees.

    python benchmarks/accounts_before_after.py --before /path/to/old/src --after src \\
        --db-before postgresql://…/a --db-after postgresql://…/b [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

CHILD = r"""
import json, sys, time
from fastapi.testclient import TestClient
from kingsbreakfast.server.app import create_app
sys.path.insert(0, sys.argv[2])
from server.kb_accounts import Player
from server.kb_schema import empty_database

PASSWORD = "correct horse battery"
url, tests, times = sys.argv[1], sys.argv[2], int(sys.argv[3])
if url.startswith("postgresql"):
    empty_database(url)
keys = ("register_ms", "login_ms", "login_wrong_ms", "login_unknown_ms", "login_locked_ms")
samples = {key: [] for key in keys}
statuses = {key: set() for key in keys}
with TestClient(create_app(url, bot_delay=0.0, zombie_grace=0.0)) as client:
    accounts = client.app.state.site.accounts
    if hasattr(accounts, "registrations"):  # a tree with per-address registration limits
        from kingsbreakfast.server.limits import Registrations
        accounts.registrations = Registrations(10**6, 10**6)

    def timed(key, address, path, body):
        player = Player(TestClient(client.app, client=(address, 1000)))
        player.get("/api/account")
        start = time.perf_counter()
        reply = player.post(path, json=body)
        samples[key].append((time.perf_counter() - start) * 1000)
        statuses[key].add(reply.status_code)
        return reply

    for n in range(times):
        home, guesser = f"10.1.{n // 200}.{n % 200}", f"10.2.{n // 200}.{n % 200}"
        name = f"Runner {n}"
        timed("register_ms", home, "/api/account/register", {"name": name, "password": PASSWORD})
        timed("login_ms", home, "/api/account/login", {"name": name, "password": PASSWORD})
        timed("login_unknown_ms", guesser, "/api/account/login",
              {"name": f"Nobody {n}", "password": "not the password"})
        for _try in range(5):  # five wrong passwords in a row: the lock of either tree
            timed("login_wrong_ms", guesser, "/api/account/login",
                  {"name": name, "password": "not the password"})
        timed("login_locked_ms", guesser, "/api/account/login",
              {"name": name, "password": PASSWORD})
print(json.dumps({"samples": samples, "statuses": {k: sorted(v) for k, v in statuses.items()}}))
"""


def run(src: Path, url: str, times: int) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    tests = Path(__file__).resolve().parents[1] / "tests"
    out = subprocess.run(
        [sys.executable, "-c", CHILD, url, str(tests), str(times)], env=env, check=True,
        capture_output=True, text=True,
    ).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--after", type=Path, required=True)
    parser.add_argument("--db-before", required=True)
    parser.add_argument("--db-after", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--times", type=int, default=20)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    pooled: dict[str, dict[str, list[float]]] = {"before": {}, "after": {}}
    answers: dict[str, dict[str, set[int]]] = {"before": {}, "after": {}}
    for _round in range(args.rounds):
        for side, src, url in (("before", args.before, args.db_before),
                               ("after", args.after, args.db_after)):
            result = run(src.resolve(), url, args.times)
            for key, values in result["samples"].items():
                pooled[side].setdefault(key, []).extend(values)
            for key, codes in result["statuses"].items():
                answers[side].setdefault(key, set()).update(codes)
    figures: dict[str, Any] = {"rounds": args.rounds, "times_per_round": args.times,
                               "db": args.db_after.split(":", 1)[0]}
    for side, samples in pooled.items():
        figures[side] = {
            key: {"p50_ms": round(statistics.median(v), 2),
                  "p90_ms": round(sorted(v)[int(len(v) * 0.9) - 1], 2),
                  "statuses": sorted(answers[side][key])}
            for key, v in samples.items()
        }
    print(json.dumps(figures, indent=2))
    if args.out:
        args.out.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
