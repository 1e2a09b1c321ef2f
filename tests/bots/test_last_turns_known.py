"""The last turns played out (bots/last_turns.py; R9-R12) in hand-built positions whose
numbers are known: a shared win counted as a share (R12), and deals weighed as often as
they are dealt. ``benchmarks/mutants.py`` names the bug each test is there for."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy")

from kingsbreakfast.bots.last_turns import WORLDS, dish_order, is_played_out, played_out
from kingsbreakfast.engine import DRAGON, NUM_DISHES, State, View, shuffled_deck
from renaming import relabel

SHARED = (
    "kb1 3 f1 0 12 0 2 =44446 00302000 ddaf0f0 2000003.0000000/0200003.0000000/"
    "0020100.0000000 0000808.5.0 -"
)
"""Seat 2 moves last in the last round (R4, R10), every hand known: taking fruit serves the
3 ham to the king (R9) and all three seats end with 26 points and 3 discards, a three-way
shared win (R12); taking ham wins outright with 52."""
TIE_BREAK = (
    "kb1 3 f1 0 12 0 2 =44446 00302000 ddaf0f0 2000003.0000000/0200003.0000000/"
    "0020000.0000000 0000908.5.0 -"
)
"""As SHARED, but seat 2 holds no fruit: taking fruit leaves it 26 points and 2 discards
against the others' 3, a win alone on the tie-break (R12)."""
WHO_HOLDS_THE_WINE = (
    "kb1 3 f1 0 15 0 2 = 00000000 1000001 0000000.0000100/0000000.0000201/"
    "1000000.0000000 dfffcfd.5.0 -"
)
"""Seat 2 ends the game with a pass (empty deck and table, R5b): it holds 1 bread against the
king's 1 (1 point, no discard). Seat 0 drew 1 card and seat 1 drew 3, unseen by seat 2: 3
fruit (the king has none, R11) and 1 wine (the king has 1). If seat 0 holds the wine (1 deal
in 4) it also has 1 point and no discard and shares the win (R12): seat 2's share is 1/2;
otherwise seat 2 wins alone. Its share is 1/4 x 1/2 + 3/4 x 1 = 0.875."""

TIE_BREAK_LOST = (
    "kb1 3 f1 0 12 0 2 =44446 00302000 ddaf0f0 2000001.0000000/0200003.0000000/"
    "0020000.0000000 000090a.5.0 -"
)
"""As TIE_BREAK, with two of seat 0's discards gone: taking fruit leaves seat 2 26 points and
2 discards, and seat 0 wins the tie-break with 26 and 1 (R12): a loss in every world."""
SHARED_FROM_DRAWS = (
    "kb1 3 f1 0 12 0 2 =44446 00302000 ddaf0f0 2000003.0000000/0200003.0000000/"
    "0000100.0020000 0000808.5.0 -"
)
"""SHARED with seat 2's two ham drawn (R7) instead of taken: seat 2 sees them, so its
numbers are SHARED's; dealt as hidden cards they would be anything."""


def numbers(text: str) -> dict[str, tuple[float, float]]:
    state = State.from_text(text)
    view = state.view(state.to_move)
    assert is_played_out(view)
    return {str(a): n for a, n in zip(view.legal_actions(), played_out(view), strict=True)}


def test_a_shared_win_counts_as_a_share_of_the_win() -> None:
    """R12: three seats share the win, so taking fruit is worth a third of a win in every
    world; taking ham wins outright."""
    shared = numbers(SHARED)
    assert shared["take fruit"] == (pytest.approx(1 / 3), 26.0)
    assert shared["take ham"] == (1.0, 52.0)
    alone = numbers(TIE_BREAK)
    assert alone["take fruit"] == (1.0, 26.0)
    assert alone["take ham"] == (1.0, 50.0)


def test_each_deal_weighs_as_often_as_it_is_dealt() -> None:
    """Only two deals differ here (who holds the wine), one three times as likely as the
    other: the mean share over the hint's worlds is near 0.875, the share each deal's
    likelihood gives, and not 0.75, what weighing the two deals alike would give. The
    worlds are dealt from a fixed seed, so the mean is the same on every run."""
    state = State.from_text(WHO_HOLDS_THE_WINE)
    view = state.view(2)
    assert [str(a) for a in view.legal_actions()] == ["pass"]
    [(share, points)] = played_out(view)
    assert points == 1.0
    assert abs(share - 0.875) <= 0.05
    # the share is a mean over WORLDS deals, each a whole win or half of one
    assert (share * WORLDS * 2).is_integer()


def shown(view: View, dish: int) -> tuple[object, ...]:
    """All that ``view`` shows of ``dish``: table, king, removed, each hand's takes, and each
    hand's drawn cards where the view shows them."""
    return (view.table[dish], view.king[dish], view.removed_dishes[dish],
            *(hand.takes[dish] for hand in view.hands),
            *(None if hand.draws is None else hand.draws[dish] for hand in view.hands))


def test_dishes_are_ordered_by_all_the_view_shows_of_them() -> None:
    """R1 names the dishes only: the same game with its dishes renamed orders them so that
    the n-th dish of each is shown alike, the mover's own drawn cards included (only dishes
    shown alike in every way may fall in either order). The playouts deal worlds in this
    order, so a renamed game gets the same numbers."""
    compared = 0
    for seed in range(40):
        rng = random.Random(seed)
        perm = list(range(NUM_DISHES))
        rng.shuffle(perm)
        deck = shuffled_deck(rng)
        players = 3 + seed % 3
        state = State(deck, players, 0)
        renamed = State([perm[c] if c != DRAGON else DRAGON for c in deck], players, 0)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            view, other = state.view(seat), renamed.view(seat)
            assert ([shown(other, d) for d in dish_order(other)]
                    == [shown(view, d) for d in dish_order(view)])
            compared += 1
            action = rng.choice(state.legal_actions())
            state.apply(action)
            renamed.apply(relabel(int(action), perm))
    assert compared > 1000


def test_a_loss_is_no_share_of_the_win() -> None:
    """R12: seat 0 wins the tie-break, so taking fruit is worth nothing of the win in every
    world, only its 26 points; taking ham wins with 50."""
    lost = numbers(TIE_BREAK_LOST)
    assert lost["take fruit"] == (0.0, 26.0)
    assert lost["take ham"] == (1.0, 50.0)


def test_the_mover_s_own_drawn_cards_are_played_as_it_sees_them() -> None:
    """The mover knows its drawn cards (R7): the worlds keep them, so cards drawn count as
    the same cards taken would."""
    drawn = numbers(SHARED_FROM_DRAWS)
    assert drawn["take fruit"] == (pytest.approx(1 / 3), 26.0)
    assert drawn["take ham"] == (1.0, 52.0)
