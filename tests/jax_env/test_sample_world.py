"""``kingsbreakfast.jax.worlds.sample_world``: a world dealt from what one seat knows agrees
with that seat's view in everything (R7: only the other seats' drawn dishes and the deck are
hidden), and the worlds are distributed as the engine's ``WorldSampler`` deals them."""

from __future__ import annotations

import random
from collections import Counter

import pytest

np = pytest.importorskip("numpy")
jax = pytest.importorskip("jax")
stats = pytest.importorskip("scipy.stats")
jnp = jax.numpy

from kingsbreakfast.engine import DRAGON, DRAW_ID, NUM_DISHES, State, WorldSampler  # noqa: E402
from kingsbreakfast.jax import Env  # noqa: E402
from kingsbreakfast.jax.worlds import sample_world  # noqa: E402


def test_every_world_agrees_with_the_view_it_was_dealt_from() -> None:
    env = Env(4)
    games, worlds_each = 64, 8
    init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
    deal = jax.jit(jax.vmap(jax.vmap(sample_world, (None, None, 0, 0)), (None, 0, 0, 0)),
                   static_argnums=0)  # fmt: skip
    observe = jax.jit(jax.vmap(env.observe))  # each game from its own viewer
    key = jax.random.PRNGKey(0)
    state = init(jax.random.split(key, games))
    checked = moved = 0
    for turn in range(60):
        key, pick, chance, sampling = jax.random.split(key, 4)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        state = step(state, jax.random.categorical(pick, logits), jax.random.split(chance, games))
        if turn % 6:
            continue
        seats = jnp.asarray(np.arange(games) % 4, jnp.int32)
        keys = jax.random.split(sampling, games * worlds_each).reshape(games, worlds_each, -1)
        worlds = deal(env, state, jnp.repeat(seats[:, None], worlds_each, 1), keys)
        views = np.asarray(observe(state, seats))  # (games, 98)
        for w in range(worlds_each):
            world = jax.tree.map(lambda a, w=w: a[:, w], worlds)
            assert np.array_equal(np.asarray(observe(world, seats)), views)
            game, original = world._game, state._game
            others = np.arange(4)[None, :] != np.asarray(seats)[:, None]
            # the viewer's draws and every public count are kept; so is each hand's size
            assert (np.asarray(game.draws)[~others] == np.asarray(original.draws)[~others]).all()
            assert (np.asarray(game.draws.sum(2)) == np.asarray(original.draws.sum(2))).all()
            for name in ("table", "king", "takes", "removed_dishes", "round", "to_move"):
                assert np.array_equal(getattr(game, name), getattr(original, name)), name
            # every card is somewhere: the unseen dishes only moved between deck and hands
            unseen = np.asarray(game.deck[:, :NUM_DISHES] + (game.draws * others[..., None]).sum(1))
            before = original.deck[:, :NUM_DISHES] + (original.draws * others[..., None]).sum(1)
            assert (unseen == np.asarray(before)).all() and (np.asarray(game.deck) >= 0).all()
            assert np.array_equal(game.deck[:, DRAGON], original.deck[:, DRAGON])
            changed = np.asarray((game.draws != original.draws).any(axis=(1, 2)))
            moved += int(changed.sum())
            checked += games
    assert checked == 10 * games * worlds_each  # 5,120 worlds checked
    assert moved > checked // 4  # and many of them dealt the hidden draws otherwise


def position() -> tuple[State, Env, object]:
    """A 3-player game where seats 0 and 1 each drew one dish: seat 2 sees two hidden cards."""
    rng = random.Random(5)
    while True:
        deck = [dish for dish in range(NUM_DISHES) for _ in range(15)] + [DRAGON] * 5
        rng.shuffle(deck)
        if DRAGON not in deck[6:8]:
            break
    engine = State(deck, 3, 0)
    env = Env(3)
    width = env.chance_size
    state = env.init_with(jnp.asarray(deck[:width]), 0)
    for top in (6, 7):
        engine.play(DRAW_ID)
        state = env.step_with(state, DRAW_ID, jnp.asarray(deck[top : top + width]))
    assert engine.to_move == int(state.current_player) == 2
    return engine, env, state


def test_worlds_are_distributed_as_the_engine_deals_them() -> None:
    """Two samples of 20,000 worlds each, the pair of dishes seats 0 and 1 hold in them: a
    χ² test of homogeneity between the engine's sampler and the JAX one (49 categories)."""
    engine, env, state = position()
    sampler = WorldSampler(engine.view(2))
    rng = random.Random(11)
    count = 20_000
    from_engine: Counter[tuple[int, int]] = Counter()
    for _ in range(count):
        world = sampler.sample(rng)
        from_engine[world.draws(0).index(1), world.draws(1).index(1)] += 1
    worlds = jax.jit(jax.vmap(lambda k: sample_world(env, state, 2, k)))(
        jax.random.split(jax.random.PRNGKey(12), count)
    )
    held = np.asarray(worlds._game.draws).argmax(axis=2)  # (count, 3): the one dish each
    from_jax = Counter(zip(held[:, 0].tolist(), held[:, 1].tolist(), strict=True))
    pairs = sorted(set(from_engine) | set(from_jax))
    assert len(pairs) == NUM_DISHES**2  # every pair of dishes can be dealt
    table = np.array([[from_engine[p] for p in pairs], [from_jax[p] for p in pairs]])
    result = stats.chi2_contingency(table)
    assert result.pvalue > 0.001, result
    # and the test has power: worlds that always give seat 0 the commonest dish are told apart
    biased = np.array([[from_engine[p] for p in pairs],
                       [count if p == max(pairs, key=from_jax.__getitem__) else 0
                        for p in pairs]])  # fmt: skip
    assert stats.chi2_contingency(biased + 1).pvalue < 1e-9


def test_a_finished_game_is_its_own_only_world() -> None:
    """R11: at the end every hand is shown (the engine's view gives each seat's draws), so a
    world keeps every seat's draws, as the engine's sampler does; the view tensor alone
    would not tell (it counts hidden draws by dish and by seat, never which seat holds
    which), the scores would."""
    env = Env(3)
    games = 8
    init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
    key = jax.random.PRNGKey(3)
    state = init(jax.random.split(key, games))
    while not bool(state.terminated.all()):
        key, pick, chance = jax.random.split(key, 3)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        state = step(state, jax.random.categorical(pick, logits), jax.random.split(chance, games))
    assert (np.asarray(state._game.to_move) == -1).all()
    keys = jax.random.split(key, games * 3).reshape(games, 3, -1)
    worlds = jax.jit(
        jax.vmap(jax.vmap(lambda s, seat, k: sample_world(env, s, seat, k), (None, 0, 0)))
    )(state, jnp.tile(jnp.arange(3), (games, 1)), keys)
    assert (np.asarray(worlds._game.draws) == np.asarray(state._game.draws)[:, None]).all()
    assert (np.asarray(worlds._game.deck) == np.asarray(state._game.deck)[:, None]).all()
