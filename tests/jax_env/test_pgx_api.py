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


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_pgx_rule_rewards_what_pgx_s_own_illegal_step_does(players: int) -> None:
    """``illegal_action="pgx"`` against pgx's code itself, not a copy of its numbers: pgx's
    ``Env._step_with_illegal_action`` run on this environment (it reads ``num_players`` and
    ``_illegal_action_penalty``) gives the rewards our step gives ([2, −1, 2] at three)."""
    env = Env(players, illegal_action="pgx")
    state = env.init(jax.random.PRNGKey(players))
    refused = int(jnp.argmin(state.legal_action_mask))
    assert not bool(state.legal_action_mask[refused])
    ours = jax.jit(env.step)(state, refused, jax.random.PRNGKey(1))
    theirs = pgx_core.Env._step_with_illegal_action(env, state, state.current_player)
    assert bool(ours.terminated) and bool(theirs.terminated)
    assert ours.rewards.tolist() == theirs.rewards.tolist()
    offender = int(state.current_player)
    assert ours.rewards.tolist() == [
        -1.0 if seat == offender else players - 1.0 for seat in range(players)
    ]


def test_pgx_s_auto_reset_deals_a_new_game_where_one_ends() -> None:
    """pgx's ``auto_reset`` wrapper (``pgx.experimental.wrappers``) on a batch: the step that
    ends a game returns a fresh game (no step taken, actions to choose) carrying the finished
    game's rewards and end flag, and the next step plays the fresh game on."""
    from pgx.experimental.wrappers import auto_reset

    env = Env(3)
    step = jax.vmap(auto_reset(env.step, env.init))
    batch = 8

    def one(carry: Any, key: Any) -> tuple[Any, Any]:
        pick, turn = jax.random.split(key)
        action = act_randomly(pick, carry.legal_action_mask)
        after = step(carry, action, jax.random.split(turn, batch))
        seen = (after.terminated, after._step_count, after.rewards.sum(axis=1),
                jnp.abs(after.rewards).sum(axis=1), after.legal_action_mask.all(axis=1),
                after.current_player)  # fmt: skip
        return after, seen

    start = jax.vmap(env.init)(jax.random.split(jax.random.PRNGKey(0), batch))
    keys = jax.random.split(jax.random.PRNGKey(1), 300)
    _, (ended, steps, total, size, all_legal, current) = jax.jit(
        lambda s: jax.lax.scan(one, s, keys)
    )(start)
    ended = ended.astype(bool)
    assert int(ended.sum()) >= batch  # every game ends at least once in 300 steps
    assert (steps[ended] == 0).all() and (~all_legal[ended]).all()  # a fresh game
    assert (jnp.abs(total[ended]) < 1e-6).all() and (size[ended] > 0).all()  # R12, paid once
    assert (size[~ended] == 0).all() and (current >= 0).all()
    assert (steps[1:][ended[:-1]] == 1).all()  # the fresh game goes on from there
