"""The JAX card counter (``kingsbreakfast.jax.card_counter``) chooses as the ``hard`` bot
(bots/heuristic.py) does, at every decision of engine games, 3–5 players, every variant.

The engine plays the games (the mover plays ``hard``'s choice three times in four, a random
legal action otherwise, so that dragons are drawn, placed and fed and odd positions arise);
the JAX environment replays them with the engine's cards (``Env.step_with``), a batch of
games at once. At every decision the set of actions the bot values best from the mover's
view (within its own tolerance) must be the set the JAX counter values best: ``hard`` breaks
a tie at random, so the sets are compared, not one draw from each. The comparison runs in
double precision (``jax.enable_x64``), the precision of the bot's arithmetic.

A second test deals other worlds for the mover (``sample_world``): the counter must value
every action the same in each, because it may read only what the mover sees (R7b).
"""

from __future__ import annotations

import random
from itertools import product
from typing import Any

import pytest

np = pytest.importorskip("numpy")
jax = pytest.importorskip("jax")
jnp = jax.numpy

from kingsbreakfast.bots import heuristic  # noqa: E402
from kingsbreakfast.engine import DECK_SIZE, Rules, State, shuffled_deck  # noqa: E402
from kingsbreakfast.jax import Env, sample_world  # noqa: E402
from kingsbreakfast.jax.card_counter import (  # noqa: E402
    best_actions,
    card_counter_action,
    choose,
    counter_values,
    seat_view,
)
from kingsbreakfast.jax.rules import CARD_KINDS  # noqa: E402

VARIANTS = [Rules(e, d) for e, d in product(("draw_or_feed", "must_draw"), (1, 2))]
CASES = [(n, rules) for n in (3, 4, 5) for rules in VARIANTS]
GAMES = 8
"""Games per case: 12 cases × 8 games, about 6,000 decisions in all."""


def bot_best(state: State) -> set[int]:
    """The actions ``hard`` values best from the mover's own view (R7b)."""
    view = state.view(state.to_move)
    legal = view.legal_actions()
    if len(legal) == 1:
        return {int(legal[0])}
    values = heuristic.evaluate(view)
    best = max(values[a] for a in legal)
    return {int(a) for a in legal if values[a] >= best - 1e-9}


def counter_best(state: Any) -> Any:
    """The JAX counter's best actions for the seat to move, from its view."""
    view = seat_view(state._game, state.current_player)
    return best_actions(counter_values(view, state.legal_action_mask))


def replay(players: int, rules: Rules, games: int, seed: int) -> tuple[int, int, int]:
    """Engine games replayed in JAX: (decisions, decisions agreed, decisions with a tie)."""
    env = Env(players, rules)
    init_with = jax.jit(jax.vmap(env.init_with))
    step_with = jax.jit(jax.vmap(env.step_with))
    best = jax.jit(jax.vmap(counter_best))
    rng = random.Random(seed)
    width = env.chance_size
    decks = [shuffled_deck(rng) for _ in range(games)]
    cooks = [rng.randrange(players) for _ in range(games)]
    states = [State(deck, players, cook, rules) for deck, cook in zip(decks, cooks, strict=True)]
    batch = init_with(jnp.asarray([list(d[:width]) for d in decks]), jnp.asarray(cooks))
    decisions = agreed = ties = 0
    while not all(state.is_over for state in states):
        chosen = np.asarray(best(batch))
        actions, cards = [], []
        for g, state in enumerate(states):
            top = DECK_SIZE - state.view(None).deck_size
            upcoming = list(decks[g][top : top + width])
            cards.append(upcoming + [CARD_KINDS] * (width - len(upcoming)))
            if state.is_over:
                actions.append(0)  # a finished game does not move (pgx)
                continue
            expected = bot_best(state)
            got = set(np.flatnonzero(chosen[g]).tolist())
            decisions += 1
            agreed += got == expected
            ties += len(expected) > 1
            legal = {int(a): a for a in state.legal_actions()}
            pick = rng.choice(sorted(expected)) if rng.random() < 0.75 else rng.choice(list(legal))
            actions.append(pick)
            state.play(legal[pick])
        batch = step_with(batch, jnp.asarray(actions), jnp.asarray(cards))
    return decisions, agreed, ties


def seed_of(players: int, rules: Rules) -> int:
    return players * 31 + rules.dragon_min_on_table * 7 + len(rules.empty_table)


@pytest.mark.parametrize(("players", "rules"), CASES)
def test_the_jax_counter_chooses_what_hard_chooses(players: int, rules: Rules) -> None:
    with jax.enable_x64(True):
        decisions, agreed, _ = replay(players, rules, GAMES, seed=seed_of(players, rules))

    assert decisions > 300
    assert agreed == decisions, f"{decisions - agreed} of {decisions} decisions differ"


def test_the_counter_reads_only_the_mover_s_view() -> None:
    """Worlds the mover cannot tell apart (other seats' draws dealt anew) get the same
    values and the same choice (R7b)."""
    env = Env(4)
    step = jax.jit(env.step)
    values = jax.jit(
        lambda s: counter_values(seat_view(s._game, s.current_player), s.legal_action_mask)
    )
    world = jax.jit(lambda s, k: sample_world(env, s, s.current_player, k))
    key = jax.random.PRNGKey(5)
    state = jax.jit(env.init)(key)
    checked = 0
    while not bool(state.terminated):
        key, pick, deal = jax.random.split(key, 3)
        if int(state._game.draws.sum()) > 2:
            seen = np.asarray(values(state))
            for k in jax.random.split(deal, 3):
                other = world(state, k)
                assert np.array_equal(np.asarray(values(other)), seen)
            checked += 1
        action = card_counter_action(state, pick)
        state = step(state, action, deal)
    assert checked > 10


def test_a_tie_is_broken_at_random_among_the_tied_or_by_the_lowest_id() -> None:
    values = jnp.full(38, -jnp.inf).at[jnp.array([3, 7, 20])].set(jnp.array([2.0, 2.0, 1.0]))
    values = values.at[9].set(2.0 - 1e-10)  # within the bot's tolerance of the best
    assert np.flatnonzero(np.asarray(best_actions(values))).tolist() == [3, 7, 9]
    assert int(choose(values)) == 3
    picks = [int(choose(values, k)) for k in jax.random.split(jax.random.PRNGKey(1), 60)]
    assert set(picks) == {3, 7, 9}
