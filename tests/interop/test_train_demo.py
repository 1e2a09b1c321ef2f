"""The documented training example really learns (a short run of it)."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium")

from kingsbreakfast.interop import train_demo


def test_a_short_training_run_beats_the_untrained_policy(
    capsys: pytest.CaptureFixture[str],
) -> None:
    result = train_demo.main(["--episodes", "300", "--eval-games", "120", "--players", "3"])
    assert result["after_wins"] > result["before_wins"] + 0.1
    assert "after 300 episodes" in capsys.readouterr().out
