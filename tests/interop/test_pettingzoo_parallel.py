"""The parallel face of ``kings_breakfast_v0``, illegal-action substitution, and PettingZoo's
``max_cycles_test``."""

from __future__ import annotations

import itertools
import random
import types
from collections import Counter
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pettingzoo_test = pytest.importorskip("pettingzoo.test")

from kingsbreakfast.engine import Action  # noqa: E402
from kingsbreakfast.interop.pettingzoo import env, parallel_env, raw_env  # noqa: E402


@pytest.mark.parametrize("illegal_action", ["lose", "substitute"])
def test_parallel_api_test(illegal_action: str) -> None:
    pettingzoo_test.parallel_api_test(parallel_env(illegal_action=illegal_action), num_cycles=500)


def seeded(factory: Any, deck_seed: int, action_seed: int) -> Any:
    """``factory`` with its deck and its agents' sampling seeded, so that a test that calls
    ``reset()`` and ``action_space(a).sample()`` without seeds is repeatable."""

    def build(**kwargs: Any) -> Any:
        made = factory(illegal_action="substitute", **kwargs)
        made.reset(seed=deck_seed)  # later seedless resets go on from this generator
        for offset, agent in enumerate(made.possible_agents):
            made.action_space(agent).seed(action_seed + offset)
        return made

    return build


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_max_cycles_test_passes(seed: int) -> None:
    # Unmasked random actions need the substitute setting; a drawn dragon gives its player
    # a second step (R7a), which the next test accounts for: here the seeds are fixed so
    # the run repeats.
    module = types.SimpleNamespace(
        env=seeded(env, seed, 100 * seed), parallel_env=seeded(parallel_env, seed, 100 * seed)
    )
    pettingzoo_test.max_cycles_test(module)


def dragon_follow_ups(history: Any) -> Counter[int]:
    """Steps taken right after the same seat's draw turned up a dragon (R7a)."""
    extra: Counter[int] = Counter()
    for before, after in itertools.pairwise(history):
        if before.seat == after.seat:
            assert before.action == Action.parse("draw")
            extra[after.seat] += 1
    return extra


@pytest.mark.parametrize("cycles", [1, 3, 6])
def test_every_agent_steps_once_a_cycle_plus_its_dragon_steps(cycles: int) -> None:
    dragons_seen = 0
    for seed in range(60):
        game = env(players=4, max_cycles=cycles, illegal_action="substitute")
        game.reset(seed=seed)
        for offset, agent in enumerate(game.possible_agents):
            game.action_space(agent).seed(seed * 10 + offset)
        counts: Counter[str] = Counter()
        for agent in game.agent_iter():
            counts[agent] += 1
            done = game.terminations[agent] or game.truncations[agent]
            game.step(None if done else game.action_space(agent).sample())
        state = game.unwrapped.game
        extra = dragon_follow_ups(state.history)
        dragons_seen += sum(extra.values())
        assert state.round == cycles + 1
        for seat, agent in enumerate(game.possible_agents):
            assert counts[agent] == cycles + 1 + extra[seat]  # the last is the dead step
    if cycles == 6:
        assert dragons_seen > 0  # the dragon case was exercised


def test_parallel_step_plays_the_movers_action_only() -> None:
    game = parallel_env(players=3)
    observations, infos = game.reset(seed=4)
    rng = random.Random(0)
    steps = 0
    while game.agents:
        movers = [agent for agent in game.agents if infos[agent]["to_move"]]
        assert len(movers) == 1
        mover = movers[0]
        for agent in game.agents:
            assert observations[agent]["action_mask"].any() == (agent == mover)
        legal = np.flatnonzero(observations[mover]["action_mask"])
        chosen = int(legal[rng.randrange(len(legal))])
        before = len(game.game.history)
        # the other agents hand in actions that would be illegal for them: ignored
        actions = {agent: 37 for agent in game.agents}
        actions[mover] = chosen
        observations, rewards, terminations, truncations, infos = game.step(actions)
        steps += 1
        assert game.game.history[before].action == chosen
        assert game.game.history[before].seat == int(mover.split("_")[1])
    assert game.game.is_over
    assert sum(rewards.values()) == pytest.approx(0.0)  # rank utility, zero-sum
    assert all(terminations.values()) and not any(truncations.values())
    assert steps == len(game.game.history)


def test_parallel_max_cycles_counts_steps() -> None:
    game = parallel_env(players=5, max_cycles=7)
    observations, infos = game.reset(seed=2)
    for step in range(7):
        mover = next(agent for agent in game.agents if infos[agent]["to_move"])
        legal = np.flatnonzero(observations[mover]["action_mask"])
        observations, _, terminations, truncations, infos = game.step({mover: int(legal[0])})
        assert all(truncations.values()) == (step == 6)
        assert not any(terminations.values())
    assert game.agents == []
    with pytest.raises(ValueError, match="reset"):
        game.step({})


def test_parallel_refuses_a_step_without_the_movers_action() -> None:
    game = parallel_env(players=4)
    _, infos = game.reset(seed=1)
    mover = next(agent for agent in game.agents if infos[agent]["to_move"])
    others = {agent: 7 for agent in game.agents if agent != mover}
    with pytest.raises(ValueError, match=f"no action for {mover}"):
        game.step(others)
    with pytest.raises(ValueError, match="not in the game: player_9"):
        game.step({mover: 7, "player_9": 7})
    assert game.game.history == ()  # nothing was played
    with pytest.raises(ValueError, match="max_cycles"):
        parallel_env(max_cycles=0)


def test_substitute_plays_the_lowest_legal_action_and_says_so() -> None:
    game = raw_env(players=4, illegal_action="substitute")
    game.reset(seed=3)
    agent = game.agent_selection
    legal = np.flatnonzero(game.observe(agent)["action_mask"])
    illegal = next(a for a in range(38) if a not in set(legal))
    game.step(illegal)
    assert game.game.history[0].action == int(legal[0])
    note = game.infos[agent]["illegal_action"]
    assert "not legal" in note and f"played {Action(int(legal[0]))} instead" in note
    assert not any(game.terminations.values())
    # the note stays until that agent's next legal step, which clears it
    while True:
        mover = game.agent_selection
        game.step(int(np.flatnonzero(game.observe(mover)["action_mask"])[0]))
        if mover == agent:
            break
        assert "illegal_action" in game.infos[agent]
    assert "illegal_action" not in game.infos[agent]
