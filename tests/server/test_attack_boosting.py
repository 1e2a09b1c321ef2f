"""The rotating-puppet attack (5 puppet accounts from 2 addresses, 20 games, the puppets
leaving at the first move in rotating pairs) against a real ``kingsbreakfast serve``: the
account that plays random moves never reaches the leaderboard (docs/leaderboard.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kingsbreakfast.server.rating_rules import ABORT_MOVES
from server.kb_boost import rotating_puppets
from server.kb_live import LiveServer


def serve(folder: Path) -> LiveServer:
    return LiveServer(
        f"sqlite:///{folder / 'games.db'}", bot_delay=0.0, zombie_grace=600.0,
        log_path=folder / "server.log", extra=("--tables-per-minute", "600"),
    ).start()


@pytest.mark.timeout(600, method="thread")
def test_rotating_puppets_never_lift_a_random_player_onto_the_leaderboard(
    tmp_path: Path,
) -> None:
    live = serve(tmp_path)
    try:
        reached = rotating_puppets(live)
    finally:
        live.stop()
    assert reached["games_played"] == 20
    assert reached["games_rated"] == 0  # every game aborted: the puppets never moved
    assert reached["provisional"] is True
    assert reached["leaderboard_rank"] is None and reached["leaderboard_total"] == 0
    log = (tmp_path / "server.log").read_text()
    assert "flagged for review (early_endings)" in log


@pytest.mark.timeout(600, method="thread")
def test_puppets_that_move_before_leaving_are_flagged_and_unrated(tmp_path: Path) -> None:
    """The patient variant: the puppets make enough moves for a real game, then leave early
    (before EARLY_MOVES); their early endings come from two addresses, so the third such
    game flags the ring and unrates its games."""
    live = serve(tmp_path)
    try:
        reached = rotating_puppets(live, games=8, puppet_moves=ABORT_MOVES)
    finally:
        live.stop()
    assert reached["games_played"] == 8
    assert reached["games_rated"] == 0  # the first two were rated, then unrated by the flag
    assert reached["leaderboard_rank"] is None and reached["leaderboard_total"] == 0
    assert "flagged for review (early_endings)" in (tmp_path / "server.log").read_text()


@pytest.mark.timeout(600, method="thread")
def test_a_puppet_farm_behind_one_address_lifts_no_rating(tmp_path: Path) -> None:
    """The registration ceiling is a classroom's now (30 an hour per address, server/proof.py),
    so a farm of 12 puppets from one address, paying each proof of work, is possible: the
    boosting defence counts one address as one source however many accounts it made, so
    the third early ending flags the ring and its games are unrated."""
    live = serve(tmp_path)
    try:
        reached = rotating_puppets(live, games=8, booster_name="Farmer",
                                   puppet_moves=ABORT_MOVES, addresses=("127.0.9.5",) * 12)
    finally:
        live.stop()
    assert reached["games_played"] == 8
    assert reached["games_rated"] == 0
    assert reached["leaderboard_rank"] is None and reached["leaderboard_total"] == 0
    assert "flagged for review (early_endings)" in (tmp_path / "server.log").read_text()
