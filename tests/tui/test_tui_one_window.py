"""A saved game is played in one window at a time: a second window that resumes it is
refused (else the two overwrite each other's moves), a lock left by a dead process is taken
over, and the list of saved games tells games apart by their last move."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kingsbreakfast.cli.main import app
from kingsbreakfast.tui import strings
from kingsbreakfast.tui.saving import GameLock, autosave_dir, saved_games

runner = CliRunner()


def _autosaved_game() -> Path:
    result = runner.invoke(app, ["play", "--plain", "--seed", "9", "--bots", "random",
                                 "--speed", "0"], input="d\nq\nn\n")
    assert result.exit_code == 0, result.output
    (game,) = saved_games()
    return game.path


def test_a_second_window_on_the_same_game_is_refused_until_the_first_is_gone() -> None:
    path = _autosaved_game()
    before = path.read_bytes()
    # the first window: another process, alive, holding the game's lock
    first = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"],
                             stdin=subprocess.PIPE)
    try:
        lock = GameLock(path)
        lock.path.write_text(f"{first.pid}\n")
        second = runner.invoke(app, ["play", "--plain", "--resume", str(path), "--speed", "0"],
                               input="1\nq\nn\n")
        assert second.exit_code == 2
        assert "open in another window" in second.output and str(first.pid) in second.output
        assert path.read_bytes() == before  # nothing written over the first window's game
    finally:
        first.communicate(b"")
    # the first window is gone without removing its lock: the lock is stale
    again = runner.invoke(app, ["play", "--plain", "--resume", str(path), "--speed", "0"],
                          input="q\nn\n")
    assert again.exit_code == 0, again.output
    assert not GameLock(path).path.exists()  # released on leaving


def test_the_saved_games_list_tells_games_apart_by_their_last_move() -> None:
    _autosaved_game()
    result = runner.invoke(app, ["saves"])
    assert result.exit_code == 0
    assert "1 move, the last: " in result.output or "moves, the last: " in result.output
    (game,) = saved_games()
    assert game.last and game.last in result.output
    assert "draws a card (" not in result.output  # a spectator's words: no card named


class _Player(io.StringIO):
    """Answers as a stubborn player would, "n" (another game) at the first "again" prompt
    and "q" at the second; at each answer in the second game it notes whether every
    unfinished autosave has this process's lock beside it."""

    def __init__(self, screen: io.StringIO) -> None:
        super().__init__()
        self.screen = screen
        self.turn = 0
        self.agains = 0
        self.locked_in_second_game: list[bool] = []

    def readline(self, size: int | None = -1) -> str:
        if self.screen.getvalue().endswith(strings.plain_again()):
            self.agains += 1
            return "n\n" if self.agains == 1 else "q\n"
        if self.agains == 1:
            unfinished = list(autosave_dir().glob("*.json"))
            self.locked_in_second_game.append(bool(unfinished) and all(
                GameLock(path).path.is_file()
                and GameLock(path).path.read_text().strip() == str(os.getpid())
                for path in unfinished))
        self.turn += 1
        return ["d", "1", "2", "3", "4", "5", "6", "7", "p", "x", ""][self.turn % 10] + "\n"


def test_a_rematch_in_the_same_window_is_locked_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """Another game in the same window goes on in a new autosave; the window's lock goes
    with it, so no second window can resume the new game while it is played."""
    screen = io.StringIO()
    player = _Player(screen)
    monkeypatch.setattr(sys, "stdin", player)
    monkeypatch.setattr(sys, "stdout", screen)
    app(["play", "--plain", "--players", "3", "--bots", "random", "--seed", "12", "--speed",
         "0"], standalone_mode=False)
    assert player.agains == 2
    assert player.locked_in_second_game and all(player.locked_in_second_game)
    assert list(autosave_dir().glob("*.lock")) == []  # released on leaving
