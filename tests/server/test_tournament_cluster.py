"""A tournament survives the loss of any server process: a 3-round Swiss and a short arena
on three processes behind HAProxy, the Swiss's director killed with SIGKILL mid-round; the
standings match a recount from the tables, no move is lost, nobody is seated twice at once
and, nine players at threes, nobody meets anyone twice."""

from __future__ import annotations

import asyncio
from pathlib import Path

from server.kb_cluster import cluster
from server.kb_tournament_cluster import run_scenario
from server.kb_tournaments import check_seating


def test_a_swiss_and_an_arena_survive_a_kill_9(postgres_url: str, tmp_path: Path) -> None:
    with cluster(postgres_url, tmp_path, lease_seconds=2.0, bot_delay=0.02) as (proxy, servers):
        result = asyncio.run(run_scenario(postgres_url, proxy.base, proxy.ws_base, servers,
                                          arena_seconds=10.0))
    assert result["killed_pid"] is not None, "the Swiss's director was never killed"
    assert result["director_taken_over_s"] is not None
    assert result["swiss_rounds"] == 3 and result["swiss_tables"] == 9
    assert result["swiss_repeated_meetings"] == 0
    assert result["arena_tables"] >= 1
    assert result["lost_moves"] == 0
    assert result["standings_lines_wrong"] == 0
    check_seating(result["swiss"])
    arena_games = result["arena"]["games"]
    assert all(g["state"] == "over" for g in arena_games)
