"""The command line as a newcomer meets it: --version, readable help, a missing extra named
before any work, example names wherever a record goes, one way to pick bots and variants."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kingsbreakfast.cli.main import app

runner = CliRunner()


def run_command(*args: str) -> subprocess.CompletedProcess[str]:
    """The installed command as a shell runs it (its help is built the same way)."""
    env = {**os.environ, "COLUMNS": "100", "KINGSBREAKFAST_LANG": "en"}
    return subprocess.run([sys.executable, "-m", "kingsbreakfast", *args], capture_output=True,
                          text=True, timeout=60, env=env)


def test_version() -> None:
    done = run_command("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"kingsbreakfast {metadata.version('kingsbreakfast')}"


@pytest.mark.parametrize("command", [[], ["play"], ["demo"], ["tournament"], ["replay"]])
def test_help_names_values_by_what_they_are(command: list[str]) -> None:
    done = run_command(*command, "--help")
    assert done.returncode == 0, done.stderr
    for typed in ("<bool>", "<str>", "<int>", "<float>", "<path>", "<list[str]>"):
        assert typed not in done.stdout, f"{typed} in the help of {command}"
    if command == ["play"]:
        assert "--variant             NAME=VALUE" in done.stdout
        assert "--resume              [FILE]" in done.stdout


def test_the_tagline_mentions_playing() -> None:
    assert "play" in run_command("--help").stdout.split("Options")[0].lower()


def missing(*names: str) -> Any:
    real = importlib.util.find_spec

    def find_spec(name: str, *args: Any) -> Any:
        return None if name in names else real(name, *args)

    return find_spec


def test_a_tournament_without_its_extra_stops_before_playing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", missing("openskill"))
    prefix = tmp_path / "t"
    result = runner.invoke(app, ["tournament", "--games", "4", "--output", str(prefix)])
    assert result.exit_code == 2
    assert "from the 'sim' extra: " in result.output and "[sim]'" in result.output
    assert "openskill" in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())  # nothing was played or written


def test_analyze_plots_without_matplotlib_stops_before_simulating(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", missing("matplotlib"))
    out = tmp_path / "a.json"
    result = runner.invoke(app, ["analyze", "--games", "2", "--players", "3", "--output",
                                 str(out), "--plots", str(tmp_path / "plots")])
    assert result.exit_code == 2
    assert "from the 'sim' extra: " in result.output and "[sim]'" in result.output
    assert not out.exists()


def test_hint_takes_an_example_name_as_replay_does() -> None:
    result = runner.invoke(app, ["hint", "unfinished-4p", "--json"])
    assert result.exit_code == 0, result.output
    assert result.output.lstrip().startswith("[")


def test_play_resumes_an_example_by_name() -> None:
    result = runner.invoke(app, ["play", "--plain", "--speed", "0", "--resume", "unfinished-4p"],
                           input="")
    assert result.exit_code == 0, result.output
    assert "kingsbreakfast play --resume" in result.output


def test_demo_takes_bots_and_variants() -> None:
    result = runner.invoke(app, ["demo", "--players", "3", "--seed", "2", "--bots",
                                 "greedy,random,easy", "--variant", "empty_table=must_draw"])
    assert result.exit_code == 0, result.output
    assert "3 bots (greedy, random, easy), seed 2" in result.output
    wrong = runner.invoke(app, ["demo", "--players", "3", "--bots", "greedy,random"])
    assert wrong.exit_code == 2
    assert "2 bots for 3 seats" in wrong.output
    unknown = runner.invoke(app, ["demo", "--bots", "genius"])
    assert unknown.exit_code == 2 and "genius" in unknown.output


def test_rules_into_a_pipe_are_the_markdown_source() -> None:
    result = runner.invoke(app, ["rules", "--lang", "en"])
    assert result.exit_code == 0
    assert result.output.startswith("# ")


@pytest.mark.parametrize(
    ("args", "module", "extra"),
    [
        (["batch", "--games", "10"], "numba", "batch"),
        (["tournament", "--games", "4", "--plot", "t.png"], "matplotlib", "sim"),
    ],
)
def test_every_command_names_its_missing_extra_in_one_line(
    args: list[str], module: str, extra: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", missing(module))
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    (line,) = result.output.strip().splitlines()
    assert line.startswith(f"error: this needs {module}, from the '{extra}' extra: ")
    assert line.endswith(f"[{extra}]'") and " install " in line
