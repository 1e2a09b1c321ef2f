"""pgx's own ``api_test`` (``pgx._src.api_test``, pgx 2.6.0) on the JAX environment, for 3, 4
and 5 players, unmodified but for two names of its module, each a limit of pgx rather than of
this game (pgx is an optional test dependency: the ``test`` extra installs it):

- ``act_randomly`` (``pgx.experimental.utils``) samples along ``axis=1``, so it fails on the
  one game of ``api_test_single`` (a mask of shape (38,)): an ``IndexError`` for every pgx
  environment. Here it samples along the last axis, the same choice for a batch.
- ``EnvId`` is pgx's closed list of its own games' ids, which ``api_test`` holds every state's
  ``env_id`` to; this game's id is added to it.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

import pytest

jax = pytest.importorskip("jax")
pgx_core = pytest.importorskip("pgx.core")
api = pytest.importorskip("pgx._src.api_test")
jnp = jax.numpy

from kingsbreakfast.jax import Env, State  # noqa: E402


def act_randomly(key: Any, legal_action_mask: Any) -> Any:
    """pgx's ``act_randomly`` over the last axis (one game or a batch)."""
    logits = jnp.log(legal_action_mask.astype(jnp.float32))
    return jax.random.categorical(key, logits=logits, axis=-1)


@pytest.fixture
def pgx_api(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(api, "act_randomly", jax.jit(act_randomly))
    ids = (*get_args(pgx_core.EnvId), Env.id)
    monkeypatch.setattr(api, "EnvId", Literal[ids])  # type: ignore[valid-type]
    return api


@pytest.mark.parametrize("players", [3, 4, 5])
def test_pgx_api_test_passes(pgx_api: Any, players: int) -> None:
    env = Env(players)
    assert isinstance(env, pgx_core.Env)
    pgx_api.api_test(env, num=20)


def test_the_state_is_pgx_s_and_its_extras_are_private() -> None:
    state = Env(3).init(jax.random.PRNGKey(0))
    assert isinstance(state, pgx_core.State) and isinstance(state, State)
    public = {name for name in vars(state) if not name.startswith("_")}
    assert public == {
        "current_player", "observation", "rewards", "terminated", "truncated",
        "legal_action_mask",
    }  # fmt: skip
    assert state.env_id == Env.id == "kingsbreakfast" and int(state._step_count) == 0


def test_pgx_s_act_randomly_fails_on_one_game() -> None:
    """Why the fixture replaces it (if pgx fixes it, this test says so)."""
    from pgx.experimental.utils import act_randomly as pgx_act_randomly

    with pytest.raises(IndexError):
        pgx_act_randomly(jax.random.PRNGKey(0), jnp.ones(Env.num_actions, bool))
