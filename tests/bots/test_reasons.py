"""Why a move: each hint row's reason agrees with the rules facts of the move (R5b-R11)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from kingsbreakfast.bots.reasons import KEYS, leading_rival, reason
from kingsbreakfast.engine import DISHES, UNSHUFFLED_DECK, Action, State, score_hand


def known(state: State, seat: int) -> list[int]:
    hand = state.view(seat).hands[seat]
    return [t + d for t, d in zip(hand.takes, hand.draws or (0,) * 7, strict=True)]


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(2, 10**6), players=st.sampled_from([3, 4, 5]),
       steps=st.integers(0, 60))
def test_every_reason_states_a_fact_of_its_move(seed: int, players: int, steps: int) -> None:
    rng = random.Random(seed)
    state = State.new(players, rng)
    for _ in range(steps):
        if state.is_over:
            return
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    if state.is_over:
        return
    mover = state.to_move
    view = state.view(mover)
    king = view.king
    for action in view.legal_actions():
        why = reason(view, action)
        assert why.key in KEYS
        if action.kind != "take":
            expected = {"draw": {"draw"}, "place_dragon": {"place"}, "pass": {"pass"},
                        "feed": {"feed", "feed_leader"}}[action.kind]
            assert why.key in expected
            continue
        dish = action.dish
        assert dish is not None and why.params["dish"] == DISHES[dish]
        mine = known(state, mover)
        before = score_hand(king, mine)[0]
        mine[dish] += view.table[dish]
        if why.key == "scores":
            assert mine[dish] <= king[dish]  # R11: it scores
            assert why.params["points"] == score_hand(king, mine)[0] - before > 0
        if why.key in ("discarded", "deny_leader_discarded"):
            assert mine[dish] > king[dish]  # R11: more than the king
        if why.key.startswith("deny_leader"):
            rival = leading_rival(view, mover)
            assert rival is not None and view.hands[rival].takes[dish] + (
                view.hands[rival].draws or (0,) * 7)[dish] > 0


def full_deck(first: list[int]) -> list[int]:
    rest = list(UNSHUFFLED_DECK)
    for card in first:
        rest.remove(card)
    random.Random(5).shuffle(rest)
    return first + rest


def test_the_issue_s_move_is_explained() -> None:
    """Taking a dish the mover then holds more of than the king (R11), to keep the leader's
    cards of it from scoring (R9), is explained as such rather than looking like a blunder."""
    # 3 players (R4: 6 cards a table); seat 0 cooks first, seat 1 next
    state = State(full_deck([2, 1, 1, 0, 0, 6, 2, 2, 1, 1, 5, 4]), 3, 0)
    for move in ("take bread", "take ham", "take wine"):  # 2 cheese served (R9)
        state.play(move)
    state.play("take cheese")  # seat 1: 2 cheese x the king's 2, and 1 ham: the leader
    state.play("take cake")  # seat 2
    view = state.view(0)
    assert leading_rival(view, 0) == 1 and view.king[2] == 0 and view.table[2] == 2
    why = reason(view, Action.take("ham"))
    assert (why.key, why.params) == ("deny_leader_discarded", {"dish": "ham"})
    assert reason(view, Action.take("fruit")).key == "discarded"  # the king has no fruit
