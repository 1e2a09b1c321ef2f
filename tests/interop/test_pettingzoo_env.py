"""The PettingZoo AEC environment ``kings_breakfast_v0``."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pettingzoo_test = pytest.importorskip("pettingzoo.test")

from kingsbreakfast.engine import IllegalActionError, Rules, State  # noqa: E402
from kingsbreakfast.interop.pettingzoo import env, raw_env  # noqa: E402


@pytest.mark.parametrize("players", [3, 4, 5])
def test_pettingzoo_api_test(players: int) -> None:
    pettingzoo_test.api_test(env(players=players), num_cycles=300)


def test_pettingzoo_seed_test() -> None:
    pettingzoo_test.seed_test(lambda: env(players=4, utility="score"), num_cycles=200)


def play(game: raw_env, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    totals = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, _ = game.last()
        totals[agent] += reward
        if termination or truncation:
            game.step(None)
            continue
        assert observation["observation"].dtype == np.float32
        legal = np.flatnonzero(observation["action_mask"])
        game.step(int(legal[rng.randrange(len(legal))]))
    return totals


def test_a_game_follows_the_engine_exactly() -> None:
    """Same seed, same deck: the environment's game is the engine's game, action by action."""
    game = raw_env(players=4, utility="score")
    game.reset(seed=11)
    expected = State.new(4, random.Random(11), 0, Rules())
    rng = random.Random(0)
    while not game.game.is_over:
        agent = game.agent_selection
        assert agent == f"player_{expected.to_move}"
        mask = game.observe(agent)["action_mask"]
        assert [int(a) for a in np.flatnonzero(mask)] == list(expected.legal_actions())
        action = int(rng.choice(np.flatnonzero(mask)))
        game.step(action)
        expected.apply(action)
    assert game.game == expected
    assert [game.rewards[f"player_{s}"] for s in range(4)] == [
        float(p) for p in expected.score().points
    ]


def test_rank_rewards_sum_to_zero_and_only_the_mover_has_a_mask() -> None:
    game = raw_env(players=5)
    game.reset(seed=3)
    for agent in game.possible_agents:
        if agent != game.agent_selection:
            assert not game.observe(agent)["action_mask"].any()
    totals = play(game, 3)
    assert sum(totals.values()) == pytest.approx(0.0)
    assert max(totals.values()) > 0


def test_illegal_actions_lose_or_raise() -> None:
    game = raw_env(players=3)
    game.reset(seed=1)
    mask = game.observe(game.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    offender = game.agent_selection
    game.step(illegal)
    assert all(game.terminations.values())
    assert game.rewards[offender] == -1.0
    assert "not legal" in game.infos[offender]["illegal_action"]
    strict = raw_env(players=3, illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError, match="not legal now") as caught:
        strict.step(illegal)
    # the engine's own error: a stable code and the action, for any language's message
    assert caught.value.code == "illegal_action"
    assert caught.value.params["action_id"] == illegal and caught.value.params["reason"]
    with pytest.raises(ValueError, match="integer from 0 to 37"):
        strict.step(99)


def test_max_cycles_truncates_after_that_many_rounds() -> None:
    game = raw_env(players=4, max_cycles=2)
    game.reset(seed=5)
    rng = random.Random(1)
    steps = 0
    while not any(game.truncations.values()):
        mask = game.observe(game.agent_selection)["action_mask"]
        game.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    assert game.game.round == 3
    assert steps >= 8  # two rounds of four turns (more if a dragon was drawn)
    assert not any(game.terminations.values())


def test_render_is_text_and_hides_draws() -> None:
    game = raw_env(players=3, render_mode="ansi")
    game.reset(seed=2)
    while game.game.round < 3:
        mask = game.observe(game.agent_selection)["action_mask"]
        game.step(7 if mask[7] else int(np.flatnonzero(mask)[0]))
    text = game.render()
    assert isinstance(text, str)
    assert "king" in text and "hidden" in text


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="3 to 5 players"):
        raw_env(players=2)
    with pytest.raises(ValueError, match="max_cycles"):
        raw_env(max_cycles=0)
    with pytest.raises(ValueError, match="illegal_action"):
        raw_env(illegal_action="ignore")
