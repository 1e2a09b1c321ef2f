"""The command line speaks the player's language: every command's --help, a mistake in the
options in one translated line (exit status 2), the reports; machine output stays English."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.main import get_command

from kingsbreakfast.cli.main import app, build_command
from kingsbreakfast.i18n import LANGUAGES, language

TRANSLATED = [code for code in LANGUAGES if code != "en"]


def run_command(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("KINGSBREAKFAST_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    return subprocess.run([sys.executable, "-m", "kingsbreakfast", *args], capture_output=True,
                          text=True, timeout=120, env={**clean, "COLUMNS": "80", **env})


def command_names() -> list[str]:
    return sorted(get_command(app).commands)  # type: ignore[attr-defined]


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_commands_help_is_translated(code: str) -> None:
    """Each command's description and each option's help differ from the English ones."""
    english = build_command("en")
    english_help = {name: (cmd.help, [p.help for p in cmd.params])
                    for name, cmd in english.commands.items()}
    with language(code):
        command = build_command(code)
    assert command.help != get_command(app).help
    for name, sub in command.commands.items():
        help_text, options = english_help[name]
        assert sub.help and sub.help != help_text, f"{code}: {name}'s description is English"
        for param, before in zip(sub.params, options, strict=True):
            if before:
                assert param.help != before, f"{code}: {name} {param.name} is English"
    build_command("en")  # leave the shared app as the other tests expect it


@pytest.mark.parametrize(("env", "heading"), [
    ({"KINGSBREAKFAST_LANG": "de"}, "Aufruf:"),
    ({"LANG": "hu_HU.UTF-8"}, "Használat:"),
    ({"LANGUAGE": "fr"}, "Utilisation :"),
])
def test_the_help_follows_the_environment(env: dict[str, str], heading: str) -> None:
    done = run_command("play", "--help", **env)
    assert done.returncode == 0, done.stderr
    assert heading in done.stdout


def test_lang_on_the_line_chooses_the_help_language() -> None:
    done = run_command("--lang", "vi", "demo", "--help", KINGSBREAKFAST_LANG="de")
    assert "Cách dùng:" in done.stdout and "Số người chơi, từ 3 đến 5." in done.stdout


@pytest.mark.parametrize("args", [
    ["play", "--help", "--lang", "de"], ["play", "--lang=de", "--help"],
    ["--lang", "de", "play", "--help"],
])
def test_lang_after_the_command_translates_the_whole_help(args: list[str]) -> None:
    """Usage line, panel titles and texts alike, wherever ``--lang`` stands on the line
    (the help may be printed before the option is read)."""
    done = run_command(*args, KINGSBREAKFAST_LANG="en")
    assert done.returncode == 0, done.stderr
    assert "Aufruf:" in done.stdout and "Optionen" in done.stdout, done.stdout
    assert "Usage:" not in done.stdout and "─ Options ─" not in done.stdout


@pytest.mark.parametrize(("args", "words"), [
    (["play", "--speed", "fast"], ["--speed", "'fast'", "0.5", "kingsbreakfast play --help"]),
    (["play", "--seed", "abc"], ["--seed", "'abc'", "kingsbreakfast play --help"]),
    (["play", "--bogus"], ["--bogus", "kingsbreakfast play --help"]),
    (["plya"], ["'plya'", "play", "kingsbreakfast --help"]),
    (["hint"], ["RECORD", "kingsbreakfast hint --help"]),
])
@pytest.mark.parametrize("code", LANGUAGES)
def test_an_option_mistake_is_one_translated_line(code: str, args: list[str],
                                                  words: list[str]) -> None:
    done = run_command("--lang", code, *args)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    for word in words:
        assert word in lines[0], (code, lines[0])
    english = ("Invalid value", "No such", "Missing", "Usage")
    assert not any(text in lines[0] for text in english), lines[0]
    if code != "en":
        assert not lines[0].startswith("error:"), lines[0]


def test_bots_are_described_in_the_players_language() -> None:
    done = run_command("--lang", "fr", "bots")
    assert done.returncode == 0
    assert "Niveaux, du plus faible au plus fort :" in done.stdout
    assert "Random picks" not in done.stdout
    assert all(len(line) <= 80 for line in done.stdout.splitlines())


def test_tournament_speaks_german_and_its_files_stay_english(tmp_path: Path) -> None:
    prefix = tmp_path / "t"
    done = run_command("--lang", "de", "tournament", "--games", "8", "--bots",
                       "random,greedy,random,random", "--output", str(prefix))
    assert done.returncode == 0, done.stderr
    assert "Siegesanteil" in done.stdout and "Geschrieben:" in done.stdout
    assert all(len(line) <= 80 for line in done.stdout.splitlines())
    report = json.loads((tmp_path / "t.json").read_text())
    assert {"bots", "seats", "ratings"} <= set(report)  # the machine's keys, in English
    assert (tmp_path / "t.csv").read_text().splitlines()[0].startswith("bot,seats_played,win_share")


def test_hint_json_stays_english() -> None:
    done = run_command("--lang", "hu", "hint", "unfinished-4p", "--json")
    assert done.returncode == 0, done.stderr
    ranking = json.loads(done.stdout)
    assert set(ranking[0]) == {"action", "expected_points", "win_chance", "behind", "exact",
                               "result", "reason"}
    assert any(entry["action"].startswith(("take", "draw", "feed")) for entry in ranking)
    # a reason is a key and dish ids for programs, never a translated sentence
    keys = {entry["reason"]["key"] for entry in ranking}
    assert keys <= {"deny_leader", "deny_leader_discarded", "discarded", "scores", "draw",
                    "feed_leader", "feed", "place", "pass"}
    for entry in ranking:
        dish = entry["reason"]["params"].get("dish")
        assert dish is None or dish in ("bread", "cheese", "ham", "chicken", "fruit", "cake",
                                        "wine")


def test_hint_checks_the_seat_and_names_whose_moves_are_ranked() -> None:
    bad = run_command("hint", "unfinished-4p", "--seat", "7")
    assert bad.returncode == 2 and "0 to 3, not 7" in bad.stderr and "None" not in bad.stderr
    other = run_command("hint", "unfinished-4p", "--seat", "0")
    assert other.returncode == 0
    assert "your final points" not in other.stdout and "of seat 2" in other.stdout


def test_demo_names_the_bots_and_counts_them_in_the_players_language() -> None:
    done = run_command("--lang", "hu", "demo", "--players", "3", "--bots", "medium",
                       "--seed", "1")
    assert "közepes" in done.stdout.splitlines()[0]
    wrong = run_command("demo", "--players", "3", "--bots", "random,random")
    assert "names 2 bots" in wrong.stderr
    one = run_command("demo", "--players", "4", "--bots", "random,random,random,random,x")
    assert "names 5 bots" in one.stderr


def test_bots_lists_the_plain_bots_under_a_heading_of_their_own() -> None:
    """Only the strongest level stands under "The strongest level"; the bots the levels are
    built on (random, greedy, ...) come under their own heading."""
    done = run_command("bots")
    lines = done.stdout.splitlines()
    strongest = lines.index("The strongest level:")
    heading = lines.index("The bots the levels are built on:")
    first_bot = lines.index("random")
    assert strongest < heading < first_bot
    named = [line for line in lines[strongest + 1:heading] if line and not line.startswith(" ")]
    assert named == ["chef"]
