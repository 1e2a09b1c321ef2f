"""The game in a real terminal (tmux): what stays in the scrollback, what a closed window
leaves behind. Skipped where tmux is not installed."""

from __future__ import annotations

from pathlib import Path

from real_terminal import Terminal


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
