"""Can an export of the games be linked to names with what the site publishes? For each given
source tree: a real ``kingsbreakfast serve`` on a fresh database, accounts and guests playing
public and private tables (bots play the away seats), then that tree's ``export-games``.
The attacker knows only public pages: the archive of public games and the players'
profiles, each game's ``/games/<id>/record`` with its names. It matches records by their
deck, names the pseudonyms of every matched record, and counts the other records those
names then identify.

    python benchmarks/dataset_linkage.py --tree before=/path/to/old/src --tree after=src
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from server.kb_browser import Browser
from server.kb_live import LiveServer

SALT = "a secret salt of the operator, 40 bytes.."
ACCOUNTS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
GUESTS = ["Sam", "Sam", "Kim", "Lou"]


def finish(browser: Browser, table_id: str) -> None:
    deadline = time.monotonic() + 120
    while browser.call("GET", f"/api/tables/{table_id}")[1]["status"] != "over":
        if time.monotonic() > deadline:
            raise RuntimeError("a game did not end")
        time.sleep(0.05)


def play_games(server: LiveServer, games: int, rng: random.Random) -> None:
    players = {name: Browser(server, f"127.0.11.{n + 1}") for n, name in enumerate(ACCOUNTS)}
    for name, browser in players.items():
        assert browser.register(name)[0] == 201
    for game in range(games):
        host = players[rng.choice(ACCOUNTS)]
        body = {"name": "x", "seats": 4, "bot_level": rng.choice(["random", "easy"]),
                "public": game % 2 == 0}
        status, grant = host.call("POST", "/api/tables", body)
        assert status == 201, grant
        table_id = grant["table"]["id"]
        other = players[rng.choice([n for n in ACCOUNTS if players[n] is not host])]
        other.call("POST", f"/api/tables/{table_id}/join", {"name": "x"})
        Browser(server, "127.0.12.1").call("POST", f"/api/tables/{table_id}/join",
                                           {"name": rng.choice(GUESTS)})
        assert host.call("POST", f"/api/tables/{table_id}/start")[0] == 200
        finish(host, table_id)


def public_pages(server: LiveServer) -> dict[str, dict[str, Any]]:
    """Every game record an outsider can find: the archive and the profiles' histories."""
    browser = Browser(server, "127.0.13.1")
    ids = {game["id"] for game in browser.call("GET", "/api/archive")[1]}
    for name in ACCOUNTS:
        profile = browser.call("GET", f"/api/players/{name}")[1]
        ids |= {entry["game"] for entry in profile.get("history", [])}
    return {g: browser.call("GET", f"/games/{g}/record")[1] for g in sorted(ids)}


def attack(records: list[dict[str, Any]], pages: dict[str, dict[str, Any]]) -> dict[str, Any]:
    by_deck = {tuple(r["deck"]): n for n, r in enumerate(records)}
    named: dict[str, str] = {}
    matched: set[int] = set()
    for page in pages.values():
        number = by_deck.get(tuple(page["deck"]))
        if number is None:
            continue
        matched.add(number)
        for pseudonym, name in zip(records[number]["players"], page["players"], strict=True):
            if not pseudonym.startswith("bot:"):
                named[pseudonym] = name
    unmatched = [n for n in range(len(records)) if n not in matched]
    identified = [n for n in unmatched if set(records[n]["players"]) & named.keys()]
    return {
        "records": len(records), "public_pages": len(pages),
        "records_matched_to_a_page": len(matched),
        "pseudonyms_named": len(named),
        "named_pseudonyms_in_other_records": len(
            {p for n in range(len(records)) for p in records[n]["players"]
             if p in named and n not in matched}
            | {p for p in named if sum(p in r["players"] for r in records) > 1}
        ),
        "unlisted_records_identified": len(identified),
        "bot_seats": sorted({p for r in records for p in r["players"] if p.startswith("bot")}),
    }


def one_tree(src: Path, games: int, options: tuple[str, ...] = ()) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    os.environ["PYTHONPATH"] = str(src)
    with tempfile.TemporaryDirectory() as folder:
        db = f"sqlite:///{folder}/games.db"
        server = LiveServer(db, bot_delay=0.0, zombie_grace=0.0,
                            log_path=Path(folder) / "server.log",
                            extra=("--tables-per-minute", "600")).start()
        try:
            play_games(server, games, random.Random(5))
            pages = public_pages(server)
        finally:
            server.stop()
        Path(folder, "salt").write_text(SALT)
        out = Path(folder, "games.jsonl")
        subprocess.run(
            [sys.executable, "-c", "from kingsbreakfast.cli.main import run; run()",
             "export-games", str(out), "--db", db, "--salt-file", f"{folder}/salt",
             *options],
            check=True, env=env, capture_output=True,
        )
        records = [json.loads(line) for line in out.read_text().splitlines()]
    return attack(records, pages)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", action="append", default=[],
                        help="LABEL=PATH of a source tree's src folder; PATH+OPTION passes "
                        "OPTION to export-games (e.g. after-listed=src+--listed)")
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    figures = {}
    for item in args.tree:
        label, path = item.split("=", 1)
        path, *options = path.split("+")
        figures[label] = one_tree(Path(path).resolve(), args.games, tuple(options))
    print(json.dumps(figures, indent=2))
    if args.out:
        args.out.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
