"""What accounts cost: argon2id hashing, a log-in, settling a finished game's ratings, and
reading a profile and the leaderboard with many accounts and results stored.

In-process through the ASGI app (``fastapi.testclient``) on SQLite in a temporary directory,
or PostgreSQL with ``--db``. Accounts and results are written straight into the store so a
large table is quick to set up; the reads go through the HTTP routes as a browser's would.

    python benchmarks/accounts_speed.py [--accounts 1000] [--results 5000] [--db URL]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from kingsbreakfast.server.account_store import Result
from kingsbreakfast.server.accounts import HASHER
from kingsbreakfast.server.app import create_app
from kingsbreakfast.server.limits import Registrations
from kingsbreakfast.server.store import SeatRecord

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from server.kb_accounts import Player


def timed(fn: Callable[[], Any], times: int) -> dict[str, float]:
    samples = []
    for _ in range(times):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return {"p50_ms": round(statistics.median(samples), 2),
            "p90_ms": round(samples[int(len(samples) * 0.9) - 1], 2),
            "max_ms": round(samples[-1], 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--accounts", type=int, default=1000)
    parser.add_argument("--results", type=int, default=5000)
    parser.add_argument("--db", default=None)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    tmp = tempfile.TemporaryDirectory()
    url = args.db or f"sqlite:///{tmp.name}/accounts.db"
    figures: dict[str, Any] = {"db": url.split(":", 1)[0], "accounts": args.accounts,
                               "results": args.results}
    figures["argon2id_hash"] = timed(lambda: HASHER.hash("a long enough password"), 20)
    hashed = HASHER.hash("a long enough password")
    figures["argon2id_verify"] = timed(lambda: HASHER.verify(hashed, "a long enough password"), 20)
    with TestClient(create_app(url, bot_delay=0.0, zombie_grace=0.0)) as client:
        site = client.app.state.site  # type: ignore[attr-defined]
        store = site.accounts.store
        site.accounts.registrations = Registrations(10**6, 10**6)  # all from one address
        ann = Player(client)
        ann.register("Ann")
        names = iter(range(10**6))
        figures["register_http"] = timed(lambda: Player(client).register(f"R{next(names)}"), 20)
        figures["login_http"] = timed(lambda: ann.login("Ann"), 20)
        figures["login_wrong_http"] = timed(lambda: Player(client).login("Ann", "wrong!!!"), 4)
        rng = random.Random(1)
        ids = [store.create_account(f"p{i}", f"p{i}", f"p{i}", hashed).id
               for i in range(args.accounts)]
        start = datetime(2026, 1, 1, tzinfo=UTC)
        per_game = 3
        for g in range(args.results // per_game):
            game_id = f"bench{g}"
            site.master.storage.create_game(
                game_id, num_seats=per_game, rules={}, bot_level="random", clock_seconds=None,
                public=True, seats=[SeatRecord(n, "bot", "", None) for n in range(per_game)],
            )
            players = [ids[0], *rng.sample(ids[1:], per_game - 1)]  # p0 plays every game
            store.record_results([
                Result(
                    game_id=game_id, account_id=account, seat=seat, num_seats=per_game,
                    place=1 + seat, won=seat == 0, points=rng.randrange(60),
                    favourite=rng.choice(["cheese", "ham", "cake"]), rated=True,
                    mu=25 + rng.gauss(0, 3), sigma=max(1.0, 8.0 - g / 100),
                    finished_at=start + timedelta(minutes=g),
                )
                for seat, account in enumerate(players)
            ])
        figures["results_of_busiest_player"] = args.results // per_game
        shown = client.get("/api/players/p0").json()
        assert shown["games"] == args.results // per_game, shown["games"]  # every game counts
        figures["profile_http"] = timed(lambda: client.get("/api/players/p0"), 50)
        figures["plot_http"] = timed(lambda: client.get("/api/players/p0/rating.svg"), 50)
        figures["leaderboard_http"] = timed(
            lambda: client.get("/api/leaderboard?page=3&size=20"), 50
        )
        figures["my_games_http"] = timed(lambda: ann.get("/api/me/games"), 20)
    print(json.dumps(figures, indent=2))
    if args.out:
        args.out.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    tmp.cleanup()


if __name__ == "__main__":
    main()
