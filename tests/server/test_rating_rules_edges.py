"""The rating rules' exact figures (docs/leaderboard.md): the conservative estimate, the
model's update, every field of a result (place, win, points, favourite dish, when), the seat
an account took over from a leaver, the early-ending bound and a winner's provisional swing.
test_rating_rules.py says which games count; this file pins what each result then holds."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest
from openskill.models import PlackettLuce

from kingsbreakfast.engine import DISHES, State
from kingsbreakfast.engine.actions import DRAW_ID, PLACE_DRAGON_ID, Action
from kingsbreakfast.engine.rules import DEFAULT_RULES
from kingsbreakfast.server.rating_rules import (
    EARLY_MOVES,
    PROVISIONAL_SWING,
    Standing,
    ordinal,
    rate,
    results_of,
)
from kingsbreakfast.server.restore import replay_state
from kingsbreakfast.server.store import GameRecord, SeatRecord
from server.test_rating_rules import SETTLED, account, game_where


def test_the_leaderboard_rating_is_mu_less_three_sigma() -> None:
    assert ordinal(30.0, 2.0) == 24.0
    assert ordinal(25.0, 25 / 3) == pytest.approx(0.0)  # a new account starts at zero


def test_rate_is_openskill_plackett_luce_from_the_ratings_given() -> None:
    """Each player's own μ and σ go into the update, not the model's defaults; equal places
    tie (R12's shared win)."""
    ratings = [(30.0, 5.0), (20.0, 4.0), (25.0, 7.0)]
    places = [2, 1, 2]
    model = PlackettLuce()
    expected = model.rate([[model.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings],
                          ranks=[2.0, 1.0, 2.0])
    new = rate(ratings, places)
    assert new == [(team[0].mu, team[0].sigma) for team in expected]
    assert new[1][0] > 20.0 and new[0][0] < 30.0  # the one place-1 player gained


def test_each_result_holds_its_seat_s_place_win_and_points() -> None:
    """Results come in seat order, whatever the accounts' numbers; each carries the game,
    the seat, the R12 place and win and the R11 points of its seat."""
    record = game_where(better=0, worse=1)
    scoring = replay_state(record).score()
    owners = {0: 3, 1: 1, 2: 2}
    results = results_of(record, owners, {a: account(a) for a in (1, 2, 3)})
    assert [(r.account_id, r.seat) for r in results] == [(3, 0), (1, 1), (2, 2)]
    for r in results:
        player = scoring.players[r.seat]
        assert (r.game_id, r.num_seats, r.place, r.won, r.points) == (
            record.id, 3, scoring.places[r.seat], r.seat in scoring.winners, player.points)
        assert (r.rated, r.unrated, r.left_early, r.established) == (True, "", False, False)
        assert r.finished_at == SETTLED
    assert results[0].place < results[1].place  # seat 0 placed before seat 1 in this game
    assert results[0].place == 1 and results[0].won


def test_a_game_with_no_end_time_is_dated_now_in_utc() -> None:
    record = replace(game_where(better=0, worse=1), finished_at=None)
    before = datetime.now(UTC)
    results = results_of(record, {0: 1, 1: 2}, {1: account(1), 2: account(2)})
    after = datetime.now(UTC)
    assert all(before <= r.finished_at <= after for r in results)


def test_a_deleted_account_s_seat_counts_for_nobody() -> None:
    """Settling reads the accounts that still exist: a seat whose account is gone is a
    guest's, and the two left are rated between themselves."""
    record = game_where(better=0, worse=1)
    results = results_of(record, {0: 1, 1: 2, 2: 99}, {1: account(1), 2: account(2)})
    assert [(r.account_id, r.rated) for r in results] == [(1, True), (2, True)]


def test_a_seat_taken_over_lists_both_accounts_and_the_leaver_ranks_last() -> None:
    """Account 1 left seat 0 in play; account 3 took the seat over (a bot played it between)
    and ends with the seat's place, account 1 with the last."""
    record = game_where(better=0, worse=1)
    scoring = replay_state(record).score()
    moves_of_seat_0 = [n for n, (seat, _) in enumerate(record.actions) if seat == 0]
    standing = Standing(leaves={1: (0, moves_of_seat_0[EARLY_MOVES])})
    accounts = {a: account(a) for a in (1, 2, 3)}
    results = results_of(record, {0: 3, 1: 2}, accounts, standing)
    assert [(r.account_id, r.seat) for r in results] == [(1, 0), (3, 0), (2, 1)]
    leaver, taker, _ = results
    assert (leaver.place, leaver.won, taker.place, taker.won) == (3, False, 1, True)
    assert scoring.places[0] == 1 and leaver.rated
    assert leaver.mu < 25.0 < taker.mu


@pytest.mark.parametrize(("own_moves", "early"), [(EARLY_MOVES - 1, True), (EARLY_MOVES, False)])
def test_leaving_before_early_moves_own_moves_is_an_early_ending(
    own_moves: int, early: bool,
) -> None:
    record = game_where(better=1, worse=0)
    moves_of_seat_0 = [n for n, (seat, _) in enumerate(record.actions) if seat == 0]
    standing = Standing(leaves={1: (0, moves_of_seat_0[own_moves])})
    results = results_of(record, {1: 2}, {1: account(1), 2: account(2)}, standing)
    assert [(r.account_id, r.left_early, r.rated) for r in results] == [
        (1, early, True), (2, False, True)]


def test_a_provisional_loser_moves_an_established_winner_a_bounded_step() -> None:
    """A small gain passes whole (with σ as the model says); a large one stops at
    PROVISIONAL_SWING."""
    record = game_where(better=0, worse=1)  # seat 0, the established account, wins
    owners = {0: 1, 1: 2}
    for sigma, bounded_gain in [(2.0, None), (6.5, PROVISIONAL_SWING)]:
        accounts = {1: account(1, 50, 20, sigma, mu=30.0), 2: account(2)}
        free = results_of(record, owners, accounts, Standing(established=frozenset({1, 2})))
        bounded = results_of(record, owners, accounts, Standing(established=frozenset({1})))
        gain = free[0].mu - 30.0
        if bounded_gain is None:
            assert 0.0 < gain < PROVISIONAL_SWING
            assert (bounded[0].mu, bounded[0].sigma) == (free[0].mu, free[0].sigma)
        else:
            assert gain > PROVISIONAL_SWING
            assert bounded[0].mu == pytest.approx(30.0 + bounded_gain)
            assert bounded[0].sigma == free[0].sigma


def dragon_keeper_game() -> GameRecord:
    """Five seats, every player drawing each turn but seat 2, who draws the deck's five
    dragons (R7a: placed on the table), then feeds two of them (R8): seat 2 ends holding
    nothing, and each other seat one card of every dish. Dishes lie in R1 order in the deck;
    each dragon sits where seat 2 draws in the first five rounds (15 cards a round)."""
    seats, keeper = 5, 2
    deck = [dish for dish in DISHES for _ in range(15)]
    for round_ in range(5):
        deck.insert(15 * round_ + 2 * seats + (keeper - round_) % seats, "dragon")
    state = State(deck, seats, 0)
    actions: list[tuple[int, int]] = []
    placed = 0
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        action = Action(DRAW_ID)
        if seat == keeper and Action(PLACE_DRAGON_ID) in state.legal_actions():
            action, placed = Action(PLACE_DRAGON_ID), placed + 1
        elif seat == keeper and placed == 5:
            action = next(a for a in state.legal_actions() if a.kind == "feed")
        state.play(action, seat=seat)
        actions.append((seat, int(action)))
    return GameRecord(
        id="dragons", status="over", num_seats=seats, rules=DEFAULT_RULES.to_dict(),
        bot_level="random", clock_seconds=None, public=True, first_cook=0, deck=tuple(deck),
        created_at=SETTLED, finished_at=SETTLED,
        seats=tuple(SeatRecord(n, "bot", "", None) for n in range(seats)),
        actions=tuple(actions),
    )


def test_an_empty_hand_has_no_favourite_and_ties_go_to_the_first_dish() -> None:
    """The favourite dish is the one held most; among equals the first in R1's order; with
    no card held, none. Seat 2 (nothing, 0 points) places last; the four others share the
    win (R12: equal points, nothing discarded)."""
    record = dragon_keeper_game()
    scoring = replay_state(record).score()
    results = results_of(record, {0: 1, 2: 2, 4: 3}, {a: account(a) for a in (1, 2, 3)})
    assert [(r.seat, r.favourite, r.place, r.won) for r in results] == [
        (0, "bread", 1, True), (2, None, 5, False), (4, "bread", 1, True)]
    assert results[1].points == 0 < results[0].points == scoring.players[0].points
    assert [d.held for d in scoring.players[0].dishes] == [1] * len(DISHES)
