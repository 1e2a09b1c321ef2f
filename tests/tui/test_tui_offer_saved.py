"""The first minutes: ``scripts/play.sh`` offers the unfinished game before a new one, and
each game started is one entry among the saved games (a start and quit before any move adds
none, a resumed game goes on in its own entry)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from kingsbreakfast.cli.main import app
from kingsbreakfast.tui import strings
from kingsbreakfast.tui.saving import DATA_DIR_VAR, saved_games

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def play(*args: str, answers: str) -> str:
    result = runner.invoke(app, ["play", "--plain", "--speed", "0", *args], input=answers)
    assert result.exit_code == 0, result.output
    return result.output


def test_a_start_and_quit_before_any_move_adds_no_saved_game() -> None:
    for seed in range(3):
        text = play("--players", "3", "--seed", str(seed), "--bots", "random", answers="q\n")
        assert strings.not_kept() in text
        assert strings.plain_save_before_quit() not in text  # nothing to save: no question
        assert saved_games() == []
    play("--seed", "4", answers="")  # the input ends at once: nothing played either
    assert saved_games() == []


def test_a_game_is_one_entry_however_often_it_is_resumed() -> None:
    play("--seed", "5", "--bots", "random", answers="d\nq\nn\n")
    (first,) = saved_games()
    for _ in range(2):
        text = play("--resume", answers="\nq\nn\n")  # the only game, resumed and left
        assert strings.not_kept() not in text
        (again,) = saved_games()
        assert again.path == first.path


def test_offer_saved_resumes_the_unfinished_game_first() -> None:
    play("--seed", "6", "--bots", "random", answers="d\nq\nn\n")
    (before,) = saved_games()
    text = play("--offer-saved", "--seed", "7", answers="\nd\nq\nn\n")
    assert strings.offer_saved_game(1) in text
    (after,) = saved_games()  # the same game went on: still one entry, two moves more
    assert after.path == before.path and after.moves > before.moves
    text = play("--offer-saved", "--seed", "8", "--bots", "easy", answers="n\nd\nq\nn\n")
    assert len(saved_games()) == 2  # n: a new game, an entry of its own


def test_the_saved_games_list_names_the_opponents_levels() -> None:
    play("--players", "3", "--seed", "9", "--bots", "random,easy", answers="d\nq\nn\n")
    result = runner.invoke(app, ["saves"])
    assert f"Ann, {strings.bot_label('Bob', 'random')}, {strings.bot_label('Cid', 'easy')}" \
        in result.output


def test_play_sh_offers_the_unfinished_game(tmp_path: Path) -> None:
    """scripts/play.sh run for real, from a copy of the repository whose .venv is already
    installed (its launcher runs this checkout's kingsbreakfast): run again, it offers the
    game left unfinished instead of starting a new one."""
    if shutil.which("bash") is None or shutil.which("cksum") is None:
        raise AssertionError("bash and cksum are needed to run scripts/play.sh")
    copy = tmp_path / "repo"
    (copy / "scripts").mkdir(parents=True)
    for name in ("play.sh", "venv.sh"):
        shutil.copy(ROOT / "scripts" / name, copy / "scripts" / name)
    venv = copy / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages",
                    str(venv)], check=True)
    # kb_venv wants a pip in .venv: this interpreter's, through its site-packages
    (venv / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
     / "outer.pth").write_text("".join(f"{p}\n" for p in sys.path if p))  # a path a line
    launcher = venv / "bin" / "kingsbreakfast"
    launcher.write_text(f"#!/bin/sh\nexec {sys.executable} -m kingsbreakfast \"$@\"\n")
    launcher.chmod(0o755)
    stamp = subprocess.run(
        ["bash", "-c", "{ git rev-parse HEAD 2>/dev/null || true; git status --porcelain "
         "-- src pyproject.toml 2>/dev/null || true; .venv/bin/python -V; } | cksum"],
        cwd=copy, capture_output=True, text=True, check=True,
        env={**os.environ, "GIT_CEILING_DIRECTORIES": str(tmp_path)},
    ).stdout
    (venv / ".kingsbreakfast-installed").write_text(stamp)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), DATA_DIR_VAR: os.environ[DATA_DIR_VAR],
           "GIT_CEILING_DIRECTORIES": str(tmp_path), "TERM": "dumb"}

    def play_sh(answers: str) -> str:
        done = subprocess.run(["bash", "scripts/play.sh", "--seed", "3", "--speed", "0"],
                              cwd=copy, input=answers, capture_output=True, text=True,
                              env=env, timeout=300, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "installing" not in done.stderr  # the copy's .venv was taken as installed
        return done.stdout

    first = play_sh("d\nq\nn\n")
    assert strings.offer_saved_game(1) not in first  # nothing saved yet: a new game
    (saved,) = saved_games()
    again = play_sh("\nq\nn\n")
    assert strings.saved_games_title() in again and strings.offer_saved_game(1) in again
    assert [game.path for game in saved_games()] == [saved.path]

