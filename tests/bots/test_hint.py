"""The hint: every legal action ranked from what the asking seat can see."""

from __future__ import annotations

import random

import pytest

from kingsbreakfast.bots.hint import ActionEstimate, rank_actions
from kingsbreakfast.engine import State, sample_world


def position(seed: int, players: int = 4, steps: int = 20) -> State:
    rng = random.Random(seed)
    state = State.new(players, rng)
    for _ in range(steps):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    assert not state.is_over
    return state


def test_ranks_every_legal_action_best_first() -> None:
    state = position(1)
    ranking = rank_actions(state.view(state.to_move), random.Random(0), simulations=300)
    assert {e.action for e in ranking} == set(state.legal_actions())
    visits = [e.visits for e in ranking]
    assert visits == sorted(visits, reverse=True)
    assert sum(visits) == 300
    for e in ranking:
        assert isinstance(e, ActionEstimate)
        assert 0.0 <= e.win_chance <= 1.0
        assert e.expected_points >= 0.0


def test_same_seed_same_ranking_and_hidden_cards_do_not_matter() -> None:
    state = position(2)
    seat = state.to_move
    view = state.view(seat)
    twin = sample_world(view, random.Random(99))  # other deck, other hidden draws
    first = rank_actions(view, random.Random(4), simulations=200)
    assert rank_actions(view, random.Random(4), simulations=200) == first
    assert rank_actions(twin.view(seat), random.Random(4), simulations=200) == first


@pytest.mark.parametrize("players", [3, 4, 5])
def test_any_seat_and_spectators_get_a_ranking(players: int) -> None:
    state = position(3, players, 12)
    for seat in [*range(players), None]:
        ranking = rank_actions(state.view(seat), random.Random(1), simulations=60)
        assert {e.action for e in ranking} == set(state.legal_actions())


def test_a_pending_dragon_is_ranked_too() -> None:
    for seed in range(300):
        rng = random.Random(seed)
        state = State.new(4, rng)
        while not state.is_over and not state.pending_dragon:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        if state.pending_dragon:
            break
    assert state.pending_dragon
    ranking = rank_actions(state.view(state.to_move), random.Random(0), simulations=50)
    assert {e.action.kind for e in ranking} <= {"place_dragon", "feed"}


def test_a_time_budget_also_works() -> None:
    state = position(4)
    ranking = rank_actions(state.view(state.to_move), random.Random(0), seconds=0.05)
    assert {e.action for e in ranking} == set(state.legal_actions())


def test_finished_games_have_no_hint() -> None:
    rng = random.Random(5)
    state = State.new(3, rng)
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    with pytest.raises(ValueError, match="game is over"):
        rank_actions(state.view(0), random.Random(0), simulations=10)


def test_an_estimate_in_json_names_its_action_in_text() -> None:
    state = position(3)
    best = rank_actions(state.view(state.to_move), random.Random(0), simulations=100)[0]
    data = best.to_dict()
    assert list(data) == ["action", "expected_points", "win_chance", "visits"]
    assert data["action"] == str(best.action) and data["visits"] == best.visits
    assert (data["expected_points"], data["win_chance"]) == (best.expected_points, best.win_chance)
