"""The Gymnasium environment ``KingsBreakfast-v0``: one learner against bots."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from kingsbreakfast.bots import RandomBot  # noqa: E402
from kingsbreakfast.engine import IllegalActionError  # noqa: E402
from kingsbreakfast.interop.gymnasium import ENV_ID, KingsBreakfastEnv  # noqa: E402


def test_gymnasium_env_checker() -> None:
    check_env(KingsBreakfastEnv(players=4, opponents="greedy"), skip_render_check=True)
    check_env(gymnasium.make(ENV_ID, players=3, render_mode="ansi").unwrapped)


def play(env: KingsBreakfastEnv, seed: int) -> tuple[float, dict[str, object], int]:
    observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while True:
        assert env.observation_space.contains(observation)
        mask = env.action_masks()
        assert (mask == info["action_mask"].astype(bool)).all()
        action = int(rng.choice(np.flatnonzero(mask)))
        observation, reward, terminated, truncated, info = env.step(action)
        steps += 1
        assert not truncated
        if terminated:
            return reward, info, steps
        assert reward == 0.0


@pytest.mark.parametrize("players", [3, 5])
def test_episodes_end_with_the_rank_reward(players: int) -> None:
    env = KingsBreakfastEnv(players=players, seat=1, opponents="random")
    for seed in range(5):
        reward, info, steps = play(env, seed)
        assert -1.0 <= reward <= 1.0
        assert steps >= 5  # a turn every round (R5), at least 5 rounds
        assert (reward == 1.0) == (info["winners"] == (1,))


def test_same_seed_same_episode() -> None:
    a = KingsBreakfastEnv(opponents=["greedy", "random", "heuristic"])
    b = KingsBreakfastEnv(opponents=["greedy", "random", "heuristic"])
    reward_a, info_a, steps_a = play(a, 9)
    reward_b, info_b, steps_b = play(b, 9)
    assert (reward_a, info_a["points"], steps_a) == (reward_b, info_b["points"], steps_b)
    assert a.game == b.game
    obs_a, _ = a.reset(seed=4)
    obs_b, _ = b.reset(seed=4)
    assert (obs_a == obs_b).all()


def test_score_utility_and_bot_objects() -> None:
    env = KingsBreakfastEnv(players=3, opponents=RandomBot(), utility="score")
    reward, info, _ = play(env, 2)
    assert reward == float(info["points"])  # type: ignore[arg-type]


def test_illegal_action_loses_or_raises() -> None:
    env = KingsBreakfastEnv(players=4, illegal_action="lose")
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -1.0 and "not legal" in info["illegal_action"]
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    strict = KingsBreakfastEnv(players=4, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)


def test_illegal_action_can_be_substituted() -> None:
    env = KingsBreakfastEnv(players=4, seat=0, first_cook=0, illegal_action="substitute")
    twin = KingsBreakfastEnv(players=4, seat=0, first_cook=0)
    env.reset(seed=3)
    twin.reset(seed=3)
    mask = env.action_masks()
    lowest = int(np.flatnonzero(mask)[0])
    illegal = int(np.flatnonzero(~mask)[0])
    observation, reward, terminated, _, info = env.step(illegal)
    expected, *_ = twin.step(lowest)  # the same game with the lowest legal action played
    assert not terminated and reward == 0.0
    assert "not legal" in info["illegal_action"] and "instead" in info["illegal_action"]
    assert np.array_equal(observation, expected)
    legal = int(np.flatnonzero(env.action_masks())[0])
    _, _, _, _, info = env.step(legal)
    assert "illegal_action" not in info


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="3 to 5 players"):
        KingsBreakfastEnv(players=6)
    with pytest.raises(ValueError, match="seat must be"):
        KingsBreakfastEnv(players=3, seat=3)
    with pytest.raises(ValueError, match="every other seat"):
        KingsBreakfastEnv(players=4, opponents=["random", "random"])
    with pytest.raises(ValueError):
        KingsBreakfastEnv(opponents="grandmaster")
