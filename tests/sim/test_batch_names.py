"""The batch simulator is asked for bots by their registry names."""

from __future__ import annotations

import json

import pytest

from kingsbreakfast.bots import BOTS, batch_policy


def test_every_batch_policy_in_the_registry_is_one_the_simulator_plays() -> None:
    pytest.importorskip("numba")
    from kingsbreakfast.sim.batch import POLICIES, simulate

    named = [entry.name for entry in BOTS if entry.batch_policy is not None]
    assert {batch_policy(name) for name in named} == set(POLICIES)
    result = simulate(3, 3, [batch_policy(name) for name in named[:3]], seed=1)
    assert result.stats().games == 3


def test_the_batch_command_takes_a_level_by_its_name() -> None:
    pytest.importorskip("numba")
    from typer.testing import CliRunner

    from kingsbreakfast.cli.main import app

    result = CliRunner().invoke(
        app, ["batch", "--games", "20", "--players", "3", "--policy", "easy", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["policies"] == ["greedy"] * 3
    refused = CliRunner().invoke(app, ["batch", "--games", "20", "--policy", "expert"])
    assert refused.exit_code == 2 and "unknown batch policy 'expert'" in refused.output
