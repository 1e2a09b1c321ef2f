"""``kingsbreakfast train``: a very short run writes weights the bot can load, checkpoints,
and the learning curve (the real run is docs/analysis.md's)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("numba")
pytest.importorskip("matplotlib")

from typer.testing import CliRunner

from kingsbreakfast.bots.master import load_weights
from kingsbreakfast.cli.main import app


def test_a_short_training_run_leaves_loadable_weights_and_a_curve(tmp_path: Path) -> None:
    output = tmp_path / "master.npz"
    result = CliRunner().invoke(app, ["train", "--output", str(output), "--minutes", "0.01",
                                      "--eval-games", "40", "--seed", "3"])
    assert result.exit_code == 0, result.output
    weights = load_weights(output)
    assert weights.header["seed"] == 3
    assert weights.header["eval_vs_3_hard"]["games"] == 40
    curve = json.loads(output.with_suffix(".curve.json").read_text())
    assert len(curve) >= 2 and curve[-1]["games"] > 0
    assert output.with_suffix(".png").stat().st_size > 0
    assert len(list((tmp_path / "master-checkpoints").glob("*.npz"))) == len(curve)


def test_bad_settings_are_refused_before_any_work(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["train", "--output", str(tmp_path / "m.npz"),
                                      "--minutes", "0"])
    assert result.exit_code == 2
    assert "minutes" in result.output
    assert not (tmp_path / "m.npz").exists()


def test_a_game_budget_makes_the_run_repeatable(tmp_path: Path) -> None:
    """Same seed and game budget, same network: the clock only decides when evaluations
    happen, never what is learned."""
    import numpy as np

    outputs = []
    for run in ("a", "b"):
        output = tmp_path / run / "master.npz"
        result = CliRunner().invoke(app, [
            "train", "--output", str(output), "--minutes", "5", "--games", "512",
            "--eval-games", "20", "--seed", "4", "--hidden", "16",
        ])
        assert result.exit_code == 0, result.output
        last = sorted((tmp_path / run / "master-checkpoints").glob("*-00000512g.npz"))
        assert len(last) == 1  # the final checkpoint, whichever was best
        outputs.append(load_weights(last[0]))
    first, second = outputs
    assert first.header["games_trained"] == second.header["games_trained"] == 512
    for a, b in zip(first.arrays(), second.arrays(), strict=True):
        assert np.array_equal(a, b)
