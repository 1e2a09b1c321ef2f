"""The bounds settle proves results with (bots/settled.py; R7, R11, R12): another seat's most
and least points over every deal of its hidden cards, checked against every deal itself; and
no outcome settled where no seat is to move."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples
from kingsbreakfast.bots.settled import _extreme, settle
from kingsbreakfast.engine import NUM_DISHES, Action, State, score_hand


def every_deal(pool: list[int], unseen: int) -> list[tuple[int, ...]]:
    """Every way ``unseen`` cards can be dealt from ``pool`` (counts by dish), by dish."""
    ranges = [range(min(count, unseen) + 1) for count in pool]
    return [deal for deal in itertools.product(*ranges) if sum(deal) == unseen]


counts = st.lists(st.integers(0, 4), min_size=NUM_DISHES, max_size=NUM_DISHES)


@settings(max_examples=examples(200), deadline=None)
@given(known=counts, pool=counts, king=st.lists(st.integers(0, 15), min_size=NUM_DISHES,
                                                  max_size=NUM_DISHES),
       unseen=st.integers(0, 5))
def test_a_hidden_hand_s_bounds_are_its_best_and_worst_deal(
    known: list[int], pool: list[int], king: list[int], unseen: int
) -> None:
    """R11: a dish scores its count times the king's when the hand holds no more than the
    king, else nothing. The most and the least a hand of ``known`` cards and ``unseen`` more
    can score are those of its best and its worst deal from the cards not seen."""
    unseen = min(unseen, sum(pool))
    points = [score_hand(king, [k + d for k, d in zip(known, deal, strict=True)])[0]
              for deal in every_deal(pool, unseen)]
    assert _extreme(known, unseen, pool, king, True) == max(points)
    assert _extreme(known, unseen, pool, king, False) == min(points)


def test_nothing_is_settled_where_no_seat_is_to_move() -> None:
    """Once the game is over (R10) no seat moves, and at a chance step (a card turned up,
    R4) neither: no move has an outcome to settle."""
    rng = random.Random(5)
    state = State.new(3, rng)
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    for seat in (0, 1, 2, None):
        assert settle(state.view(seat), Action.take(0)) is None
    chance = State.with_unknown_deck(3)
    assert chance.is_chance
    assert settle(chance.view(0), Action.take(0)) is None
