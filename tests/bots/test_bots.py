"""Bots: only legal actions, only views, reproducible from their seed."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kingsbreakfast.bots import (
    BOT_NAMES,
    LEVELS,
    Bot,
    GreedyBot,
    HeuristicBot,
    IsmctsBot,
    RandomBot,
    describe_bot,
    make_bot,
)
from kingsbreakfast.bots.registry import EXPERT_SIMULATIONS, MEDIUM_MISTAKES
from kingsbreakfast.engine import State, sample_world

CHEAP = {"ismcts": {"simulations": 40}, "expert": {"simulations": 60}}
ALL_NAMES = BOT_NAMES + LEVELS


def cheap_bot(name: str) -> Bot:
    return make_bot(name, **CHEAP.get(name, {}))


def random_position(seed: int, players: int, steps: int) -> State:
    rng = random.Random(seed)
    state = State.new(players, rng, first_cook=seed % players)
    for _ in range(steps):
        legal = state.legal_actions()
        if not legal:
            break
        state.apply(legal[rng.randrange(len(legal))])
    return state


def test_levels_weakest_first_and_every_name_builds() -> None:
    assert LEVELS == ("easy", "medium", "hard", "expert", "master", "chef")
    for name in ALL_NAMES:
        bot = make_bot(name)
        assert isinstance(bot, Bot)
        assert bot.name == name
        text = describe_bot(name)
        assert len(text) > 150 and text == bot.description


def test_unknown_names_and_options_are_refused_clearly() -> None:
    with pytest.raises(ValueError, match="unknown bot 'grandmaster'"):
        make_bot("grandmaster")
    with pytest.raises(ValueError, match="takes no options"):
        make_bot("greedy", simulations=3)
    with pytest.raises(ValueError, match="bad option"):
        make_bot("ismcts", depth=3)
    with pytest.raises(ValueError, match="simulations must be at least 1"):
        make_bot("expert", simulations=0)


@pytest.mark.parametrize("name", ["random", "greedy", "heuristic", "medium", "ismcts"])
def test_bots_play_legal_actions_in_thousands_of_positions(name: str) -> None:
    bot = make_bot(name, simulations=4) if name == "ismcts" else make_bot(name)
    rng = random.Random(11)
    checked = 0
    for seed in range(50):
        state = State.new(3 + seed % 3, seed)
        while not state.is_over:
            seat = state.to_move
            action = bot.act(state.view(seat), rng)
            assert action in state.legal_actions()
            state.play(action, seat)
            checked += 1
    assert checked > 2000


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(3, 5),
    steps=st.integers(0, 80),
    name=st.sampled_from(ALL_NAMES),
)
def test_every_bot_returns_a_legal_action(seed: int, players: int, steps: int, name: str) -> None:
    state = random_position(seed, players, steps)
    if state.is_over:
        return
    action = cheap_bot(name).act(state.view(state.to_move), random.Random(seed))
    assert action in state.legal_actions()


@pytest.mark.parametrize("name", ALL_NAMES)
def test_hidden_cards_do_not_change_the_move(name: str) -> None:
    """Two worlds that agree on everything the seat sees, differing in the deck and the
    other players' drawn cards: the bot must choose the same, whatever lies hidden."""
    for seed in range(6):
        state = random_position(seed, 4, 8 + 5 * seed)
        seat = state.to_move
        assert seat is not None
        view = state.view(seat)
        other_world = sample_world(view, random.Random(1000 + seed))
        assert other_world.view(seat) == view
        first = cheap_bot(name).act(state.view(seat), random.Random(5))
        second = cheap_bot(name).act(other_world.view(seat), random.Random(5))
        assert first == second


@pytest.mark.parametrize("name", ALL_NAMES)
def test_same_seed_same_view_same_move(name: str) -> None:
    state = random_position(3, 5, 30)
    view = state.view(state.to_move)
    moves = {cheap_bot(name).act(view, random.Random(42)) for _ in range(3)}
    assert len(moves) == 1


def test_bots_refuse_a_finished_game() -> None:
    state = random_position(1, 3, 10**4)
    assert state.is_over
    for name in ALL_NAMES:
        with pytest.raises(ValueError, match="game is over"):
            cheap_bot(name).act(state.view(0), random.Random(0))


def test_random_bot_is_still_exported_for_the_cli() -> None:
    assert make_bot("random").__class__ is RandomBot


def test_medium_slips_sometimes_and_heuristic_never() -> None:
    state = random_position(8, 4, 12)
    view = state.view(state.to_move)
    assert len(view.legal_actions()) > 2
    best = make_bot("heuristic").act(view, random.Random(0))
    assert {make_bot("heuristic").act(view, random.Random(s)) for s in range(30)} == {best}
    slips = {make_bot("medium", mistakes=1.0).act(view, random.Random(s)) for s in range(30)}
    assert len(slips) > 1
    with pytest.raises(ValueError, match="mistakes is a probability"):
        make_bot("medium", mistakes=1.5)


def test_the_levels_are_the_bots_the_ladder_measured() -> None:
    # easy < medium < hard < expert (docs/analysis.md, benchmarks/ladder.py)
    assert isinstance(make_bot("easy"), GreedyBot)
    medium, hard = make_bot("medium"), make_bot("hard")
    assert isinstance(medium, HeuristicBot) and isinstance(hard, HeuristicBot)
    assert medium.mistakes == MEDIUM_MISTAKES > 0 and hard.mistakes == 0
    expert = make_bot("expert")
    assert isinstance(expert, IsmctsBot)
    assert expert.simulations == EXPERT_SIMULATIONS
    state = random_position(9, 4, 20)
    expert.act(state.view(state.to_move), random.Random(0))
    assert expert.last_simulations == expert.simulations


def test_a_time_budget_alone_is_not_capped_by_a_simulation_count() -> None:
    timed = make_bot("expert", seconds=0.5)
    assert isinstance(timed, IsmctsBot)
    assert timed.simulations is None and timed.seconds == 0.5
    both = make_bot("ismcts", simulations=30, seconds=5.0)
    assert isinstance(both, IsmctsBot)
    state = random_position(4, 3, 10)
    both.act(state.view(state.to_move), random.Random(0))
    assert both.last_simulations == 30  # whichever budget runs out first
