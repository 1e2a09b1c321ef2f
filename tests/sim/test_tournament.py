"""Tournaments: reproducible from their seed, whatever the workers; statistics add up."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from kingsbreakfast.sim import TournamentConfig, game_plan, parse_lineup, run_tournament
from kingsbreakfast.sim.report import build_report, write_csv, write_games_csv, write_json
from kingsbreakfast.sim.stats import clustered_share, summarize_bots, summarize_seats


def small_config(games: int = 12, seed: int = 3) -> TournamentConfig:
    return TournamentConfig(parse_lineup("heuristic,greedy,random", 3), games, seed)


def test_lineups_parse_with_repeats_and_options() -> None:
    lineup = parse_lineup("expert:simulations=20,medium*3", 4)
    assert [s.label for s in lineup] == ["expert:simulations=20", "medium", "medium", "medium"]
    assert lineup[0].build().name == "expert:simulations=20"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("expert,greedy", "names 2 bots for 4 seats"),
        ("wizard*4", "unknown bot 'wizard'"),
        ("greedy*x,random,random,random", "bad repeat"),
        ("ismcts:simulations=many,random*3", "bad value 'many'"),
        ("ismcts:depth=3,random*3", "unknown bot option 'depth'"),
        ("greedy:simulations=3,random*3", "takes no options"),
    ],
)
def test_bad_lineups_are_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_lineup(text, 4)


def test_seats_rotate_within_a_block_on_one_deck() -> None:
    config = TournamentConfig(parse_lineup("heuristic,greedy,random,random", 4), 8, 1)
    plans = [game_plan(config, i) for i in range(8)]
    assert {p.deck_seed for p in plans[:4]} == {plans[0].deck_seed}
    assert plans[4].deck_seed != plans[0].deck_seed
    # every line-up entry sits in every seat once per block
    for seat in range(4):
        assert sorted(p.seats[seat] for p in plans[:4]) == [0, 1, 2, 3]


def test_results_depend_on_the_seed_only_not_on_the_workers() -> None:
    config = small_config()
    one = run_tournament(config, workers=1)
    two = run_tournament(config, workers=2)
    assert one == two
    assert len(one) == 12
    assert run_tournament(small_config(seed=4), workers=1) != one


def test_statistics_add_up() -> None:
    config = small_config(games=30)
    games = run_tournament(config)
    bots = summarize_bots(config, games)
    assert sum(b.seats_played for b in bots) == 30 * 3
    # every game is won by someone: the win shares of all seats add up to the games
    assert sum(b.win_share.mean * b.seats_played for b in bots) == pytest.approx(30)
    for b in bots:
        assert b.win_share.low <= b.win_share.mean <= b.win_share.high
        assert sum(b.score_histogram.values()) == b.seats_played
    seats = summarize_seats(config, games)
    assert sum(s.win_share.mean for s in seats) == pytest.approx(1.0)


def test_clustered_interval_narrows_with_more_blocks() -> None:
    few = clustered_share([1, 0, 1, 0], [2, 2, 2, 2])
    many = clustered_share([1, 0, 1, 0] * 25, [2, 2, 2, 2] * 25)
    assert few.mean == many.mean == 0.25
    assert many.high - many.low < few.high - few.low


def test_reports_are_identical_for_the_same_seed(tmp_path: Path) -> None:
    pytest.importorskip("openskill")
    config = small_config()
    texts = []
    for run in range(2):
        games = run_tournament(config, workers=1 + run)
        report = build_report(config, games)
        write_json(report, tmp_path / f"r{run}.json")
        write_csv(report, tmp_path / f"r{run}.csv")
        write_games_csv(config, games, tmp_path / f"g{run}.csv")
        texts.append(tuple((tmp_path / f"{p}{run}.{e}").read_text()
                           for p, e in (("r", "json"), ("r", "csv"), ("g", "csv"))))
    assert texts[0] == texts[1]
    report = json.loads(texts[0][0])
    assert [r["label"] for r in report["ratings"]] == ["heuristic", "greedy", "random"]
    rows = list(csv.DictReader(texts[0][1].splitlines()))
    assert [r["bot"] for r in rows] == ["heuristic", "greedy", "random"]
    assert len(texts[0][2].splitlines()) == 1 + 12 * 3


def test_the_plot_is_drawn(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    pytest.importorskip("openskill")
    from kingsbreakfast.sim.plot import plot_tournament

    config = small_config()
    games = run_tournament(config)
    path = tmp_path / "t.png"
    plot_tournament(config, games, build_report(config, games), path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_progress_counts_every_game_once_with_several_workers() -> None:
    config = small_config(games=9)
    reported: list[int] = []
    games = run_tournament(config, workers=2, progress=reported.append)
    assert sum(reported) == len(games) == 9
    assert all(k > 0 for k in reported)
