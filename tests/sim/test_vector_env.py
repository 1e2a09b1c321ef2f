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


def test_a_list_of_seeds_fixes_the_games_as_one_seed_does() -> None:
    env = KingsBreakfastVectorEnv(4)
    first, _ = env.reset(seed=[1, 2, 3, 4])
    again, _ = env.reset(seed=[1, 2, 3, 4])
    other, _ = env.reset(seed=[1, 2, 3, 5])
    assert np.array_equal(first, again)
    assert not np.array_equal(first, other)
    env.reset(seed=[1, None, 3, 4])  # None: fresh entropy for that entry
    with pytest.raises(ValueError, match="one per game"):
        env.reset(seed=[1, 2, 3])
    with pytest.raises(ValueError, match="opponents"):
        KingsBreakfastVectorEnv(4, players=4, opponents=["random"])


def test_make_vec_builds_it_from_the_registered_id() -> None:
    import gymnasium

    from kingsbreakfast.interop.gymnasium import ENV_ID

    env = gymnasium.make_vec(
        ENV_ID, num_envs=16, vectorization_mode="vector_entry_point", players=3,
        opponents="heuristic", empty_table="must_draw",
    )  # fmt: skip
    inner = env.unwrapped
    assert isinstance(inner, KingsBreakfastVectorEnv)
    assert inner.num_envs == 16 and inner.games.players == 3
    assert inner.games.rules.empty_table == "must_draw"
    single = gymnasium.make(ENV_ID, players=3)  # the single game under the same id
    assert single.unwrapped.__class__.__name__ == "KingsBreakfastEnv"
    with pytest.raises(ValueError, match="not both"):
        KingsBreakfastVectorEnv(4, rules=inner.games.rules, empty_table="must_draw")


def test_final_info_names_the_games_that_ended_in_the_step() -> None:
    env = KingsBreakfastVectorEnv(16, players=4)
    env.reset(seed=2)
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(60):
        masks = env.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        _, rewards, terminated, _, info = env.step(actions)
        assert np.array_equal(info["_final_info"], terminated)
        final = info["final_info"]
        assert np.array_equal(final["_reward"], terminated)
        assert np.array_equal(final["reward"][terminated], rewards[terminated])
        assert np.array_equal(final["points"][terminated], info["points"][terminated])
        assert not final["reward"][~terminated].any()
        ended += int(terminated.sum())
    assert ended >= 16
