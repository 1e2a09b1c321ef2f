"""The batch simulator against the rules engine: same decks and choices, same games.

The batch simulator is a second implementation of the rules, so it is trusted only
as far as these tests go. Both directions are checked, for 3, 4 and 5 players and every
combination of the two variants:

- the simulator plays (random or greedy seats) and records its decks, legal-set sizes and
  actions; the engine replays them with the *checked* ``play`` and must find every action
  legal, the same number of legal actions at every step, and the same final state;
- the engine plays (uniformly random over its own legal actions) and the simulator replays
  those actions as a script on the same decks, and must accept every one and end equal.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from kingsbreakfast.engine import Rules, State, shuffled_deck  # noqa: E402
from kingsbreakfast.sim.batch import BatchResult, simulate  # noqa: E402

VARIANTS = [
    Rules(empty_table, dragon_min)
    for empty_table, dragon_min in product(("draw_or_feed", "must_draw"), (1, 2))
]
CASES = [(n, rules) for n in (3, 4, 5) for rules in VARIANTS]
GAMES = 250


def assert_same_final(state: State, result: BatchResult, g: int) -> None:
    """Every part of the final state the simulator reports equals the engine's."""
    assert state.is_over
    n = state.num_players
    assert tuple(result.king[g]) == state.king
    assert tuple(result.table[g]) == state.table
    assert result.table_dragons[g] == state.table_dragons
    assert tuple(result.removed_dishes[g]) == state.view(None).removed_dishes
    view = state.view(None)
    assert result.removed_dragons[g] == view.removed_dragons
    assert result.removed_unseen[g] == view.removed_unseen
    assert result.rounds[g] == state.round
    assert result.num_actions[g] == len(state.actions)
    for seat in range(n):
        hand = view.hands[seat]
        assert tuple(result.takes[g, seat]) == hand.takes
        assert tuple(result.draws[g, seat]) == hand.draws
        assert tuple(result.hands[g, seat]) == state.hand(seat)
    scoring = state.score()
    assert [int(x) for x in result.points[g]] == scoring.points
    assert [int(x) for x in result.discarded[g]] == scoring.discarded
    assert tuple(int(s) for s in np.flatnonzero(result.winners[g])) == scoring.winners


def coverage(actions: list[int]) -> Counter[str]:
    kinds: Counter[str] = Counter()
    for previous, action in zip([-1, *actions], actions, strict=False):
        if action == 8:
            kinds["place"] += 1
        elif 9 <= action <= 36:
            kinds["feed drawn" if previous == 7 else "feed"] += 1
        elif action == 37:
            kinds["pass"] += 1
        if previous == 7 and action in range(8, 37):
            kinds["dragon drawn"] += 1
    return kinds


@pytest.mark.parametrize(("players", "rules"), CASES)
@pytest.mark.parametrize("policies", ["random", "greedy-mixed"])
def test_engine_replays_the_simulator(players: int, rules: Rules, policies: str) -> None:
    seats = "random" if policies == "random" else ["greedy", *["random"] * (players - 1)]
    result = simulate(GAMES, players, seats, seed=players * 7 + 1, rules=rules, record=True)
    assert result.actions is not None
    assert result.legal_counts is not None
    assert result.decks is not None
    seen: Counter[str] = Counter()
    for g in range(GAMES):
        state = State([int(c) for c in result.decks[g]], players, 0, rules)
        length = int(result.num_actions[g])
        for t in range(length):
            assert len(state.legal_actions()) == result.legal_counts[g, t], (g, t)
            state.play(int(result.actions[g, t]))  # checked: raises if not legal
        assert (result.actions[g, length:] == -1).all()
        assert_same_final(state, result, g)
        seen += coverage([int(a) for a in result.actions[g, :length]])
    assert seen["dragon drawn"] and seen["place"] and seen["feed"] and seen["feed drawn"]


@pytest.mark.parametrize(("players", "rules"), CASES)
def test_simulator_replays_the_engine(players: int, rules: Rules) -> None:
    rng = random.Random(1000 + players)
    decks = []
    scripts = []
    states = []
    seen: Counter[str] = Counter()
    for _ in range(GAMES):
        deck = shuffled_deck(rng)
        state = State(deck, players, 0, rules)
        legal = state.legal_actions()
        while legal:
            state.apply(legal[rng.randrange(len(legal))])
            legal = state.legal_actions()
        decks.append(deck)
        scripts.append([int(a) for a in state.actions] + [-1] * (64 - len(state.actions)))
        states.append(state)
        seen += coverage([int(a) for a in state.actions])
    result = simulate(GAMES, players, decks=decks, actions=scripts, rules=rules)
    assert (result.illegal_at == -1).all()
    for g, state in enumerate(states):
        assert_same_final(state, result, g)
    assert seen["dragon drawn"] and seen["place"] and seen["feed"]


def test_passes_and_must_draw_are_covered() -> None:
    """R5b passes are rare in random play; over a larger batch both sides meet them, and the
    engine agrees with every one (the legal-set size 1 with action 37)."""
    result = simulate(4000, 5, seed=5, record=True)
    assert result.actions is not None and result.decks is not None
    games = np.flatnonzero((result.actions == 37).any(axis=1))
    assert games.size > 0
    for g in games[:50]:
        state = State([int(c) for c in result.decks[g]], 5)
        for t in range(int(result.num_actions[g])):
            action = int(result.actions[g, t])
            if action == 37:
                assert [int(a) for a in state.legal_actions()] == [37]
            state.play(action)
        assert_same_final(state, result, int(g))


def test_an_illegal_scripted_action_is_reported_where_it_happens() -> None:
    deck = shuffled_deck(random.Random(3))
    state = State(deck, 4)
    first = state.legal_actions()[0]
    state.apply(first)
    not_legal = next(a for a in range(38) if a not in state.legal_actions())
    result = simulate(1, 4, decks=[deck], actions=[[int(first), not_legal]])
    assert result.illegal_at[0] == 1


@settings(max_examples=25, deadline=None)
@given(
    players=st.sampled_from([3, 4, 5]),
    rules=st.sampled_from(VARIANTS),
    seed=st.integers(0, 2**64 - 1),
    first_cook=st.integers(0, 4),
    greedy_seats=st.sets(st.integers(0, 4)),
)
def test_any_seed_cook_and_seating_agree_with_the_engine(
    players: int, rules: Rules, seed: int, first_cook: int, greedy_seats: set[int]
) -> None:
    cook = first_cook % players
    seats = ["greedy" if s in greedy_seats else "random" for s in range(players)]
    result = simulate(20, players, seats, seed=seed, rules=rules, first_cook=cook, record=True)
    assert result.actions is not None and result.decks is not None
    for g in range(20):
        state = State([int(c) for c in result.decks[g]], players, cook, rules)
        for t in range(int(result.num_actions[g])):
            state.play(int(result.actions[g, t]))
        assert_same_final(state, result, g)
