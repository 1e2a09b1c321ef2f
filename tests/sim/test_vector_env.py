"""The Gymnasium face of the vector environment: spaces, shapes, same-step auto-reset."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")
pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode  # noqa: E402

from kingsbreakfast.sim.vector import KingsBreakfastVectorEnv  # noqa: E402


def test_a_learner_plays_its_seat_against_built_in_opponents() -> None:
    env = KingsBreakfastVectorEnv(32, players=3, seat=1, opponents=["greedy", "random"])
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    observations, info = env.reset(seed=4)
    assert observations.shape == (32, env.single_observation_space.shape[0])
    assert env.observation_space.contains(observations)
    assert (env.games.to_move == 1).all()
    rng = np.random.default_rng(1)
    finished = 0
    rewards_seen: set[float] = set()
    for _ in range(120):
        masks = env.action_masks()
        assert np.array_equal(masks, info["action_mask"])
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        observations, rewards, terminated, truncated, info = env.step(actions)
        assert env.observation_space.contains(observations)
        assert not truncated.any() and not info["illegal"].any()
        assert not rewards[~terminated].any()
        finished += int(terminated.sum())
        rewards_seen.update(float(r) for r in rewards[terminated])
        assert (env.games.to_move == 1).all()  # finished games were dealt again at once
    assert finished >= 32
    assert rewards_seen <= {-1.0, -0.5, 0.0, 0.5, 1.0}
    assert len(rewards_seen) > 1


def test_one_seed_for_all_games() -> None:
    env = KingsBreakfastVectorEnv(4)
    with pytest.raises(ValueError, match="one seed"):
        env.reset(seed=[1, 2, 3, 4])
    with pytest.raises(ValueError, match="opponents"):
        KingsBreakfastVectorEnv(4, players=4, opponents=["random"])
