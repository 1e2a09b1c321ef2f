"""``kingsbreakfast train``: a very short run writes weights the bot can load, checkpoints,
and the learning curve (the real run is docs/analysis.md's)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")
pytest.importorskip("matplotlib")

from typer.testing import CliRunner  # noqa: E402

from kingsbreakfast.bots.master import MasterWeights, load_weights  # noqa: E402
from kingsbreakfast.cli.main import app  # noqa: E402


def test_a_short_training_run_leaves_loadable_weights_and_a_curve(tmp_path: Path) -> None:
    output = tmp_path / "master.npz"
    result = CliRunner().invoke(app, ["train", "--output", str(output), "--minutes", "0.01",
                                      "--eval-games", "40", "--seed", "3",
                                      "--backend", "numpy"])
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
                                      "--minutes", "0", "--backend", "numpy"])
    assert result.exit_code == 2
    assert "minutes" in result.output
    assert not (tmp_path / "m.npz").exists()


def budget_run(tmp_path: Path, name: str, seed: int, games: int, *extra: str) -> MasterWeights:
    """The last checkpoint of a small numpy run of ``games`` games (whichever was best)."""
    output = tmp_path / name / "master.npz"
    result = CliRunner().invoke(app, [
        "train", "--output", str(output), "--minutes", "5", "--games", str(games),
        "--eval-games", "20", "--seed", str(seed), "--hidden", "16", "--backend", "numpy",
        *extra,
    ])
    assert result.exit_code == 0, result.output
    last = sorted((tmp_path / name / "master-checkpoints").glob(f"*-{games:08d}g.npz"))
    assert len(last) == 1
    return load_weights(last[0])


def same_network(first: MasterWeights, second: MasterWeights) -> bool:
    return all(np.array_equal(a, b)
               for a, b in zip(first.arrays(), second.arrays(), strict=True))


def test_a_game_budget_makes_the_run_repeatable(tmp_path: Path) -> None:
    """Same seed and game budget, same network: the clock only decides when evaluations
    happen, never what is learned."""
    first = budget_run(tmp_path, "a", 4, 512)
    second = budget_run(tmp_path, "b", 4, 512)
    assert first.header["games_trained"] == second.header["games_trained"] == 512
    assert same_network(first, second)


def test_the_numpy_learner_learns_what_it_is_shown() -> None:
    """The hand-written backward pass: on a fixed batch the loss falls to a fifth, and every
    gradient agrees with finite differences."""
    import numpy as np

    from kingsbreakfast.sim.learners import NumpyLearner

    rng = np.random.default_rng(0)
    x = rng.normal(size=(256, 12)).astype(np.float32)
    y = np.stack([np.tanh(x[:, 0] * x[:, 1]), x[:, 2] ** 2], axis=1).astype(np.float32)
    learner = NumpyLearner(12, 32, 3e-3, seed=1)
    losses = [learner.step(x, y) for _ in range(300)]
    assert losses[-1] < 0.2 * losses[0]
    assert [a.shape for a in learner.layers()] == [(12, 32), (32,), (32, 32), (32,), (32, 2), (2,)]
    # every gradient matches finite differences (in float64) on a few entries
    probe = NumpyLearner(12, 8, 0.0, seed=2)
    probe.params = [p.astype(np.float64) for p in probe.params]
    x64, y64 = x.astype(np.float64), y.astype(np.float64)
    _, grads = probe.gradients(x64, y64)
    for index, param in enumerate(probe.params):
        for flat in (0, param.size // 2, param.size - 1):
            where = np.unravel_index(flat, param.shape)
            param[where] += 1e-6
            up = probe.gradients(x64, y64)[0]
            param[where] -= 2e-6
            down = probe.gradients(x64, y64)[0]
            param[where] += 1e-6
            assert grads[index][where] == pytest.approx((up - down) / 2e-6, rel=1e-4, abs=1e-8)


def test_averaging_checkpoints_gives_their_mean(tmp_path: Path) -> None:
    import numpy as np

    from kingsbreakfast.bots.master import default_weights_path, save_weights

    shipped = load_weights(default_weights_path())
    names = ("w1", "b1", "w2", "b2", "w3", "b3")
    first = tmp_path / "a.npz"
    second = tmp_path / "b.npz"
    save_weights(first, dict(zip(names, shipped.arrays(), strict=True)), {"seed": 1})
    save_weights(second, {n: a + 1.0 for n, a in zip(names, shipped.arrays(), strict=True)},
                 {"seed": 1})
    out = tmp_path / "avg.npz"
    result = CliRunner().invoke(app, ["average-weights", str(out), str(first), str(second),
                                      "--note", "two"])
    assert result.exit_code == 0, result.output
    averaged = load_weights(out)
    for got, base in zip(averaged.arrays(), shipped.arrays(), strict=True):
        np.testing.assert_allclose(got, base + 0.5, atol=1e-5)
    assert averaged.header["averaged_checkpoints"] == ["a.npz", "b.npz"]
    assert averaged.header["note"] == "two"
    refused = CliRunner().invoke(app, ["average-weights", str(out), str(tmp_path / "no.npz")])
    assert refused.exit_code != 0 and "no.npz" in refused.output


def test_joined_networks_answer_their_mean_and_the_bot_reads_the_wider_file(
    tmp_path: Path,
) -> None:
    """An ensemble written as one wider network: the joined file's values are the mean of
    its parts' on any rows, and the master bot plays from it."""
    import random

    import numpy as np

    from kingsbreakfast.bots.master import MasterBot, default_weights_path, save_weights
    from kingsbreakfast.engine import State

    shipped = load_weights(default_weights_path())
    names = ("w1", "b1", "w2", "b2", "w3", "b3")
    rng = np.random.default_rng(5)
    first, second = tmp_path / "a.npz", tmp_path / "b.npz"
    save_weights(first, dict(zip(names, shipped.arrays(), strict=True)), {"seed": 1})
    save_weights(second, {n: a + rng.normal(0, 0.05, a.shape)
                          for n, a in zip(names, shipped.arrays(), strict=True)}, {"seed": 2})
    out = tmp_path / "joined.npz"
    result = CliRunner().invoke(app, ["join-weights", str(out), str(first), str(second)])
    assert result.exit_code == 0, result.output
    joined, a, b = load_weights(out), load_weights(first), load_weights(second)
    assert joined.w1.shape == (shipped.w1.shape[0], 2 * shipped.w1.shape[1])
    assert joined.header["hidden"] == [2 * shipped.w1.shape[1], 2 * shipped.w2.shape[1]]
    rows = rng.normal(size=(40, shipped.w1.shape[0]))
    np.testing.assert_allclose(joined.values(rows), (a.values(rows) + b.values(rows)) / 2,
                               atol=1e-5)
    state = State.new(4, random.Random(3))
    bot = MasterBot(str(out))
    while not state.is_over:
        state.play(bot.act(state.view(state.to_move), random.Random(0)))
    refused = CliRunner().invoke(app, ["join-weights", str(out), str(first)])
    assert refused.exit_code != 0 and "two" in refused.output


def test_widening_keeps_the_network_and_training_starts_from_it(tmp_path: Path) -> None:
    """A 128-unit file widened to 160 units computes the same values; a short run started
    from it trains the wider network."""
    import numpy as np

    from kingsbreakfast.bots.master import MasterWeights, default_weights_path
    from kingsbreakfast.sim.train import widen

    shipped = load_weights(default_weights_path())
    w1, b1, w2, b2, w3, b3 = widen(list(shipped.arrays()), 160, np.random.default_rng(1))
    wide = MasterWeights(w1, b1, w2, b2, w3, b3, {})
    assert wide.w1.shape[1] == wide.w2.shape[1] == 160
    rows = np.random.default_rng(2).normal(size=(30, shipped.w1.shape[0]))
    np.testing.assert_allclose(wide.values(rows), shipped.values(rows), atol=1e-9)
    output = tmp_path / "wide.npz"
    result = CliRunner().invoke(app, [
        "train", "--output", str(output), "--minutes", "5", "--games", "256",
        "--eval-games", "20", "--hidden", "160", "--init", str(default_weights_path()),
        "--backend", "numpy", "--eval-every-games", "256",
    ])
    assert result.exit_code == 0, result.output
    assert load_weights(output).w1.shape[1] == 160
    assert len(list((tmp_path / "wide-checkpoints").glob("*.npz"))) == 2


def test_search_targets_join_the_training_and_keep_it_repeatable(tmp_path: Path) -> None:
    """Expert iteration (``--search-games``): the search's rows change what is learned, and
    the run is still a function of its seed and budget."""
    changes_and_repeats(tmp_path, {"search_games": (2, 0)},
                        "--search-games", "2", "--search-worlds", "2")


def changes_and_repeats(tmp_path: Path, recorded: dict[str, tuple[Any, Any]],
                        *option: str) -> None:
    """Two small runs with ``option`` give the same network, and it is not the network of
    the same run without it; ``recorded``: header fields, (with the option, without)."""
    changed = budget_run(tmp_path, "a", 6, 256, *option)
    again = budget_run(tmp_path, "b", 6, 256, *option)
    plain = budget_run(tmp_path, "c", 6, 256)
    for key, (with_it, without) in recorded.items():
        assert changed.header["config"][key] == with_it
        assert plain.header["config"][key] == without
    assert same_network(changed, again) and not same_network(changed, plain)


def test_search_settings_are_checked(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["train", "--output", str(tmp_path / "m.npz"),
                                      "--search-worlds", "0", "--backend", "numpy"])
    assert result.exit_code == 2 and "search-worlds" in result.output
    assert not (tmp_path / "m.npz").exists()


def test_lambda_targets_mix_the_next_choice_value_with_its_own_target() -> None:
    """Rows of two games with their seats interleaved, as the kernel writes them: each
    seat's last choice keeps the game's outcome; an earlier one takes (1 - λ) of the value
    of the same seat's next choice in the same game and λ of that choice's target."""
    from kingsbreakfast.sim.train import lambda_targets

    game = np.array([0, 0, 0, 0, 1, 1])
    seat = np.array([2, 1, 2, 2, 2, 2])
    outcome = np.array([[1.0, 0.8]] * 4 + [[0.0, 0.2]] * 2)
    values = np.array([[0.9, 0.5], [0.7, 0.6], [0.4, 0.3], [0.6, 0.7], [0.1, 0.1],
                       [0.3, 0.4]])
    mixed = lambda_targets(game, seat, outcome, values, 0.5)
    last = outcome[3]
    third = 0.5 * values[3] + 0.5 * last  # seat 2's middle choice in game 0
    assert np.allclose(mixed[3], last) and np.allclose(mixed[1], outcome[1])
    assert np.allclose(mixed[2], third)
    assert np.allclose(mixed[0], 0.5 * values[2] + 0.5 * third)
    # game 1's seat 2 is another game: its first choice looks only at game 1's next one
    assert np.allclose(mixed[4], 0.5 * values[5] + 0.5 * outcome[5])
    assert np.allclose(lambda_targets(game, seat, outcome, values, 1.0), outcome)
    assert np.allclose(lambda_targets(game, seat, outcome, values, 0.0)[[0, 2, 4]],
                       values[[2, 3, 5]])


def test_lambda_targets_change_what_is_learned_and_keep_it_repeatable(tmp_path: Path) -> None:
    changes_and_repeats(tmp_path, {"td_lambda": (0.5, 1.0)}, "--td-lambda", "0.5")


def test_a_lambda_outside_zero_to_one_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["train", "--output", str(tmp_path / "m.npz"),
                                      "--td-lambda", "1.5", "--backend", "numpy"])
    assert result.exit_code == 2 and "--td-lambda" in result.output
    assert "1.5" in result.output
    assert not (tmp_path / "m.npz").exists()


def test_curves_go_end_to_end_or_side_by_side(tmp_path: Path) -> None:
    from kingsbreakfast.sim.train import curve_points

    paths = []
    for name, shares in (("a", (0.25, 0.30)), ("b", (0.30, 0.40))):
        path = tmp_path / f"{name}.curve.json"
        path.write_text(json.dumps([{"seconds": 0, "games": g, "win_share": w,
                                     "half_width": 0.02}
                                    for g, w in zip((0, 100), shares, strict=True)]))
        paths.append(path)
    chained = curve_points(paths)
    assert [games for games, _, _ in chained] == [[0, 100], [100, 200]]
    assert chained[1][1] == [30.0, 40.0] and chained[1][2] == [2.0, 2.0]
    assert [games for games, _, _ in curve_points(paths, end_to_end=False)] == [[0, 100]] * 2
