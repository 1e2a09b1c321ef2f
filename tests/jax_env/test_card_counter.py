"""The JAX card counter (``kingsbreakfast.jax.card_counter``) chooses as the ``hard`` bot
(bots/heuristic.py) does, at every decision of engine games, 3–5 players, every variant.

The engine plays the games (the mover plays ``hard``'s choice three times in four, a random
legal action otherwise, so that dragons are drawn, placed and fed and odd positions arise);
every decision is written as the JAX environment's arrays (a :class:`Game`, each seat's draws
read from its own view) with the engine's legal mask, and valued by the JAX counter in
batches. (That the JAX environment reaches the same arrays and masks by itself is
tests/jax_env/test_differential.py's business.) At every decision the set of actions the
bot values best from the mover's view (within its own tolerance) must be the set the JAX
counter values best: ``hard`` breaks a tie at random, so the sets are compared, not one draw
from each. The comparison runs in double precision (``jax.enable_x64``), the precision of the
bot's arithmetic.

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
from kingsbreakfast.engine import NUM_ACTIONS, Rules, State, shuffled_deck  # noqa: E402
from kingsbreakfast.jax import Env, Game, sample_world  # noqa: E402
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


CHUNK = 256
"""Positions valued per call of the compiled counter (a fixed shape: one compilation per
table size, whatever the variant; the variant shows only in the legal mask)."""
_COMPILED: dict[int, Any] = {}


def counter_best(game: Game, legal: Any) -> Any:
    """The JAX counter's best actions for the seat to move, from its view."""
    return best_actions(counter_values(seat_view(game, game.to_move), legal))


def as_game(state: State) -> tuple[Game, Any]:
    """The engine's ``state`` as the JAX environment's arrays, and its legal mask. Each
    seat's draws come from that seat's own view; the deck's counts are what no view places
    (R1)."""
    n = state.num_players
    public = state.view(None)
    draws = np.array([state.view(s).hands[s].draws for s in range(n)], np.int32)
    takes = np.array([hand.takes for hand in public.hands], np.int32)
    table = np.array([*public.table, public.table_dragons], np.int32)
    king = np.array(public.king, np.int32)
    removed = np.array(public.removed_dishes, np.int32)
    deck = np.zeros(CARD_KINDS, np.int32)
    deck[:-1] = 15 - table[:-1] - king - removed - takes.sum(0) - draws.sum(0)
    deck[-1] = 5 - table[-1] - public.removed_dragons - int(public.pending_dragon)
    assert deck.sum() == public.deck_size
    legal = np.zeros(NUM_ACTIONS, bool)
    legal[[int(a) for a in state.legal_actions()]] = True
    game = Game(
        to_move=np.int32(state.to_move), table=table, king=king, takes=takes, draws=draws,
        deck=deck, removed_dishes=removed, removed_dragons=np.int32(public.removed_dragons),
        removed_unseen=np.int32(0), pending_dragon=np.bool_(public.pending_dragon),
        cook=np.int32(public.cook), round=np.int32(public.round),
        turns_left=np.int32(public.turns_left),
    )
    return game, legal


def jax_best(positions: list[tuple[Game, Any]], players: int) -> Any:
    """The counter's best actions of every position, ``CHUNK`` at a time (bool rows)."""
    if players not in _COMPILED:
        _COMPILED[players] = jax.jit(jax.vmap(counter_best))
    best = _COMPILED[players]
    out = []
    for start in range(0, len(positions), CHUNK):
        part = positions[start : start + CHUNK]
        part = part + [part[-1]] * (CHUNK - len(part))  # one shape: one compilation
        games = jax.tree.map(lambda *rows: np.stack(rows), *[game for game, _ in part])
        legal = np.stack([mask for _, mask in part])
        out.append(np.asarray(best(games, legal))[: len(positions) - start])
    return np.concatenate(out)


def replay(players: int, rules: Rules, games: int, seed: int) -> tuple[int, int, int]:
    """Engine games, every decision valued by the bot and the JAX counter: (decisions,
    decisions agreed, decisions with a tie)."""
    rng = random.Random(seed)
    positions: list[tuple[Game, Any]] = []
    expected: list[set[int]] = []
    for _ in range(games):
        state = State(shuffled_deck(rng), players, rng.randrange(players), rules)
        while not state.is_over:
            best = bot_best(state)
            positions.append(as_game(state))
            expected.append(best)
            legal = {int(a): a for a in state.legal_actions()}
            pick = rng.choice(sorted(best)) if rng.random() < 0.75 else rng.choice(list(legal))
            state.play(legal[pick])
    got = jax_best(positions, players)
    agreed = sum(set(np.flatnonzero(row).tolist()) == want
                 for row, want in zip(got, expected, strict=True))  # fmt: skip
    return len(expected), agreed, sum(len(want) > 1 for want in expected)


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
    act = jax.jit(card_counter_action)
    values = jax.jit(
        lambda s: counter_values(seat_view(s._game, s.current_player), s.legal_action_mask)
    )
    world = jax.jit(lambda s, k: sample_world(env, s, s.current_player, k))
    key = jax.random.PRNGKey(5)
    state = jax.jit(env.init)(key)
    checked = 0
    while not bool(state.terminated):
        key, pick, deal = jax.random.split(key, 3)
        if int(state._game.draws.sum()) > 2 and int(state._step_count) % 4 == 0:
            seen = np.asarray(values(state))
            for k in jax.random.split(deal, 3):
                other = world(state, k)
                assert np.array_equal(np.asarray(values(other)), seen)
            checked += 1
        action = act(state, pick)
        state = step(state, action, deal)
    assert checked > 5


def test_a_tie_is_broken_at_random_among_the_tied_or_by_the_lowest_id() -> None:
    values = jnp.full(38, -jnp.inf).at[jnp.array([3, 7, 20])].set(jnp.array([2.0, 2.0, 1.0]))
    values = values.at[9].set(2.0 - 1e-10)  # within the bot's tolerance of the best
    assert np.flatnonzero(np.asarray(best_actions(values))).tolist() == [3, 7, 9]
    assert int(choose(values)) == 3
    picks = [int(choose(values, k)) for k in jax.random.split(jax.random.PRNGKey(1), 60)]
    assert set(picks) == {3, 7, 9}
