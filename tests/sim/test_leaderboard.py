"""``kingsbreakfast leaderboard``: the fixed protocol, a page that repeats from its seed."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("openskill")

from typer.testing import CliRunner

from kingsbreakfast.cli.main import app
from kingsbreakfast.sim.leaderboard import run_leaderboard

SHELL_AGENT = Path(__file__).resolve().parents[2] / "examples" / "draw_agent.sh"


def test_the_page_lists_every_entrant_and_repeats_from_its_seed(tmp_path: Path) -> None:
    pages = []
    for name in ("a.md", "b.md"):
        out = tmp_path / name
        result = CliRunner().invoke(app, [
            "leaderboard", "--games", "8", "--seed", "3", "--built-in", "random,greedy,heuristic",
            "--agents", f"cmd:{SHELL_AGENT}", "--output", str(out),
        ])
        assert result.exit_code == 0, result.output
        pages.append(out.read_text())
    assert pages[0] == pages[1]
    page = pages[0]
    for label in ("random", "greedy", "heuristic", f"cmd:{SHELL_AGENT}"):
        assert f"| `{label}` | 8 |" in page
    assert "not the protocol's board" in page
    assert "--seed 3" in page


def test_five_entrants_make_five_tables_and_the_board_is_sorted_by_rating() -> None:
    board = run_leaderboard(
        [f"cmd:{SHELL_AGENT}"], games=4, seed=2,
        built_in=("random", "greedy", "heuristic", "easy"),
    )
    assert board.tables == 5
    assert all(entry.games == 16 for entry in board.entries)  # 4 tables of 4 games each
    ordinals = [entry.rating.ordinal for entry in board.entries]
    assert ordinals == sorted(ordinals, reverse=True)
    assert board.entries[-1].label in ("random", f"cmd:{SHELL_AGENT}")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "6"], "multiple of 4"),
        (["--built-in", "random,greedy"], "at least 4 entrants"),
        (["--built-in", "random,random,greedy,heuristic"], "named twice"),
        (["--agents", "no_such_module_here:Agent"], "cannot import"),
    ],
)
def test_bad_settings_are_named(tmp_path: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(
        app, ["leaderboard", "--output", str(tmp_path / "x.md"), "--games", "4", *args]
    )
    assert result.exit_code != 0
    assert message in result.output
