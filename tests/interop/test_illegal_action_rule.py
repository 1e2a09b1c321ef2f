"""One rule for an illegal action per environment id, read by every form from one table
(``kingsbreakfast.tensor.illegal``): the Gymnasium game (``gymnasium.make``), its vector form
(``gymnasium.make_vec``) and the JAX environment. Under the default, ``substitute``, each form
plays the lowest legal id in place of a refused action, says so, and the game goes on exactly
as if that action had been chosen; each form refuses a rule it cannot follow by name."""

from __future__ import annotations

from typing import Any

import pytest

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from kingsbreakfast.interop.gymnasium import ENV_ID  # noqa: E402
from kingsbreakfast.tensor.illegal import (  # noqa: E402
    JAX_ENV_ID,
    RULE_BY_ENV_ID,
    SUBSTITUTE,
    forfeit_rewards,
)


def vector(**settings: Any) -> Any:
    return gymnasium.make_vec(
        ENV_ID, num_envs=3, vectorization_mode="vector_entry_point", players=3, **settings
    ).unwrapped


def test_the_forms_of_one_id_and_the_jax_env_follow_one_rule() -> None:
    assert RULE_BY_ENV_ID[ENV_ID] == RULE_BY_ENV_ID[JAX_ENV_ID] == SUBSTITUTE
    assert gymnasium.make(ENV_ID).unwrapped.illegal_action == RULE_BY_ENV_ID[ENV_ID]
    assert vector().illegal_action == RULE_BY_ENV_ID[ENV_ID]
    jax_env = pytest.importorskip("kingsbreakfast.jax")
    assert jax_env.Env(3).illegal_action == RULE_BY_ENV_ID[JAX_ENV_ID]


def test_the_gymnasium_game_substitutes_by_default() -> None:
    env, twin = gymnasium.make(ENV_ID).unwrapped, gymnasium.make(ENV_ID).unwrapped
    env.reset(seed=5)
    twin.reset(seed=5)
    mask = env.action_masks()
    observation, reward, terminated, _, info = env.step(int(np.flatnonzero(~mask)[0]))
    expected, *_ = twin.step(int(np.flatnonzero(mask)[0]))
    assert not terminated and reward == 0.0 and "instead" in info["illegal_action"]
    assert np.array_equal(observation, expected)


def test_the_vector_form_substitutes_by_default() -> None:
    env, twin = vector(), vector()
    _, info = env.reset(seed=5)
    twin.reset(seed=5)
    mask = info["action_mask"]
    illegal = np.array([np.flatnonzero(~row)[0] for row in mask])
    lowest = np.array([np.flatnonzero(row)[0] for row in mask])
    observation, reward, ended, _, info = env.step(illegal)
    expected, expected_reward, *_ = twin.step(lowest)
    assert info["illegal"].all() and not ended.any()
    assert np.array_equal(observation, expected) and np.array_equal(reward, expected_reward)


def test_the_jax_env_substitutes_by_default() -> None:
    jax = pytest.importorskip("jax")
    from kingsbreakfast.jax import Env

    env = Env(3)
    state = env.init(jax.random.PRNGKey(5))
    mask = np.asarray(state.legal_action_mask)
    key = jax.random.PRNGKey(6)
    after = env.step(state, int(np.flatnonzero(~mask)[0]), key)
    expected = env.step(state, int(np.flatnonzero(mask)[0]), key)
    assert not bool(after.terminated)
    assert np.array_equal(after.observation, expected.observation)
    assert np.array_equal(after._game.takes, expected._game.takes)


def test_lose_gives_the_same_numbers_in_gymnasium_and_jax() -> None:
    jax = pytest.importorskip("jax")
    from kingsbreakfast.jax import Env

    env = gymnasium.make(ENV_ID, players=3, first_cook=0, illegal_action="lose").unwrapped
    env.reset(seed=1)
    _, reward, terminated, _, _ = env.step(int(np.flatnonzero(~env.action_masks())[0]))
    jax_env = Env(3, first_cook=0, illegal_action="lose")
    state = jax_env.init(jax.random.PRNGKey(1))
    refused = int(np.flatnonzero(~np.asarray(state.legal_action_mask))[0])
    after = jax_env.step(state, refused, jax.random.PRNGKey(2))
    assert terminated and bool(after.terminated)
    assert reward == float(after.rewards[0]) == forfeit_rewards(3, 0)[0] == -1.0
    assert np.asarray(after.rewards).tolist() == pytest.approx(forfeit_rewards(3, 0))


@pytest.mark.parametrize(("form", "rule"), [("gymnasium", "pgx"), ("vector", "lose")])
def test_a_rule_a_form_cannot_follow_is_refused_by_name(form: str, rule: str) -> None:
    with pytest.raises(ValueError, match="illegal_action must be one of"):
        if form == "gymnasium":
            gymnasium.make(ENV_ID, illegal_action=rule)
        else:
            vector(illegal_action=rule)
