"""Options every command shares: ``--lang`` and ``--variant`` read and fail the same way
everywhere, and a game is told in words by one loop whether it is watched or replayed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from kingsbreakfast.cli.main import app
from kingsbreakfast.cli.options import parse_variants
from kingsbreakfast.engine import KingsBreakfastError, Rules

runner = CliRunner()
RULES_COMMANDS = ("play", "demo", "tournament", "analyze", "batch")


def commands() -> dict[str, Any]:
    group: Any = typer.main.get_command(app)
    return dict(group.commands)


def option_names(command: Any) -> set[str]:
    return {name for param in command.params for name in param.opts}


def test_every_command_takes_lang_and_only_variant_for_rules() -> None:
    for name, command in commands().items():
        names = option_names(command)
        assert "--lang" in names, name
        assert "--empty-table" not in names and "--dragon-min-on-table" not in names, name
        assert ("--variant" in names) == (name in RULES_COMMANDS), name


@pytest.mark.parametrize("command", ["bots", "rules", "examples", "tensor-layout"])
def test_an_unknown_language_stops_any_command(command: str) -> None:
    result = runner.invoke(app, [command, "--lang", "xx"])
    assert result.exit_code == 2
    assert "unknown language 'xx'" in result.output


def test_the_command_lang_overrides_the_whole_line_and_none_keeps_it() -> None:
    german = runner.invoke(app, ["--lang", "de", "rules"])
    assert german.exit_code == 0 and german.stdout.startswith("# So spielt man King Lui")
    still = runner.invoke(app, ["--lang", "de", "rules", "--lang", "vi"])
    assert "Rồng ngáo" in still.stdout


def test_variants_parse_in_one_place() -> None:
    assert parse_variants(None) == Rules()
    assert parse_variants([" empty_table = must_draw", "dragon_min_on_table=2"]) == Rules(
        "must_draw", 2
    )
    with pytest.raises(KingsBreakfastError, match="write it as NAME=VALUE"):
        parse_variants(["must_draw"])


@pytest.mark.parametrize(
    ("switch", "named", "allowed"),
    [
        ("dragon_min_on_table=3", "dragon_min_on_table", "1, 2"),
        ("empty_table=skip", "empty_table", "draw_or_feed, must_draw"),
        ("colour=red", "colour", "empty_table, dragon_min_on_table"),
    ],
)
@pytest.mark.parametrize("command", ["demo", "tournament", "analyze"])
def test_a_bad_variant_names_the_switch_and_what_it_takes(
    command: str, switch: str, named: str, allowed: str, tmp_path: Path
) -> None:
    extra = ["--output", str(tmp_path / "out")] if command != "demo" else []
    result = runner.invoke(app, [command, "--variant", switch, *extra])
    assert result.exit_code == 2
    assert named in result.output and allowed in result.output


def test_demo_and_analyze_play_the_variant(tmp_path: Path) -> None:
    record = tmp_path / "demo.json"
    result = runner.invoke(app, ["demo", "--seed", "3", "--players", "3", "--variant",
                                 "dragon_min_on_table=2", "--save", str(record)])
    assert result.exit_code == 0, result.output
    assert json.loads(record.read_text())["rules"]["dragon_min_on_table"] == 2
    out = tmp_path / "a.json"
    result = runner.invoke(app, ["analyze", "--bot", "random", "--players", "3", "--games",
                                 "3", "--output", str(out), "--variant",
                                 "empty_table=must_draw"])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["rules"]["empty_table"] == "must_draw"


def test_tournament_plays_the_variant(tmp_path: Path) -> None:
    pytest.importorskip("openskill")
    prefix = tmp_path / "t"
    result = runner.invoke(app, ["tournament", "--bots", "greedy,random,easy", "--players",
                                 "3", "--games", "3", "--output", str(prefix), "--variant",
                                 "dragon_min_on_table=2"])
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "t.json").read_text())
    assert report["tournament"]["rules"]["dragon_min_on_table"] == 2


def test_a_watched_game_and_its_replay_are_told_the_same(tmp_path: Path) -> None:
    record = tmp_path / "demo.json"
    watched = runner.invoke(app, ["demo", "--seed", "8", "--players", "4", "--save",
                                  str(record), "--lang", "en"])
    assert watched.exit_code == 0, watched.output
    replayed = runner.invoke(app, ["replay", str(record), "--lang", "en"])
    assert replayed.exit_code == 0, replayed.output

    def turns(text: str) -> list[str]:
        lines = text.splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith("  "))
        return lines[start : lines.index("", start)]

    told = turns(watched.stdout)
    assert len(told) > 40
    assert told == turns(replayed.stdout)
