"""The game's last turns played out for the hint (bots/last_turns.py; R4, R10-R12): only
there, from the view alone, twins and renamed dishes alike, and in agreement with what the
settled outcomes (bots/settled.py) prove."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numpy")

from budget import examples
from kingsbreakfast.bots import last_turns
from kingsbreakfast.bots.last_turns import is_played_out, played_out, worlds_for
from kingsbreakfast.bots.master import MasterBot, view_rows
from kingsbreakfast.bots.settled import settle
from kingsbreakfast.engine import (
    UNSHUFFLED_DECK,
    Action,
    State,
    sample_world,
)
from renaming import relabel

DRAGON = 7


def end_of(seed: int, players: int) -> list[State]:
    """Every position of a master-bot game (seeded) whose last turns are played out."""
    rng = random.Random(seed)
    state = State.new(players, rng)
    bot = MasterBot()
    found = []
    while not state.is_over:
        view = state.view(state.to_move)
        if is_played_out(view) and len(view.legal_actions()) > 1:
            found.append(state.clone())
        state.apply(bot.act(view, rng))
    return found


def test_only_the_last_turns_of_the_last_round_are_played_out() -> None:
    """The last round (no table after it, R4, R10), at most one seat still to play after the
    mover; anywhere else playing out is refused."""
    rng = random.Random(5)
    state = State.new(4, rng)
    seen = []
    while not state.is_over:
        view = state.view(state.to_move)
        seen.append(is_played_out(view))
        assert is_played_out(view) == (view.last_round and view.turns_left <= 2)
        if not is_played_out(view):
            with pytest.raises(ValueError, match="last turns"):
                played_out(view)
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    assert seen[-1] and not seen[0] and sum(seen) < len(seen) // 4


def test_the_numbers_are_the_view_s_and_the_same_every_time() -> None:
    """Another deal behind the same view (other hidden draws, another deck) gives the same
    numbers: a hint never reads what the mover cannot see."""
    for state in end_of(11, 4)[:3]:
        seat = state.to_move
        view = state.view(seat)
        first = played_out(view)
        assert played_out(view) == first
        other = sample_world(view, random.Random(99))
        assert other.view(seat) == view
        assert played_out(other.view(seat)) == first
        assert len(first) == len(view.legal_actions())
        for win, points in first:
            assert 0.0 <= win <= 1.0 and points >= 0.0


def test_twins_get_one_number_and_settled_actions_their_settled_numbers() -> None:
    """Twins (the same network row) share their numbers; where settle proves the points (and
    the result), every playout gives exactly them, so the mean does too.

    Twins are rare in the last turns (a few in every hundred games, as the network plays),
    so games are scanned until both checks have had enough to check; only the positions
    with twins or settled actions are played out. The scan starts at a game known to hold
    both (seed 78: eight pairs of twins, some thirty settled actions), since each game
    scanned is a full game of the network; were the network to play otherwise, it scans
    on."""
    twins = settled_rows = 0
    for seed in range(78, 478):
        if twins >= 5 and settled_rows >= 20:
            break
        for state in end_of(seed, 3 + seed % 3):
            view = state.view(state.to_move)
            legal, rows = view_rows(view)
            pairs = [(i, j) for i in range(len(legal)) for j in range(i)
                     if rows[i].tobytes() == rows[j].tobytes()]
            settled = [settle(view, action) for action in legal]
            if not pairs and (settled_rows >= 20 or not any(settled)):
                continue
            numbers = played_out(view)
            for i, j in pairs:
                twins += 1
                assert numbers[i] == numbers[j]
            for i, proven in enumerate(settled):
                if proven is None:
                    continue
                settled_rows += 1
                win, points = numbers[i]
                assert points == pytest.approx(proven.points)
                if proven.result in ("win", "loss"):
                    assert win == (1.0 if proven.result == "win" else 0.0)
    assert twins >= 5 and settled_rows >= 20  # both checks are about something


@settings(max_examples=examples(6), deadline=None)
@given(
    seed=st.integers(2, 10**6),
    players=st.sampled_from([3, 4, 5]),
    perm=st.permutations(list(range(7))),
)
def test_renaming_the_dishes_renames_the_played_out_numbers(
    seed: int, players: int, perm: list[int]
) -> None:
    """The same game with its dishes renamed, played to its last turns, gets the same
    numbers action for action: the worlds are dealt in an order the view sets
    (``dish_order``), not the dishes' ids.

    Six examples: with the worlds dealt by the dishes' ids instead, seven games in eight
    already differ (measured), and each example is two playouts of some 256 games."""
    rng = random.Random(seed)
    deck = list(UNSHUFFLED_DECK)
    rng.shuffle(deck)
    state = State(deck, players, 0)
    renamed = State([perm[c] if c != DRAGON else DRAGON for c in deck], players, 0)
    bot = MasterBot()
    while not state.is_over and not is_played_out(state.view(state.to_move)):
        action = bot.act(state.view(state.to_move), rng)
        state.play(action)
        renamed.play(relabel(int(action), perm))
    if state.is_over:
        return
    view = state.view(state.to_move)
    mine = dict(zip((int(a) for a in view.legal_actions()), played_out(view), strict=True))
    other_view = renamed.view(renamed.to_move)
    theirs = dict(zip((int(a) for a in other_view.legal_actions()), played_out(other_view),
                      strict=True))
    for action, (win, points) in mine.items():
        other_win, other_points = theirs[relabel(action, perm)]
        assert other_win == pytest.approx(win, abs=1e-9)
        assert other_points == pytest.approx(points, abs=1e-9)


def test_many_choices_get_fewer_worlds_but_never_too_few() -> None:
    assert worlds_for(1) == last_turns.WORLDS
    assert worlds_for(4) == last_turns.WORLDS
    assert worlds_for(32) == last_turns.PLAYOUTS // 32
    assert worlds_for(200) == last_turns.FEWEST_WORLDS
    assert all(w * a <= max(last_turns.PLAYOUTS, last_turns.FEWEST_WORLDS * a)
               for a in range(1, 60) if (w := worlds_for(a)))


def test_the_hint_shows_the_played_out_numbers_where_nothing_is_settled() -> None:
    """In the last turns each hint row carries the playouts' numbers, the settled ones
    (bots/settled.py) apart, and the rows follow the expected result, then points."""
    from kingsbreakfast.bots.hint import rank_actions, utility

    rows_checked = 0
    for state in end_of(12, 4)[:4] + end_of(13, 5)[:4]:
        view = state.view(state.to_move)
        numbers = dict(zip(view.legal_actions(), played_out(view), strict=True))
        ranking = rank_actions(view)
        keys = [utility(e.win_chance, e.expected_points) for e in ranking]
        assert keys == sorted(keys, reverse=True)
        for estimate in ranking:
            if estimate.exact:
                continue
            win, points = numbers[estimate.action]
            assert estimate.win_chance == pytest.approx(win, abs=1e-6)
            assert estimate.expected_points == pytest.approx(points, abs=1e-6)
            rows_checked += 1
    assert rows_checked >= 10


def test_worlds_that_differ_only_in_the_deck_s_order_are_played_each() -> None:
    """Seat 2 moves last in the last round, every hand known (no hidden card anywhere): the
    worlds differ only in the deck's order, so the card a draw turns up (R7) is the only
    luck. Drawing fruit scores 30, drawing bread 28 (R11); the draw's mean must lie between,
    as only worlds played one by one, each with its own deck, can give."""
    state = State.from_text(
        "kb1 3 f1 0 12 0 2 =44446 00302000 ddaf0f0 2000003.0000000/0200003.0000000/"
        "0020100.0000000 0000808.5.0 -"
    )
    view = state.view(2)
    assert is_played_out(view)
    numbers = dict(zip(view.legal_actions(), played_out(view), strict=True))
    _, points = numbers[Action.parse("draw")]
    assert 28 < points < 30
