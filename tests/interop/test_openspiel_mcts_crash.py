"""The documented OpenSpiel crash is still what OpenSpiel does: its C++ ``MCTSBot`` answers
on a C++ game and dies of a segmentation fault on games written in Python, OpenSpiel's own
and this one (docs/research.md). When OpenSpiel fixes it this test fails, and the docs and
examples/openspiel_mcts_crash.py are to be updated."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "openspiel_mcts_crash.py"


def test_the_reproduction_shows_the_crash_in_a_subprocess() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT)], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "tic_tac_toe: answers with action" in done.stdout
    assert "python_kings_breakfast: crashes: killed by signal 11" in done.stdout
    assert "python_tic_tac_toe: crashes: killed by signal 11" in done.stdout
