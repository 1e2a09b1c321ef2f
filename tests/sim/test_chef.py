"""The chef bot: legal, repeatable moves that depend on the seat's view alone.

Hidden information (docs/rules.md, *Who sees what*): the search deals the cards the mover
cannot see itself, so two states that the mover sees alike (the other hands' draws and the
deck order dealt differently, by the engine's own determinization) must get the very same
move and the very same values for a given seed.
"""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from kingsbreakfast.bots import make_bot  # noqa: E402
from kingsbreakfast.bots.chef import ChefBot  # noqa: E402
from kingsbreakfast.engine import State, View, sample_world  # noqa: E402

SMALL = {"candidates": 3, "worlds": 4}


def position(seed: int, players: int, moves: int) -> State:
    """A state some way into a game of hard bots."""
    rng = random.Random(seed)
    state = State.new(players, rng)
    hard = make_bot("hard")
    for _ in range(moves):
        if state.is_over:
            break
        state.play(hard.act(state.view(state.to_move), rng))
    return state


def public(view) -> dict:
    """Everything a view says except the history (a dealt world has none)."""
    out = view.to_dict()
    del out["history"]
    return out


def twin_views(seed: int, players: int, moves: int, world_seed: int) -> tuple[View, View] | None:
    """The mover's view some way into a game of hard bots, and the same seat's view of
    another deal of everything it cannot see (hidden cards and deck redealt); None where the
    game is over or the mover has no choice. The two views show the same public facts."""
    state = position(seed, players, moves)
    if state.is_over or len(state.legal_actions()) < 2:
        return None
    seat = state.to_move
    view = state.view(seat)
    other_view = sample_world(view, random.Random(world_seed)).view(seat)
    assert public(other_view) == public(view)
    return view, other_view


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(3, 5), moves=st.integers(0, 60),
       world_seed=st.integers(0, 2**32), search_seed=st.integers(1, 2**63))
def test_the_move_and_values_depend_only_on_the_view(
    seed: int, players: int, moves: int, world_seed: int, search_seed: int
) -> None:
    twins = twin_views(seed, players, moves, world_seed)
    if twins is None:
        return
    view, other_view = twins
    bot = ChefBot(**SMALL)
    assert bot.choose(view, search_seed) == bot.choose(other_view, search_seed)
    assert bot.values(view, search_seed) == bot.values(other_view, search_seed)


def test_the_values_are_shares_of_the_win_and_the_move_is_the_best_of_them() -> None:
    state = position(3, 4, 9)
    view = state.view(state.to_move)
    bot = ChefBot(**SMALL)
    values = bot.values(view, 99)
    assert [a for a, _ in values] == list(view.legal_actions())
    searched = [(a, v) for a, v in values if v is not None]
    assert 2 <= len(searched) <= SMALL["candidates"]
    assert all(-0.05 <= v <= 1.05 for _, v in searched)  # network leaves may overshoot a bit
    best = max(searched, key=lambda pair: pair[1])[0]
    assert bot.choose(view, 99) == best


@pytest.mark.parametrize("players", [3, 4, 5])
def test_chef_plays_whole_games_and_the_same_seed_gives_the_same_game(players: int) -> None:
    def play() -> list[int]:
        rng = random.Random(5)
        state = State.new(players, rng)
        bots = [make_bot("chef", worlds=2) for _ in range(players)]
        while not state.is_over:
            seat = state.to_move
            action = bots[seat].act(state.view(seat), rng)
            assert action in state.legal_actions()
            state.play(action)
        return [int(a) for a in state.actions]

    assert play() == play()


def test_chef_refuses_a_view_that_is_not_the_movers() -> None:
    state = position(4, 4, 5)
    mover = state.to_move
    bot = ChefBot(**SMALL)
    with pytest.raises(ValueError, match="seat to move"):
        bot.choose(state.view((mover + 1) % 4), 1)
    with pytest.raises(ValueError, match="at least"):
        ChefBot(worlds=0)
