"""The research commands: ``batch`` and ``tensor-layout``."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from kingsbreakfast.cli.main import app

runner = CliRunner()


def test_batch_prints_statistics_and_json() -> None:
    pytest.importorskip("numba")
    result = runner.invoke(
        app, ["batch", "--games", "2000", "--players", "3", "--policy", "greedy",
              "--policy", "random", "--policy", "random", "--seed", "4"],
    )
    assert result.exit_code == 0, result.output
    assert "2000 games, 3 players" in result.output
    assert "greedy" in result.output and "games/s" in result.output
    result = runner.invoke(app, ["batch", "--games", "500", "--json", "--variant",
                                 "empty_table=must_draw"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 500
    assert data["rules"]["empty_table"] == "must_draw"
    assert abs(sum(data["win_rate"]) - 1) < 1e-9


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--players", "7"], "players must be from 3 to 5"),
        (["--policy", "smart"], "unknown batch policy 'smart'"),
        (["--variant", "dragon_min_on_table=3"], "dragon_min_on_table"),
    ],
)
def test_batch_refuses_bad_options(arguments: list[str], message: str) -> None:
    pytest.importorskip("numba")
    result = runner.invoke(app, ["batch", "--games", "10", *arguments])
    assert result.exit_code == 2
    assert message in result.output


def test_tensor_layout_lists_every_field() -> None:
    from kingsbreakfast.interop import encoding

    result = runner.invoke(app, ["tensor-layout"])
    assert result.exit_code == 0
    for field in encoding.FIELDS:
        assert field.name in result.output
    assert f"{encoding.SIZE} entries" in result.output
