"""The rotating-puppet attack on the leaderboard (five puppet accounts from two addresses,
twenty games beside an account that plays random moves), run against a real
``kingsbreakfast serve`` built from each given source tree in turn. Prints, per tree and per
variant (puppets leaving at the first move; puppets making a few moves first), the rank the
random player reached, its rating and how many of its games stayed rated.

    python benchmarks/rotating_puppets.py --tree before=/path/to/old/src --tree after=src
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from server.kb_boost import rotating_puppets
from server.kb_live import LiveServer

VARIANTS = {"leave_at_once": 0, "leave_after_3_moves": 3}


def one_tree(src: Path, games: int) -> dict[str, Any]:
    os.environ["PYTHONPATH"] = str(src)
    figures: dict[str, Any] = {}
    for variant, moves in VARIANTS.items():
        with tempfile.TemporaryDirectory() as folder:
            server = LiveServer(f"sqlite:///{folder}/games.db", bot_delay=0.0,
                                zombie_grace=600.0, log_path=Path(folder) / "server.log",
                                extra=("--tables-per-minute", "600")).start()
            started = time.perf_counter()
            try:
                figures[variant] = rotating_puppets(server, games, puppet_moves=moves)
            finally:
                server.stop()
            figures[variant]["seconds"] = round(time.perf_counter() - started, 1)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", action="append", default=[],
                        help="LABEL=PATH of a source tree's src folder")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    figures = {}
    for item in args.tree:
        label, path = item.split("=", 1)
        figures[label] = one_tree(Path(path).resolve(), args.games)
    print(json.dumps(figures, indent=2))
    if args.out:
        args.out.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
