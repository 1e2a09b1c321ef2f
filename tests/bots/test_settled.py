"""Settled outcomes: a move's exact points and result, only when no hidden card and no later
move can change them (bots/settled.py; R4, R7-R12)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from kingsbreakfast.bots.settled import settle
from kingsbreakfast.engine import State, sample_world


def last_round(seed: int, players: int, extra: int) -> State | None:
    """A random game, played at random into its last round (the deck below 2 x players,
    R4), then ``extra`` turns more; None when it ended first."""
    rng = random.Random(seed)
    state = State.new(players, rng)
    while not state.is_over and state.view(None).deck_size >= 2 * players:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    for _ in range(extra):
        if state.is_over:
            return None
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return None if state.is_over else state


def result_of(state: State, seat: int) -> str:
    winners = state.score().winners
    if seat not in winners:
        return "loss"
    return "win" if len(winners) == 1 else "shared"


def completions_agree(state: State, samples: int, rng: random.Random) -> int:
    """Check every settled action of the mover against ``samples`` completions each: other
    deals of what the mover cannot see, other choices by everyone after. Returns how many
    actions were settled."""
    mover = state.to_move
    view = state.view(mover)
    settled_count = 0
    for action in view.legal_actions():
        settled = settle(view, action)
        if settled is None:
            continue
        settled_count += 1
        for _ in range(samples):
            world = sample_world(view, rng)
            world.apply(action)
            while not world.is_over:
                legal = world.legal_actions()
                world.apply(legal[rng.randrange(len(legal))])
            scoring = world.score()
            assert scoring.points[mover] == settled.points, action
            assert scoring.discarded[mover] == settled.discarded, action
            if settled.result is not None:
                assert result_of(world, mover) == settled.result, action
    return settled_count


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(2, 10**6),
    players=st.sampled_from([3, 4, 5]),
    extra=st.integers(0, 5),
)
def test_a_settled_row_is_what_every_completion_gives(seed: int, players: int, extra: int) -> None:
    state = last_round(seed, players, extra)
    if state is None:
        return
    completions_agree(state, 40, random.Random(seed + 1))


def test_settled_moves_are_found_and_both_kinds_of_result_occur() -> None:
    """Over many last rounds some moves are settled, with wins and losses among them: the
    property above is about something."""
    settled = 0
    results: set[str | None] = set()
    for seed in range(2, 160):
        state = last_round(seed, 3 + seed % 3, seed % 4)
        if state is None:
            continue
        settled += completions_agree(state, 5, random.Random(seed))
        view = state.view(state.to_move)
        results |= {s.result for a in view.legal_actions() if (s := settle(view, a))}
    assert settled >= 50
    assert {"win", "loss"} <= results


def test_a_draw_is_never_settled_and_other_seats_do_not_see_the_mover_s_draws() -> None:
    """R7: the drawn card is unseen; a view without the mover's drawn cards settles nothing
    that depends on them (a spectator's view here)."""
    for seed in range(2, 200):
        state = last_round(seed, 4, seed % 4)
        if state is None:
            continue
        mover = state.to_move
        own = state.view(mover)
        spectator = state.view(None)
        for action in own.legal_actions():
            if action.kind == "draw":
                assert settle(own, action) is None
            if own.hands[mover].hidden:
                assert settle(spectator, action) is None
