"""The attacks on rated play of docs/accounts.md, run against a real ``kingsbreakfast serve``
built from each given source tree in turn (before and after a change): look-alike and
invisible names, the lock-out's answers, the puppet farm, a registration flood, one outside
program listed for two seats, leaving a losing rated game, hints at a rated table and a hint
flood elsewhere, and impostor names at one table. Prints what each attack achieved.

    python benchmarks/rated_attacks.py --tree before=/path/to/old/src --tree after=src
"""

from __future__ import annotations

import argparse
import asyncio
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

LOOK_ALIKES = ["\u0391nn", "\u0410nn", "ann", "ANN", "\uff21\uff4e\uff4e", "Ann\u0301"]
NOTHING = ["\u3164", "\u3164\u3164", "Zed\u2800", "Zed\ufe0f", "\u0301", "Zed \u0301"]


def names(server: LiveServer) -> dict[str, Any]:
    Browser(server, "127.0.3.1").register("Ann")
    accepted = [n for n in LOOK_ALIKES if Browser(server, "127.0.3.2").register(n)[0] == 201]
    blank = [n for n in NOTHING if Browser(server, "127.0.3.3").register(n)[0] == 201]
    return {"look_alikes_of_Ann_registered": f"{len(accepted)}/{len(LOOK_ALIKES)}",
            "names_of_nothing_registered": f"{len(blank)}/{len(NOTHING)}"}


def lock_out(server: LiveServer) -> dict[str, Any]:
    Browser(server, "127.0.4.1").register("Owner")
    guesser = Browser(server, "127.0.4.2")
    for n in range(5):
        guesser.login("Owner", f"guess {n}")
    started = time.perf_counter()
    held = guesser.login("Owner")
    held_ms = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    unknown = guesser.login("Nobody has this", "guess")
    unknown_ms = (time.perf_counter() - started) * 1000
    owner_elsewhere = Browser(server, "127.0.4.3").login("Owner")[0]
    return {
        "locked_answer": [held[0], held[1]["error"]["code"]],
        "unknown_answer": [unknown[0], unknown[1]["error"]["code"]],
        "locked_ms": round(held_ms, 1), "unknown_ms": round(unknown_ms, 1),
        "owner_from_another_address": owner_elsewhere,
    }


def puppet_farm(server: LiveServer) -> dict[str, Any]:
    farmer, puppet = Browser(server, "127.0.5.1"), Browser(server, "127.0.5.1")
    farmer.register("Farmer")
    puppet.register("Puppet")
    for _game in range(10):
        grant = farmer.call("POST", "/api/tables", {"name": "x", "seats": 3,
                                                   "bot_level": "random"})[1]
        table = grant["table"]["id"]
        puppet.call("POST", f"/api/tables/{table}/join", {"name": "x"})
        farmer.call("POST", f"/api/tables/{table}/start")
        deadline = time.monotonic() + 60
        while farmer.call("GET", f"/api/tables/{table}")[1]["status"] != "over":
            if time.monotonic() > deadline:
                raise RuntimeError("a farm game did not end")
            time.sleep(0.05)
    profile = Browser(server).call("GET", "/api/players/Farmer")[1]
    board = Browser(server).call("GET", "/api/leaderboard")[1]
    return {
        "farmer_rated_games": profile["rated_games"],
        "farmer_rating": profile["rating"],
        "farmer_marked_provisional": profile.get("provisional", False),
        "farmer_on_leaderboard": "Farmer" in [row["name"] for row in board["rows"]],
    }


def registration_flood(server: LiveServer) -> dict[str, Any]:
    started = time.perf_counter()
    made = sum(Browser(server, "127.0.6.1").register(f"Crowd {n}")[0] == 201
               for n in range(100))
    return {"accounts_made_of_100": made,
            "seconds": round(time.perf_counter() - started, 1)}


def shared_agent(folder: Path) -> dict[str, Any]:
    from kingsbreakfast.sim import parse_lineup
    from kingsbreakfast.sim.match import play_game

    script = folder / "agent.py"
    script.write_text(
        "import json, os, sys\nfor line in sys.stdin:\n    r = json.loads(line)\n"
        "    print(json.dumps({'id': r['id'], 'action': r['legal'][0]}), flush=True)\n"
        "    print(os.getpid(), r['seat'], file=sys.stderr, flush=True)\n"
    )
    log = folder / "agent.err"
    program = f"cmd:{sys.executable} {script}"
    with open(log, "w") as err:
        saved = os.dup(2)
        os.dup2(err.fileno(), 2)
        try:
            lineup = parse_lineup(f"{program},{program},random", 3)
            play_game([spec.build() for spec in lineup], 3, [1, 2, 3])
        finally:
            os.dup2(saved, 2)
    seats_by_pid: dict[str, set[str]] = {}
    for line in log.read_text().splitlines():
        pid, seat = line.split()
        seats_by_pid.setdefault(pid, set()).add(seat)
    return {"processes_for_two_listed_seats": len(seats_by_pid),
            "most_seats_one_process_heard": max(len(s) for s in seats_by_pid.values())}


def leave_a_rated_game(server: LiveServer) -> dict[str, Any]:
    from server.kb_attack import Sock, move_once

    quitter, stayer = Browser(server, "127.0.8.1"), Browser(server, "127.0.8.2")
    quitter.register("Quitter")
    stayer.register("Stayer")
    table = quitter.call("POST", "/api/tables", {"name": "x", "seats": 3,
                                                 "bot_level": "random"})[1]["table"]["id"]
    token = stayer.call("POST", f"/api/tables/{table}/join", {"name": "x"})[1]["token"]
    quitter.call("POST", f"/api/tables/{table}/start")
    quitter.call("POST", f"/api/tables/{table}/leave")

    async def play() -> None:
        sock = await Sock.open(server, table, token)
        rng = random.Random(3)
        try:
            while True:
                await move_once(sock, rng)
                states = [f for f in sock.frames if f["type"] == "state"]
                if states[-1]["view"]["to_move"] is None:
                    return
        finally:
            await sock.close()

    asyncio.run(play())
    gone = Browser(server).call("GET", "/api/players/Quitter")[1]
    stayed = Browser(server).call("GET", "/api/players/Stayer")[1]
    return {"leaver_rated_games": gone["rated_games"], "leaver_mu": gone["mu"],
            "stayer_rated_games": stayed["rated_games"], "stayer_mu": stayed["mu"]}


def hints(server: LiveServer) -> dict[str, Any]:
    one, two = Browser(server, "127.0.8.3"), Browser(server, "127.0.8.4")
    one.register("Hinter")
    two.register("Partner")
    grant = one.call("POST", "/api/tables", {"name": "x", "seats": 3, "bot_level": "random"})[1]
    table, token = grant["table"]["id"], grant["token"]
    two.call("POST", f"/api/tables/{table}/join", {"name": "x"})
    one.call("POST", f"/api/tables/{table}/start")
    rated = [one.call("POST", f"/api/tables/{table}/hint", None, {"x-seat-token": token})[0]
             for _ in range(17)]
    guest = Browser(server, "127.0.8.5")
    grant = guest.call("POST", "/api/tables", {"name": "Gus", "seats": 3,
                                               "bot_level": "random"})[1]
    table, token = grant["table"]["id"], grant["token"]
    guest.call("POST", f"/api/tables/{table}/start", None, {"x-seat-token": token})
    started = time.perf_counter()
    flood = [guest.call("POST", f"/api/tables/{table}/hint", None, {"x-seat-token": token})[0]
             for _ in range(300)]
    return {
        "hints_answered_at_a_rated_table": f"{rated.count(200)}/17 (first seat on its turn: "
        f"{rated[0]})",
        "hint_flood_answered": f"{flood.count(200)}/300 in "
        f"{round(time.perf_counter() - started, 1)} s",
    }


def names_at_a_table(server: LiveServer) -> dict[str, Any]:
    Browser(server, "127.0.8.6").register("Zed")
    guest = Browser(server, "127.0.8.7")
    as_account = guest.call("POST", "/api/tables", {"name": "Zed", "seats": 5})[0]
    grant = guest.call("POST", "/api/tables", {"name": "Yan", "seats": 5})[1]
    table = grant["table"]["id"]
    seated = sum(Browser(server, "127.0.8.8").call(
        "POST", f"/api/tables/{table}/join", {"name": n})[0] == 201
        for n in ("yan", "YAN", "Y\u0430n"))
    return {"guest_sat_under_an_account_name": as_account == 201,
            "look_alikes_of_Yan_seated_beside_Yan": f"{seated}/3"}


def one_tree(src: Path) -> dict[str, Any]:
    os.environ["PYTHONPATH"] = str(src)
    with tempfile.TemporaryDirectory() as folder:
        server = LiveServer(f"sqlite:///{folder}/games.db", bot_delay=0.0, zombie_grace=0.0,
                            log_path=Path(folder) / "server.log",
                            extra=("--tables-per-minute", "600")).start()
        try:
            figures = {**names(server), **lock_out(server), **puppet_farm(server),
                       **registration_flood(server)}
        finally:
            server.stop()
        table = LiveServer(f"sqlite:///{folder}/table.db", bot_delay=0.0, zombie_grace=600.0,
                           log_path=Path(folder) / "table.log",
                           extra=("--tables-per-minute", "600")).start()
        try:
            figures |= {**leave_a_rated_game(table), **hints(table),
                        **names_at_a_table(table)}
        finally:
            table.stop()
    agent = subprocess.run([sys.executable, __file__, "--agent-only"], check=True,
                           capture_output=True, text=True, env=dict(os.environ)).stdout
    return {**figures, **json.loads(agent)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", action="append", default=[],
                        help="LABEL=PATH of a source tree's src folder")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--agent-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.agent_only:  # run under a tree's PYTHONPATH by one_tree
        with tempfile.TemporaryDirectory() as folder:
            print(json.dumps(shared_agent(Path(folder))))
        return
    random.seed(1)
    figures: dict[str, Any] = {}
    for item in args.tree:
        label, path = item.split("=", 1)
        figures[label] = one_tree(Path(path).resolve())
    print(json.dumps(figures, indent=2, ensure_ascii=False))
    if args.out:
        args.out.write_text(json.dumps(figures, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
