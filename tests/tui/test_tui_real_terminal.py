"""The game in a real terminal (tmux): what stays in the scrollback, what a closed window
leaves behind. Skipped where tmux is not installed."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from real_terminal import Terminal, alive

from kingsbreakfast.tui.saving import finished_dir, saved_games


def test_a_plain_hand_over_leaves_nothing_of_the_previous_hand_in_the_scrollback(
    tmp_path: Path,
) -> None:
    """Hot-seat: while the next player reads "pass the keyboard", scrolling back shows no
    line of the hand just played (R7: drawn cards are hidden from the others)."""
    term = Terminal(["play", "--plain", "--players", "3", "--hotseat", "3", "--seed", "7",
                     "--speed", "0", "--names", "Ann,Bob,Cyd"], cwd=tmp_path)
    try:
        term.wait_for("Pass the keyboard to Bob")
        term.type_line("")
        term.wait_for("seen by Bob")
        term.type_line("d")  # Bob draws a card: only Bob may know which
        term.wait_for("Pass the keyboard to Cyd")
        leaked = [line for line in term.history() if line.strip()]
        assert leaked == [], f"{len(leaked)} lines of Bob's turn kept: {leaked}"
        term.type_line("")
        term.wait_for("seen by Cyd")
        assert "Bob draws a card (" not in "\n".join([*term.history(), term.screen()])
    finally:
        term.close()


def test_closing_the_terminal_while_bots_play_at_full_speed_ends_the_game(
    tmp_path: Path,
) -> None:
    """Twenty windows closed while bots move with no pause: no process is left behind,
    and each game is saved (its autosave is there to resume)."""
    left_behind = []
    for attempt in range(20):
        term = Terminal(["play", "--speed", "0", "--hotseat", "0", "--bots", "random",
                         "--seed", str(attempt)], cwd=tmp_path)
        term.wait_for("Round")
        pid = term.pid
        term.close()
        try:
            # generous: a process that is still there after this is left behind for good
            term.wait_until(lambda pid=pid: not alive(pid), deadline=20)  # type: ignore[misc]
        except AssertionError:
            left_behind.append(pid)
            os.kill(pid, signal.SIGKILL)
    assert left_behind == []
    assert saved_games() or list(finished_dir().glob("*.json"))
