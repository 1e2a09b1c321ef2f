"""``kingsbreakfast.jax.alphazero``: the search reads only the acting seat's view (R7: the
other seats' drawn dishes and the deck order are hidden), one compiled chunk of self-play and
updates changes the network, the value targets are each game's final R12 utilities seen from
the mover, a checkpoint comes back as it was saved, and imitating the card counter moves the
policy toward its choices."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
jax = pytest.importorskip("jax")
pytest.importorskip("mctx")
pytest.importorskip("optax")
jnp = jax.numpy

from kingsbreakfast.jax import Env  # noqa: E402
from kingsbreakfast.jax.alphazero import (  # noqa: E402
    Config,
    Moment,
    forward,
    init_params,
    load,
    make_search,
    make_train,
    save,
    start,
    value_targets,
)
from kingsbreakfast.jax.worlds import sample_world  # noqa: E402

TINY = Config(num_envs=2, num_steps=4, simulations=4, considered=4, hidden=16, epochs=1,
              minibatches=2)  # fmt: skip


def _mid_game(env: Env, key: jax.Array) -> jax.Array:
    """A game played at random until the other seats hold several hidden draws."""
    step = jax.jit(env.step)
    state = jax.jit(env.init)(key)
    for _ in range(200):
        key, pick, chance = jax.random.split(key, 3)
        others = (jnp.arange(env.num_players) != state.current_player)[:, None]
        if int(jnp.where(others, state._game.draws, 0).sum()) >= 3 and not state.terminated:
            return state
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        state = step(state, jax.random.categorical(pick, logits), chance)
        if state.terminated:
            state = jax.jit(env.init)(chance)
    raise AssertionError("no game reached three hidden draws")


@pytest.mark.parametrize(
    "config",
    [TINY, replace(TINY, opponent_model="counter", worlds=2, value_hidden=8)],
    ids=["paranoid", "counters-two-worlds"],
)
def test_twin_states_differing_only_in_hidden_cards_get_the_same_search(config: Config) -> None:
    """R7: a twin dealt from the mover's view (other seats' draws and the deck dealt anew)
    differs from the real state only in what the mover cannot see; the search's output for
    the same key is the same on both, so no hidden card reaches the search (nor, with the
    counters as the other seats' model, the counters' choices inside it)."""
    env = Env(4)
    state = _mid_game(env, jax.random.PRNGKey(3))
    seat = state.current_player
    twin = state
    for k in range(50):
        twin = jax.jit(sample_world, static_argnums=0)(env, state, seat, jax.random.PRNGKey(k))
        if not np.array_equal(twin._game.draws, state._game.draws):
            break
    assert not np.array_equal(twin._game.draws, state._game.draws)
    np.testing.assert_array_equal(twin.observation, state.observation)
    params = init_params(jax.random.PRNGKey(1), config, env.observation_shape[0],
                         env.num_actions)  # fmt: skip
    search = jax.jit(make_search(env, config))
    real, dealt = (search(params, jax.tree.map(lambda a: a[None], s), jax.random.PRNGKey(7))
                   for s in (state, twin))  # fmt: skip
    np.testing.assert_array_equal(real.action, dealt.action)
    np.testing.assert_array_equal(real.action_weights, dealt.action_weights)
    np.testing.assert_array_equal(real.search_tree.node_values, dealt.search_tree.node_values)


def test_one_compiled_chunk_of_self_play_changes_the_network() -> None:
    """The trunk and the policy head learn from the search's policy at once; the value head
    only from games that ended in the chunk (none in four decisions: its gradient is zero)."""
    runner = start(jax.random.PRNGKey(0), TINY)
    after, metrics = make_train(TINY, 1)(runner)
    assert metrics.shape == (1, 4) and np.isfinite(np.asarray(metrics)).all()
    for name in ("w1", "b1", "w2", "b2", "wp", "bp"):
        assert not np.array_equal(runner[0][name], after[0][name]), name


def test_value_targets_are_the_final_utilities_seen_from_the_mover() -> None:
    """R12: each decision learns its game's rank utilities, entry 0 its mover's; a decision
    whose game has not ended in the chunk learns no value."""
    steps, players = 4, 3
    rewards = np.zeros((steps, 1, players), np.float32)
    rewards[1, 0] = [1.0, -1.0, 0.0]  # the game ends at step 1; a new one starts at step 2
    done = np.array([[False], [True], [False], [False]])
    mover = np.array([[2], [0], [1], [2]], np.int32)
    trajectory = Moment(
        obs=jnp.zeros((steps, 1, 1)), mask=jnp.zeros((steps, 1, 1), bool),
        target=jnp.zeros((steps, 1, 1)), mover=jnp.asarray(mover), rewards=jnp.asarray(rewards),
        done=jnp.asarray(done), win=jnp.zeros((steps, 1)),
    )  # fmt: skip
    targets, known = value_targets(trajectory, players)
    np.testing.assert_array_equal(known[:, 0], [True, True, False, False])
    np.testing.assert_array_equal(targets[0, 0], [0.0, 1.0, -1.0])  # seat 2, then 0, then 1
    np.testing.assert_array_equal(targets[1, 0], [1.0, -1.0, 0.0])


def test_a_checkpoint_round_trips(tmp_path: Path) -> None:
    params = init_params(jax.random.PRNGKey(5), TINY, 10, 38)
    path = tmp_path / "net.npz"
    save(path, params, TINY, seed=5, versions={"mctx": "x"})
    loaded, config, record = load(path)
    assert config == TINY
    assert record == {"seed": 5, "versions": {"mctx": "x"}}
    assert loaded.keys() == params.keys()
    for name in params:
        np.testing.assert_array_equal(loaded[name], params[name])


def test_imitation_moves_the_policy_toward_the_card_counters_choice() -> None:
    """The warm start (``kingsbreakfast.jax.imitation``): after a few chunks of updates on
    the card counter's games, the network's likeliest action agrees with the counter's choice
    more often on positions it has not learnt from (each chunk's games are new, and its
    agreement is measured before it learns from them); the same key gives the same network."""
    from kingsbreakfast.jax.imitation import make_imitate

    config = Config(num_envs=16, num_steps=16, hidden=64, learning_rate=3e-3, epochs=8,
                    minibatches=4)  # fmt: skip
    imitate = make_imitate(config, 20)
    runner = start(jax.random.PRNGKey(0), config)
    after, metrics = imitate(runner)
    metrics = np.asarray(metrics)
    assert metrics.shape == (20, 4) and np.isfinite(metrics).all()
    first, last = metrics[:4, 3].mean(), metrics[-4:, 3].mean()
    assert last > first + 0.05, (first, last)
    again, _ = imitate(start(jax.random.PRNGKey(0), config))
    for name in after[0]:
        np.testing.assert_array_equal(after[0][name], again[0][name])


def test_with_counters_as_the_others_every_searched_node_is_the_root_seats_decision() -> None:
    """The ``counter`` model plays the other seats inside each step, so every node the
    search expands is a decision of the root seat or a game's end; the pooled policy over
    several worlds is a distribution on the legal actions, and the evaluation's action
    (no Gumbel noise) its likeliest."""
    env = Env(4)
    config = replace(TINY, opponent_model="counter", worlds=3, simulations=8)
    states = jax.vmap(env.init)(jax.random.split(jax.random.PRNGKey(4), 3))
    params = init_params(jax.random.PRNGKey(1), config, env.observation_shape[0],
                         env.num_actions)  # fmt: skip
    out = jax.jit(make_search(env, config, gumbel_scale=0.0))(params, states,
                                                               jax.random.PRNGKey(2))  # fmt: skip
    worlds, root_seat = out.search_tree.embeddings
    seen = np.asarray(out.search_tree.node_visits) > 0
    mover = np.asarray(worlds.current_player)
    ended = np.asarray(worlds.terminated)
    assert seen.sum() > seen.shape[0]  # the search went below the roots
    assert ((mover == np.asarray(root_seat)) | ended)[seen].all()
    weights = np.asarray(out.action_weights)
    np.testing.assert_allclose(weights.sum(axis=1), 1.0, rtol=1e-5)
    assert (weights[~np.asarray(states.legal_action_mask)] == 0).all()
    np.testing.assert_array_equal(out.action, weights.argmax(axis=1))


def test_a_separate_value_body_does_not_read_the_policys_body() -> None:
    """``value_hidden``: the values come from their own layers, so changing the policy's
    body changes the logits and leaves the values as they were."""
    env = Env(4)
    config = replace(TINY, value_hidden=8)
    params = init_params(jax.random.PRNGKey(1), config, env.observation_shape[0],
                         env.num_actions)  # fmt: skip
    state = env.init(jax.random.PRNGKey(0))
    obs, mask = state.observation[None], state.legal_action_mask[None]
    logits, values = forward(params, obs, mask)
    moved = {**params, "w1": params["w1"] + 1.0}
    logits2, values2 = forward(moved, obs, mask)
    np.testing.assert_array_equal(values, values2)
    assert not np.array_equal(logits, logits2)
