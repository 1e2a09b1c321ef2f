"""A tournament survives the loss of any server process: a 3-round Swiss and a short arena
on three processes behind HAProxy, the Swiss's director killed with SIGKILL mid-round; the
standings match a recount from the tables, no move is lost, nobody is seated twice at once
and, nine players at threes, nobody meets anyone twice. And two accounts playing their own
seats through the proxy keep every move of theirs when the process holding their round-2
table is killed."""

from __future__ import annotations

import asyncio
from pathlib import Path

from server.kb_cluster import cluster
from server.kb_tournament_cluster import run_scenario
from server.kb_tournament_players import run_people_scenario
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


def test_two_people_finish_their_swiss_when_their_tables_process_dies(
        postgres_url: str, tmp_path: Path) -> None:
    """Round 2's table of two accounts (playing through HAProxy) loses its process to
    SIGKILL mid-game: both play every move of their own seats to the end of all three
    rounds, nothing seen is lost, and the standings are the recount."""
    with cluster(postgres_url, tmp_path, lease_seconds=2.0, bot_delay=0.0) as (proxy, servers):
        result = asyncio.run(run_people_scenario(postgres_url, proxy, servers))
    killed, shown = result["killed"], result["shown"]
    assert killed.get("pid") is not None, "their table's process was never killed"
    assert shown["status"] == "over" and shown["round"] == 3
    check_seating(shown)
    assert len(shown["games"]) == 3 and all(g["points"] is not None for g in shown["games"])
    for mine in result["tables"]:
        assert len(mine) == 3 and all(over for over, _, _ in mine.values()), result["tables"]
    assert any(reconnects for mine in result["tables"] for _, reconnects, _ in mine.values())
    assert result["own_moves"] > 0, result["sample"]
    assert result["moves_not_theirs"] == 0
    assert result["lost_moves"] == 0
    assert result["standings_lines_wrong"] == 0
