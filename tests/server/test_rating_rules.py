"""The rules of rated play, each checked where it lives: when a rating is provisional (games,
established opponents, deviation), who ranks where when an account left, how far a
provisional opponent moves an established rating, and who may count as an established
opponent (docs/leaderboard.md)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import create_engine

from kingsbreakfast.engine import CARD_IDS, State, shuffled_deck
from kingsbreakfast.server.account_models import AccountRow
from kingsbreakfast.server.account_store import Account, AccountStore, Result
from kingsbreakfast.server.models import Base
from kingsbreakfast.server.rating_rules import (
    ABORT_MOVES,
    ESTABLISHED_GAMES,
    ESTABLISHED_OPPONENTS,
    ESTABLISHED_SIGMA,
    PROVISIONAL_SWING,
    REPEAT_GAMES,
    Standing,
    provisional,
    results_of,
)
from kingsbreakfast.server.rating_store import RatingStore
from kingsbreakfast.server.storage import Storage, normalize_url
from kingsbreakfast.server.store import GameRecord, SeatRecord

SETTLED = datetime(2026, 3, 1, tzinfo=UTC)


def account(number: int, games: int = 0, opponents: int = 0, sigma: float = 25 / 3,
            mu: float = 25.0) -> Account:
    return Account(number, f"p{number}", "x", mu, sigma, games, opponents)


def test_a_rating_is_provisional_until_games_established_opponents_and_sigma() -> None:
    past = account(1, ESTABLISHED_GAMES, ESTABLISHED_OPPONENTS, ESTABLISHED_SIGMA)
    assert not provisional(past)
    assert provisional(account(1, ESTABLISHED_GAMES - 1, ESTABLISHED_OPPONENTS, 5.0))
    # the opponents condition alone keeps a rating provisional (a ring of new accounts)
    assert provisional(account(1, 40, ESTABLISHED_OPPONENTS - 1, 3.0))
    # the deviation alone keeps it provisional (lots of games that said little)
    assert provisional(account(1, 40, 40, ESTABLISHED_SIGMA + 0.01))


def finished_game(seed: int, num_seats: int = 3) -> GameRecord:
    """A real game played out by the engine (random legal moves), as the store holds it."""
    deck = shuffled_deck(random.Random(seed))
    state = State(deck, num_seats, 0)
    rng = random.Random(seed)
    actions: list[tuple[int, int]] = []
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        action = rng.choice(state.legal_actions())
        state.play(action)
        actions.append((seat, int(action)))
    return GameRecord(
        id=f"game-{seed}", status="over", num_seats=num_seats, rules={}, bot_level="random",
        clock_seconds=None, public=True, first_cook=0,
        deck=tuple(CARD_IDS[c] for c in deck), created_at=SETTLED, finished_at=SETTLED,
        seats=tuple(SeatRecord(n, "bot", "", None) for n in range(num_seats)),
        actions=tuple(actions),
    )


def game_where(better: int, worse: int) -> GameRecord:
    """The first seeded game in which seat ``better`` places strictly before ``worse``
    (R12 places): chosen so the case it tests is always the one played."""
    for seed in range(200):
        record = finished_game(seed)
        state = State(
            tuple(c for c in record.deck or ()), record.num_seats, record.first_cook
        )
        for seat, action in record.actions:
            state.play(action, seat=seat)
        places = state.score().places
        if places[better] < places[worse]:
            return record
    raise AssertionError("no such game in 200 seeds")


def test_a_leaver_ranks_last_even_when_its_bot_beat_the_stayer() -> None:
    record = game_where(better=0, worse=1)  # the leaver's seat (0) ends ahead of seat 1
    moves_of_seat_0 = [n for n, (seat, _) in enumerate(record.actions) if seat == 0]
    left_at = moves_of_seat_0[ABORT_MOVES]  # after ABORT_MOVES own moves: a real game
    accounts = {1: account(1), 2: account(2)}
    results = {r.account_id: r for r in results_of(
        record, {1: 2}, accounts, Standing(leaves={1: (0, left_at)}),
    )}
    assert results[1].rated and results[2].rated
    assert results[1].place == 3 and not results[1].won
    assert results[1].mu < 25.0 < results[2].mu  # the stayer lost to the bots, not to her


def test_leaving_before_the_first_moves_aborts_the_game() -> None:
    record = game_where(better=1, worse=0)
    moves_of_seat_0 = [n for n, (seat, _) in enumerate(record.actions) if seat == 0]
    left_at = moves_of_seat_0[ABORT_MOVES - 1]  # one own move short
    accounts = {1: account(1), 2: account(2)}
    results = results_of(record, {1: 2}, accounts, Standing(leaves={1: (0, left_at)}))
    assert [(r.rated, r.unrated, r.mu) for r in results] == [(False, "aborted", 25.0)] * 2
    assert next(r for r in results if r.account_id == 1).left_early


def test_a_provisional_opponent_moves_an_established_rating_a_bounded_step() -> None:
    record = game_where(better=1, worse=0)  # seat 1 beats seat 0
    strong = account(1, 50, 20, ESTABLISHED_SIGMA, mu=30.0)  # established, loses to a newcomer
    newcomer = account(2)
    free = results_of(record, {0: 1, 1: 2}, {1: strong, 2: newcomer},
                      Standing(established=frozenset({1, 2})))
    bounded = results_of(record, {0: 1, 1: 2}, {1: strong, 2: newcomer},
                         Standing(established=frozenset({1})))
    assert 30.0 - free[0].mu > PROVISIONAL_SWING  # what the model alone would take
    assert bounded[0].mu == pytest.approx(30.0 - PROVISIONAL_SWING)
    assert bounded[1].mu == free[1].mu  # the newcomer's own rating is not bounded
    assert bounded[0].established and not bounded[1].established


@pytest.fixture
def stores(db_url: str) -> tuple[AccountStore, RatingStore, Storage]:
    storage = Storage(db_url)
    storage.migrate()
    engine = create_engine(normalize_url(db_url))
    Base.metadata.create_all(engine)
    return AccountStore(engine), RatingStore(engine), storage


def play_results(
    stores: tuple[AccountStore, RatingStore, Storage], ids: list[int], games: int,
    established: bool,
) -> None:
    """``games`` rated games of ids[0] against each of the others in turn, stored as
    :meth:`Ratings.settle` stores them."""
    store, _, storage = stores
    for number in range(games):
        game_id = f"g{number}"
        storage.create_game(game_id, num_seats=2 + 1, rules={}, bot_level="random",
                            clock_seconds=None, public=True,
                            seats=[SeatRecord(n, "bot", "", None) for n in range(3)])
        pair = [ids[0], ids[1 + number % (len(ids) - 1)]]
        store.record_results([
            Result(game_id, a, seat, 3, seat + 1, seat == 0, 10, None, True,
                   30.0, ESTABLISHED_SIGMA - 1, SETTLED + timedelta(hours=number),
                   established=established)
            for seat, a in enumerate(pair)
        ])


def test_a_ring_of_new_accounts_cannot_establish_one_another(
    stores: tuple[AccountStore, RatingStore, Storage],
) -> None:
    store, ratings, storage = stores
    ids = [store.create_account(f"r{n}", f"r{n}", f"r{n}", "x").id for n in range(7)]
    play_results(stores, ids, 2 * ESTABLISHED_GAMES, established=False)
    booster = store.account(ids[0])
    assert booster is not None and booster.rated_games == 2 * ESTABLISHED_GAMES
    assert booster.opponents == 0 and provisional(booster)
    assert ratings.leaderboard(0, 10, ESTABLISHED_GAMES, ESTABLISHED_OPPONENTS,
                               ESTABLISHED_SIGMA) == (0, [])
    storage.dispose()


def test_the_leaderboard_asks_for_every_condition(
    stores: tuple[AccountStore, RatingStore, Storage],
) -> None:
    store, ratings, storage = stores
    ids = [store.create_account(f"e{n}", f"e{n}", f"e{n}", "x").id for n in range(7)]
    play_results(stores, ids, 2 * ESTABLISHED_GAMES, established=True)

    def board() -> list[str]:
        return [a.name for a in ratings.leaderboard(
            0, 10, ESTABLISHED_GAMES, ESTABLISHED_OPPONENTS, ESTABLISHED_SIGMA)[1]]

    assert board() == ["e0"]  # six established opponents, twenty games, σ low enough
    with store._session() as session:  # the deviation alone rises above the line
        session.get(AccountRow, ids[0]).sigma = ESTABLISHED_SIGMA + 0.01  # type: ignore[union-attr]
    assert board() == []
    with store._session() as session:  # the count of established opponents alone falls short
        row = session.get(AccountRow, ids[0])
        assert row is not None
        row.sigma, row.opponents = ESTABLISHED_SIGMA, ESTABLISHED_OPPONENTS - 1
    assert board() == []
    with store._session() as session:
        row = session.get(AccountRow, ids[0])
        assert row is not None
        row.opponents = ESTABLISHED_OPPONENTS
    assert board() == ["e0"]
    storage.dispose()


def test_a_game_is_rated_only_between_two_different_accounts() -> None:
    """Guests and bots do not count (docs/accounts.md): one account among bots plays an
    unrated game, and so does an account that holds two seats beside another (it would be
    rated against itself); two accounts in two seats are rated."""
    record = game_where(better=1, worse=0)
    alone = results_of(record, {0: 1}, {1: account(1)})
    assert [(r.rated, r.mu, r.sigma) for r in alone] == [(False, 25.0, 25 / 3)]
    accounts = {1: account(1), 2: account(2)}
    twice = results_of(record, {0: 1, 1: 1, 2: 2}, accounts)
    assert twice and [(r.rated, r.mu) for r in twice] == [(False, 25.0)] * len(twice)
    fair = results_of(record, {0: 1, 2: 2}, accounts)
    assert [r.rated for r in fair] == [True, True]
    assert all(r.mu != 25.0 for r in fair)


def test_the_same_accounts_are_rated_a_few_times_a_week_only() -> None:
    record = game_where(better=1, worse=0)
    accounts = {1: account(1), 2: account(2)}
    rated = results_of(record, {0: 1, 1: 2}, accounts, Standing(repeats=REPEAT_GAMES - 1))
    again = results_of(record, {0: 1, 1: 2}, accounts, Standing(repeats=REPEAT_GAMES))
    assert all(r.rated for r in rated)
    assert [(r.rated, r.unrated, r.mu) for r in again] == [(False, "repeat", 25.0)] * 2


def test_a_flagged_account_plays_unrated_games() -> None:
    record = game_where(better=1, worse=0)
    accounts = {1: account(1), 2: account(2)}
    results = results_of(record, {0: 1, 1: 2}, accounts, Standing(flagged=frozenset({2})))
    assert [(r.rated, r.unrated) for r in results] == [(False, "boosting")] * 2


def test_the_boosting_review_reads_and_flags_on_the_database(
    stores: tuple[AccountStore, RatingStore, Storage],
) -> None:
    store, ratings, storage = stores
    ids = [store.create_account(f"b{n}", f"b{n}", f"b{n}", "x").id for n in range(7)]
    play_results(stores, ids, 2 * ESTABLISHED_GAMES, established=True)
    for number in range(3):  # three more games, where the opponent left early
        game_id = f"early{number}"
        storage.create_game(game_id, num_seats=3, rules={}, bot_level="random",
                            clock_seconds=None, public=True,
                            seats=[SeatRecord(n, "bot", "", None) for n in range(3)])
        ratings.add_seat_address(game_id, ids[0], "booster's")
        ratings.add_seat_address(game_id, ids[1 + number], "puppets'")
        ratings.add_seat_address(game_id, ids[1 + number], "changed later")  # first one kept
        store.record_results([
            Result(game_id, a, seat, 3, seat + 1, seat == 0, 10, None, False, 25.0, 8.0,
                   SETTLED + timedelta(days=1, hours=number), left_early=seat == 1,
                   unrated="aborted")
            for seat, a in enumerate([ids[0], ids[1 + number]])
        ])
    assert ratings.addresses("early0") == {ids[0]: "booster's", ids[1]: "puppets'"}
    since = SETTLED + timedelta(hours=12)
    early = ratings.meetings(ids[0], since, early=True)
    assert sorted(early) == [(f"early{n}", ids[1 + n], "puppets'") for n in range(3)]
    assert len(ratings.meetings(ids[0], since, early=False)) == 3 + 2 * ESTABLISHED_GAMES - 12
    assert ratings.meetings(ids[1], since, early=True) == []  # nobody left on ids[1]
    assert ratings.leaderboard(0, 10, ESTABLISHED_GAMES, ESTABLISHED_OPPONENTS,
                               ESTABLISHED_SIGMA)[0] == 1
    ratings.flag({ids[0], ids[1]}, "early_endings", "early2", {"g0", "g1"}, SETTLED)
    ratings.flag({ids[0]}, "same_opponents", "early2", set(), SETTLED)  # the first stays
    assert ratings.flagged(ids) == {ids[0], ids[1]}
    assert ratings.leaderboard(0, 10, ESTABLISHED_GAMES, ESTABLISHED_OPPONENTS,
                               ESTABLISHED_SIGMA) == (0, [])
    unrated = [r for r in store.results(ids[0]) if r.game_id in ("g0", "g1")]
    assert [(r.rated, r.unrated) for r in unrated] == [(False, "boosting")] * 2
    # g0, g6, g12, g18 were b0 against b1; g0 is unrated now
    assert ratings.rated_together([ids[0], ids[1]], SETTLED - timedelta(days=1)) == 3
    storage.dispose()
