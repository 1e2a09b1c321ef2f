"""The bots, hint, tournament and analyze commands."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kingsbreakfast.bots.hint import utility
from kingsbreakfast.cli.main import app

runner = CliRunner()


def test_bots_lists_every_bot_and_level() -> None:
    result = runner.invoke(app, ["bots"])
    assert result.exit_code == 0
    for name in ("random", "greedy", "heuristic", "ismcts", "easy", "medium", "hard", "expert",
                 "master", "chef"):
        assert f"\n{name}\n" in "\n" + result.stdout
    # the strongest level comes first
    assert result.stdout.startswith("The strongest level:\n\nchef\n")


def test_bots_shows_each_measured_rung_of_the_ladder() -> None:
    """Every level with a measured rung says whom it was measured against and its share,
    with the interval and the number of games (docs/analysis.md, "Strength ladder")."""
    from kingsbreakfast.bots import BOTS

    measured = [entry for entry in BOTS if entry.strength is not None]
    assert {"easy", "medium", "hard", "expert", "master"} <= {e.name for e in measured}
    result = runner.invoke(app, ["bots"])
    assert result.exit_code == 0
    levels = result.stdout.split("Levels, weakest first:", 1)[1]
    blocks = {block.split("\n", 1)[0]: " ".join(block.split()[1:])
              for block in levels.strip().split("\n\n")}
    for entry in measured:
        figure = entry.strength
        assert figure is not None and figure.low < figure.share < figure.high
        assert (f"Measured: as one of four players, against three {figure.against} bots, it "
                f"wins {round(100 * figure.share)}% [{round(100 * figure.low)}–"
                f"{round(100 * figure.high)}%] of the games") in blocks[entry.name]
        assert f"{figure.games} games" in blocks[entry.name]


def test_tournament_writes_json_and_csv(tmp_path: Path) -> None:
    pytest.importorskip("openskill")
    prefix = tmp_path / "t"
    args = ["tournament", "--bots", "heuristic,greedy,random", "--players", "3",
            "--games", "6", "--seed", "2", "--output", str(prefix)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "t.json").read_text())
    assert report["tournament"]["lineup"] == ["heuristic", "greedy", "random"]
    assert len(report["seats"]) == 3
    assert (tmp_path / "t.csv").read_text().startswith("bot,seats_played,win_share")
    first = (tmp_path / "t.json").read_text()
    assert runner.invoke(app, args).exit_code == 0
    assert (tmp_path / "t.json").read_text() == first


def test_tournament_refuses_a_bad_lineup(tmp_path: Path) -> None:
    result = runner.invoke(app, ["tournament", "--bots", "greedy,wizard,random",
                                 "--players", "3", "--output", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert "unknown bot 'wizard'" in result.output


def test_hint_ranks_the_actions_of_an_unfinished_record(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    record.write_bytes(
        resources.files("kingsbreakfast.examples").joinpath("unfinished-4p.json").read_bytes()
    )
    result = runner.invoke(app, ["hint", str(record), "--json"])
    assert result.exit_code == 0, result.output
    ranking = json.loads(result.stdout)
    assert ranking and ranking[0]["behind"] == 0.0
    assert all(0 <= r["win_chance"] <= 1 for r in ranking)
    # best first by the expected R12 result, then the points: the win chance
    # alone may rise by a hair where the points fall by more
    worth = [utility(r["win_chance"], r["expected_points"]) for r in ranking]
    assert worth == sorted(worth, reverse=True)


def test_hint_refuses_a_finished_game(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    record.write_bytes(
        resources.files("kingsbreakfast.examples").joinpath("game-3p.json").read_bytes()
    )
    result = runner.invoke(app, ["hint", str(record)])
    assert result.exit_code == 2
    assert "over" in result.output


def test_analyze_answers_for_each_table_size(tmp_path: Path) -> None:
    out = tmp_path / "a.json"
    result = runner.invoke(app, ["analyze", "--bot", "greedy", "--players", "3,5",
                                 "--games", "10", "--output", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert [t["players"] for t in data["tables"]] == [3, 5]
    # a table on the terminal: a row per table size, no line past 80 columns
    rows = [line.split() for line in result.stdout.splitlines()]
    assert any(row[:2] == ["5", "10"] for row in rows)
    assert all(len(line) <= 80 for line in result.stdout.splitlines())
    bad = runner.invoke(app, ["analyze", "--players", "2,4", "--output", str(out)])
    assert bad.exit_code == 2 and "3 to 5" in bad.output


@pytest.mark.parametrize(
    ("lineup", "players", "german"),
    [
        ("random,greedy", "4", "nennt 2 Bots für 4 Plätze"),
        ("random*x", "4", "die Wiederholung in 'random*x'"),
        ("random,,greedy", "3", "enthält einen leeren Bot-Namen"),
    ],
)
def test_a_wrong_tournament_line_up_is_told_in_the_player_s_language(
    lineup: str, players: str, german: str, tmp_path: Path
) -> None:
    result = runner.invoke(app, ["--lang", "de", "tournament", "--bots", lineup, "--players",
                                 players, "--games", "1", "--output", str(tmp_path / "t")])
    assert result.exit_code == 2
    assert german in result.output
    for english in ("line-up", "seats", "empty bot name", "bad repeat"):
        assert english not in result.output


@pytest.mark.parametrize(("lineup", "german", "english"), [
    ("greedy:simulations=3,random*2", "der Bot 'greedy' nimmt keine Optionen", "takes no"),
    ("ismcts:depth=3,random*2", "unbekannte Bot-Option 'depth'", "unknown bot option"),
    ("ismcts:simulations=many,random*2", "falscher Wert 'many' für simulations", "bad value"),
    ("ismcts:simulations,random*2", "falsche Bot-Option 'simulations'", "bad bot option"),
])
def test_a_bots_wrong_options_are_told_in_the_player_s_language(
    lineup: str, german: str, english: str, tmp_path: Path
) -> None:
    result = runner.invoke(app, ["--lang", "de", "tournament", "--bots", lineup, "--players",
                                 "3", "--games", "1", "--output", str(tmp_path / "t")])
    assert result.exit_code == 2, result.output
    assert german in result.output and english not in result.output


@pytest.mark.parametrize("option", ["--output", "--plot"])
def test_a_missing_results_folder_is_refused_before_any_game(option: str,
                                                              tmp_path: Path) -> None:
    """Said in one translated line before the games are played, not a traceback after."""
    missing = tmp_path / "no-such-folder" / "results"
    args = ["--lang", "de", "tournament", "--bots", "random*3", "--players", "3",
            "--games", "100000"]
    args += [option, str(missing)] if option == "--output" else [
        "--output", str(tmp_path / "t"), option, str(missing) + ".png"]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "Den Ordner" in result.output and "gibt es nicht" in result.output
    assert "Traceback" not in result.output and not list(tmp_path.glob("t*"))
