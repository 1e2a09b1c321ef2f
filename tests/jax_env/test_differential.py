"""The JAX environment against the rules engine, both ways, for 3–5 players and every variant.

The JAX environment is a copy of the rules, so it is trusted only as far as these tests go:

- **engine → JAX**: the engine deals a shuffled deck and plays random legal actions; the JAX
  environment (a vmapped batch, one game per row) is given the same actions and, as its
  chance, the cards the engine turns up (the deck's next cards, ``Env.step_with``);
- **JAX → engine**: the JAX environment plays random legal actions with chance from its
  keys; the engine is then dealt the deck those draws make (the cards turned up, in order,
  then the rest) and replays the actions through its checked ``play``.

At every step the seat to move, the 38-entry legal mask, every seat's view tensor (bit for
bit the interop encoding of that seat's engine view, R7b's hidden draws included) must
agree; at the end, ``terminated``, the R11 points and the R12 rank rewards.
"""

from __future__ import annotations

import random
from itertools import product
from typing import Any

import pytest

np = pytest.importorskip("numpy")
jax = pytest.importorskip("jax")
jnp = jax.numpy

from kingsbreakfast.engine import (  # noqa: E402
    DECK_SIZE,
    DRAW_ID,
    NUM_ACTIONS,
    Rules,
    State,
    shuffled_deck,
)
from kingsbreakfast.jax import Env  # noqa: E402
from kingsbreakfast.jax.rules import CARD_KINDS, FULL_DECK, score  # noqa: E402
from kingsbreakfast.tensor import encode, offsets, utilities  # noqa: E402

VARIANTS = [
    Rules(empty_table, dragon_min)
    for empty_table, dragon_min in product(("draw_or_feed", "must_draw"), (1, 2))
]
CASES = [(n, rules) for n in (3, 4, 5) for rules in VARIANTS]
GAMES = 96
"""Games per case and direction: 12 cases × 96 = 1,152 games each way."""

_COMPILED: dict[tuple[int, Rules], tuple[Env, Any, Any, Any, Any]] = {}


def compiled(players: int, rules: Rules) -> tuple[Env, Any, Any, Any, Any]:
    """The environment's batched functions, compiled once per case."""
    if (players, rules) not in _COMPILED:
        env = Env(players, rules)
        _COMPILED[players, rules] = (
            env,
            jax.jit(jax.vmap(env.init_with)),
            jax.jit(jax.vmap(env.step_with)),
            jax.jit(jax.vmap(env.step)),
            jax.jit(jax.vmap(jax.vmap(env.observe, in_axes=(None, 0)), in_axes=(0, None))),
        )
    return _COMPILED[players, rules]


def engine_mask(state: State) -> list[bool]:
    legal = {int(a) for a in state.legal_actions()}
    return [a in legal for a in range(NUM_ACTIONS)]


def compare(
    state: State, row: dict[str, Any], tensors: Any, players: int, where: str
) -> None:
    """The engine's ``state`` and one row of the JAX batch, at one step."""
    mover = state.to_move
    assert bool(row["terminated"]) == (mover is None), where
    if mover is None:
        # pgx: the seat that ended the game stays the current player, and it is shown
        ender = int(row["current_player"])
        assert 0 <= ender < players, where
        assert bool(row["legal_action_mask"].all()), where  # pgx: all True once over
        assert np.array_equal(row["observation"], tensors[ender]), where
    else:
        assert int(row["current_player"]) == mover, where
        assert row["legal_action_mask"].tolist() == engine_mask(state), where
        assert np.array_equal(row["observation"], tensors[mover]), where
    for seat in range(players):
        expected = np.asarray(encode(state.view(seat)), np.float32)
        assert np.array_equal(tensors[seat], expected), (
            f"{where}, seat {seat}'s view differs in {differing(tensors[seat], expected)}"
        )


def differing(got: Any, expected: Any) -> list[str]:
    """The layout's fields in which two view tensors differ."""
    return [
        f"{name} {got[a:b].tolist()} != {expected[a:b].tolist()}"
        for name, (a, b) in offsets().items()
        if not np.array_equal(got[a:b], expected[a:b])
    ]


def rows(batch: Any, g: int) -> dict[str, Any]:
    return {
        name: np.asarray(getattr(batch, name))[g]
        for name in ("current_player", "terminated", "legal_action_mask", "observation")
    }


def compare_end(state: State, batch: Any, g: int, where: str, rewards: Any = None) -> None:
    """R11 and R12 at a game's end; ``rewards`` are those of the step that ended it (by
    default ``batch``'s own)."""
    scoring = state.score()
    points, _ = score(
        jnp.asarray(batch._game.king[g]), jnp.asarray(batch._game.takes[g]),
        jnp.asarray(batch._game.draws[g]),
    )
    assert np.asarray(points).tolist() == scoring.points, where
    got = np.asarray(batch.rewards[g] if rewards is None else rewards[g])
    assert got.tolist() == pytest.approx(
        utilities(scoring, "rank"), abs=1e-6
    ), where


@pytest.mark.parametrize(("players", "rules"), CASES)
def test_engine_games_replay_in_jax(players: int, rules: Rules) -> None:
    env, init_with, step_with, _, observe = compiled(players, rules)
    rng = random.Random(players * 101 + rules.dragon_min_on_table * 7 + len(rules.empty_table))
    seats = jnp.arange(players)
    width = env.chance_size
    decks = [shuffled_deck(rng) for _ in range(GAMES)]
    cooks = [rng.randrange(players) for _ in range(GAMES)]
    states = [State(deck, players, cook, rules) for deck, cook in zip(decks, cooks, strict=True)]

    def next_cards(g: int) -> list[int]:
        top = DECK_SIZE - states[g].view(None).deck_size
        cards = list(decks[g][top : top + width])
        return cards + [CARD_KINDS] * (width - len(cards))

    batch = init_with(
        jnp.asarray([list(deck[:width]) for deck in decks]), jnp.asarray(cooks)
    )
    rewarded = [False] * GAMES
    step = 0
    kinds: set[int] = set()
    while True:
        tensors = np.asarray(observe(batch, seats))
        for g, state in enumerate(states):
            compare(state, rows(batch, g), tensors[g], players, f"game {g}, step {step}")
            if state.is_over and not rewarded[g]:
                compare_end(state, batch, g, f"game {g}'s end")
                rewarded[g] = True
        if all(state.is_over for state in states):
            break
        actions = []
        cards = []
        for g, state in enumerate(states):
            cards.append(next_cards(g))
            if state.is_over:
                actions.append(0)  # a step on a finished game changes nothing (pgx)
                continue
            action = rng.choice(state.legal_actions())
            kinds.add(int(action) if int(action) <= 9 else 9)
            actions.append(int(action))
            state.play(action)
        batch = step_with(batch, jnp.asarray(actions), jnp.asarray(cards))
        step += 1
    assert kinds >= {DRAW_ID, 8, 9}, "the games drew, placed and fed dragons"


@pytest.mark.parametrize(("players", "rules"), CASES)
def test_jax_games_replay_in_the_engine(players: int, rules: Rules) -> None:
    env, _, _, step, observe = compiled(players, rules)
    init = jax.jit(jax.vmap(env.init))
    seed = players * 13 + rules.dragon_min_on_table * 5 + len(rules.empty_table)
    key = jax.random.PRNGKey(seed)
    key, start = jax.random.split(key)
    batch = init(jax.random.split(start, GAMES))
    chance = jax.jit(jax.vmap(env.chance))
    n = players
    first = np.asarray(batch._game.table).copy()  # the first table's cards (init drew them)
    trajectory = []
    end_rewards = np.zeros((GAMES, n), np.float32)
    while not bool(np.asarray(batch.terminated).all()):
        key, pick, turn = jax.random.split(key, 3)
        logits = jnp.where(batch.legal_action_mask, 0.0, -jnp.inf)
        actions = jax.random.categorical(pick, logits)
        keys = jax.random.split(turn, GAMES)
        cards = chance(batch, keys)  # what step draws with these keys
        tensors = np.asarray(observe(batch, jnp.arange(n)))
        before = {name: np.asarray(getattr(batch, name)) for name in
                  ("current_player", "terminated", "legal_action_mask", "observation")}
        before["round"] = np.asarray(batch._game.round)
        batch = step(batch, actions, keys)
        ended = np.asarray(batch.terminated) & ~before["terminated"]
        end_rewards[ended] = np.asarray(batch.rewards)[ended]
        trajectory.append((before, tensors, np.asarray(actions), np.asarray(cards),
                           np.asarray(batch._game.round)))  # fmt: skip
    final = batch
    final_tensors = np.asarray(observe(batch, jnp.arange(n)))
    cooks = np.asarray(trajectory[0][0]["current_player"])
    for g in range(GAMES):
        # the deck these draws make: first table, then each step's cards as it used them
        used = [card for card in range(CARD_KINDS) for _ in range(first[g][card])]
        random.Random(g).shuffle(used)  # a table's order does not matter (R4)
        for before, _, actions, cards, rounds in trajectory:
            if before["terminated"][g]:
                continue
            drew = int(actions[g]) == DRAW_ID
            if drew:
                used.append(int(cards[g][0]))
            if rounds[g] > before["round"][g]:  # the round ended and a table was set
                used += [int(c) for c in cards[g][int(drew) : int(drew) + 2 * n]]
        rest = FULL_DECK.copy()
        for card in used:
            rest[card] -= 1
        assert (rest >= 0).all(), f"game {g} drew more cards of a kind than the deck holds"
        deck = used + [card for card in range(CARD_KINDS) for _ in range(rest[card])]
        state = State(deck, n, int(cooks[g]), rules)
        for t, (before, tensors, actions, _, _) in enumerate(trajectory):
            if before["terminated"][g]:
                break
            ender = int(before["current_player"][g])
            row = {name: value[g] for name, value in before.items()}
            compare(state, row, tensors[g], n, f"game {g}, step {t}")
            state.play(int(actions[g]))
        last = {name: np.asarray(getattr(final, name))[g] for name in
                ("current_player", "terminated", "legal_action_mask", "observation")}
        compare(state, last, final_tensors[g], n, f"game {g}'s end")
        assert int(last["current_player"]) == ender  # the mover of the last step (pgx)
        compare_end(state, final, g, f"game {g}'s end", end_rewards)
        assert int(final._game.removed_unseen[g]) == state.view(None).removed_unseen
