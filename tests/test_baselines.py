"""The plumbing of the baseline learning curves (benchmarks/, docs/baselines.md).

The curves are only worth citing if the scripts measure what the page says: the opponents
named on the command line are the ones seated, every evaluation is seat-rotated (an equal
number of games from each turn position, R2), every game of an evaluation is counted once,
and the tables' intervals are Wilson's. Training itself is run with a tiny budget; no
timing is checked here.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from kingsbreakfast.bots import HeuristicBot, RandomBot

sys.path.append(str(Path(__file__).resolve().parent.parent / "benchmarks"))  # the scripts
import baselines_table  # type: ignore[import-not-found]
import curves  # type: ignore[import-not-found]
import maskable_ppo  # type: ignore[import-not-found]
import vector_ppo  # type: ignore[import-not-found]


def test_wilson_interval_matches_the_formula() -> None:
    low, high = curves.wilson(0.5, 100)
    assert low == pytest.approx(0.4038, abs=1e-4)
    assert high == pytest.approx(0.5962, abs=1e-4)
    low, high = curves.wilson(0.0, 400)
    assert low == 0.0
    assert high == pytest.approx(0.00951, abs=1e-4)
    with pytest.raises(ValueError, match="at least one game"):
        curves.wilson(0.3, 0)


def test_evaluations_are_whole_seat_rotations() -> None:
    assert curves.rotations(8) == 2
    for games in (0, 6, -4):
        with pytest.raises(ValueError, match="multiple of 4"):
            curves.rotations(games)


def test_maskable_ppo_seats_the_named_bots() -> None:
    hard = maskable_ppo.make_env("hard")
    assert hard.opponents[0] is None  # the learner's seat
    assert all(isinstance(bot, HeuristicBot) for bot in hard.opponents[1:])
    assert [bot.name for bot in hard.opponents[1:]] == ["hard"] * 3
    easy = maskable_ppo.make_env("random")
    assert all(isinstance(bot, RandomBot) for bot in easy.opponents[1:])


def test_maskable_ppo_evaluation_plays_each_deal_from_every_position() -> None:
    env = maskable_ppo.make_env("hard")
    decks: list[tuple[int, ...]] = []
    original_reset = env.reset

    def reset_and_note(**kwargs: object) -> object:
        out = original_reset(**kwargs)  # type: ignore[arg-type]
        decks.append(tuple(env.game._deck))  # the whole order, the drawn cards included
        return out

    env.reset = reset_and_note  # type: ignore[method-assign]
    result = maskable_ppo.evaluate(env, maskable_ppo.uniform(5), 12, seed=5)
    assert env.first_cook is None  # restored: training draws the first cook again
    assert sorted(result["positions"]) == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]
    for rotation in range(3):
        group = slice(4 * rotation, 4 * rotation + 4)
        assert sorted(result["positions"][group]) == [0, 1, 2, 3]
        assert len(set(decks[group])) == 1  # one deal, played from the four positions
    assert len(set(decks[::4])) == 3  # a new deal for each rotation
    assert result["illegal"] == 0
    assert all(share in (0.0, 1 / 3, 0.5, 1.0) for share in result["shares"])
    summed = curves.point(result["shares"], result["positions"], learner_steps=0)
    assert summed["games"] == 12
    assert summed["games_by_position"] == [3, 3, 3, 3]
    assert summed["low"] <= summed["win_share"] <= summed["high"]
    again = maskable_ppo.evaluate(env, maskable_ppo.uniform(5), 12, seed=5)
    assert again["shares"] == result["shares"]  # the same deals for one seed


def test_maskable_ppo_refuses_a_budget_of_partial_rollouts() -> None:
    with pytest.raises(SystemExit):
        maskable_ppo.main(["--n-steps", "64", "--curve-every", "100"])
    with pytest.raises(ValueError, match="multiple of 4"):
        maskable_ppo.main(["--curve-games", "10"])


def test_vector_ppo_evaluation_counts_every_game_once_rotated() -> None:
    policy = vector_ppo.Policy(0, np.random.default_rng(3), 0.01)
    measured = vector_ppo.evaluate(policy, 64, seed=7, opponents="heuristic")
    assert measured["games"] == 64
    assert measured["games_by_position"] == [16, 16, 16, 16]
    assert 0.0 <= measured["win_share"] < 0.25  # an untrained policy against card counters
    assert measured == vector_ppo.evaluate(policy, 64, seed=7, opponents="heuristic")


def test_a_tiny_vector_ppo_curve_against_hard_reaches_the_tables(tmp_path: Path) -> None:
    folder = tmp_path / "baselines"
    folder.mkdir()
    for seed in (2, 3, 4):
        vector_ppo.main(["--opponents", "hard", "--seed", str(seed), "--envs", "32",
                         "--horizon", "16", "--max-updates", "2", "--curve-every", "1",
                         "--curve-games", "16", "--eval-games", "32", "--target", "2",
                         "--json", str(folder / f"vector-ppo-hard-{seed}.json")])  # fmt: skip
    data = json.loads((folder / "vector-ppo-hard-2.json").read_text())
    assert (data["opponents"], data["policy"]) == ("hard", "heuristic")  # the card counter
    assert [p["learner_steps"] for p in data["curve"]] == [0, 512, 1024]
    assert all(p["games_by_position"] == [4, 4, 4, 4] for p in data["curve"])
    assert data["final"]["games"] == 32
    assert data["versions"]["numpy"] == np.__version__  # every baseline file says what it ran on
    found = baselines_table.curves(folder)
    assert list(found) == [("vector-ppo", "hard")]
    runs = found[("vector-ppo", "hard")]
    assert [len(points) for points in runs] == [4, 4, 4]  # 3 points and the final evaluation
    final = baselines_table.summary(tuple(points[-1] for points in runs))
    assert final["final"] and final["games"] == 96
    shares = [points[-1]["win_share"] for points in runs]
    assert final["mean"] == pytest.approx(sum(shares) / 3)
    assert (final["lowest"], final["highest"]) == (min(shares), max(shares))
    assert (final["low"], final["high"]) == curves.wilson(final["pooled"], 96)
    text = baselines_table.table("numpy vector PPO vs 3 × hard", runs)
    assert "(final evaluation)" in text and "| 96 |" in text
    baselines_table.write_csv(found, folder / "curves.csv")
    rows = list(csv.DictReader((folder / "curves.csv").open()))
    assert len(rows) == 12 and {r["opponents"] for r in rows} == {"hard"}
    baselines_table.plot(found, tmp_path / "curves.png")
    assert (tmp_path / "curves.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_maskable_curve_stopped_early_shortens_the_table(tmp_path: Path) -> None:
    def points(seed: int, steps: list[int], games: list[int]) -> list[dict[str, object]]:
        return [curves.point([1.0] * (g // 2) + [0.0] * (g // 2), [0, 1, 2, 3] * (g // 4),
                             seed=seed, learner_steps=s, cpu_s=float(s) / 100)
                for s, g in zip(steps, games, strict=True)]  # fmt: skip

    curves.write(tmp_path / "maskable-ppo-hard-2.json", opponents="hard", seed=2,
                 complete=True, curve=points(2, [0, 4, 8], [8, 8, 16]))  # fmt: skip
    curves.write(tmp_path / "maskable-ppo-hard-3.json", opponents="hard", seed=3,
                 complete=False, curve=points(3, [0, 4], [8, 8]))  # fmt: skip
    runs = baselines_table.curves(tmp_path)[("maskable-ppo", "hard")]
    assert [len(r) for r in runs] == [3, 2]
    assert runs[0][-1]["final"] and not runs[1][-1].get("final")
    text = baselines_table.table("MaskablePPO vs 3 × hard", runs)
    rows = [line for line in text.splitlines() if line.startswith("| ") and "steps" not in line]
    assert len(rows) == 2  # only the points both seeds reached
    assert rows[-1].startswith("| 4 |") and "| 16 |" in rows[-1]


def test_every_baseline_file_records_the_versions_it_ran_on(tmp_path: Path) -> None:
    """A seed reproduced under other libraries may train another policy (docs/baselines.md,
    *Reproducing a seed*), so every file names them: PyTorch's among them."""
    from importlib import metadata

    curves.write(tmp_path / "run.json", learner="MaskablePPO", curve=[])
    recorded = json.loads((tmp_path / "run.json").read_text())["versions"]
    assert recorded["python"] == ".".join(map(str, sys.version_info[:3]))
    assert recorded["numpy"] == np.__version__
    assert set(curves.LIBRARIES) <= set(recorded)
    for name in ("torch", "sb3-contrib", "jax"):
        try:
            expected: str | None = metadata.version(name)
        except metadata.PackageNotFoundError:
            expected = None
        assert recorded[name] == expected
