"""The review of a finished game: every choice of one seat valued from that seat's view only.

The decisive property: two games whose decks differ only in cards the reviewed seat never
saw before the end (the other seats' drawn dishes, the cards left in the deck) give that
seat exactly the same review, although the scores at the end differ.
"""

from __future__ import annotations

import json
import random
from importlib import resources

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("numpy")

from budget import examples
from kingsbreakfast.bots.hint import rank_actions
from kingsbreakfast.bots.review import BIG_LOSS, BIGGEST, ReviewError, review_seat
from kingsbreakfast.engine import DEFAULT_RULES, DRAGON, Record, Rules, State, View, read_record


def example(name: str) -> Record:
    text = resources.files("kingsbreakfast.examples").joinpath(f"{name}.json").read_text()
    return read_record(text)


def random_game(seed: int, players: int, rules: Rules = DEFAULT_RULES) -> State:
    rng = random.Random(seed)
    state = State.new(players, rng, 0, rules)
    while not state.is_over:
        legal = state.legal_actions()
        state.play(legal[rng.randrange(len(legal))])
    return state


def unseen_by(seat: int, final: State, rng: random.Random) -> list[int]:
    """The deck of ``final``'s game with the cards ``seat`` never saw before the end shuffled:
    the dish cards the other seats drew (a drawn dragon is public, R7b) and the cards left
    in the deck at the end (R10)."""
    deck = final.initial_deck
    again = State(deck, final.num_players, final.first_cook, final.rules)
    drawn_by_others: list[int] = []
    for turn in final.history:
        position = len(deck) - again.deck_size
        again.play(turn.action)
        if turn.action.kind == "draw" and turn.seat != seat and not again.pending_dragon:
            drawn_by_others.append(position)
    leftover = list(range(len(deck) - final.deck_size, len(deck)))
    cards = [deck[p] for p in drawn_by_others + leftover]
    dishes = [card for card in cards if card != DRAGON]
    rng.shuffle(dishes)
    draws, spare = dishes[: len(drawn_by_others)], dishes[len(drawn_by_others):]
    rest = spare + [card for card in cards if card == DRAGON]
    rng.shuffle(rest)
    other = list(deck)
    for position, card in zip(drawn_by_others + leftover, draws + rest, strict=True):
        other[position] = card
    return other


def test_only_the_seats_own_decisions_with_a_choice_are_reviewed() -> None:
    record = example("game-4p")
    state = record.start()
    expected: list[int] = []
    forced = 0
    for index, action in enumerate(record.actions):
        if state.to_move == 1:
            if len(state.legal_actions()) > 1:
                expected.append(index)
            else:
                forced += 1
        state.play(action)
    review = review_seat(record, 1)
    assert [m.action_index for m in review.moves] == expected and review.forced == forced
    assert review.player == record.players[1]
    for move in review.moves:
        assert move.chosen == record.actions[move.action_index]
        assert move.move == move.action_index + 1


def test_each_choice_is_set_beside_the_master_bots_first_choice_from_the_same_view() -> None:
    record = example("game-5p")
    state = record.start()
    review = {m.action_index: m for m in review_seat(record, 2).moves}
    for index, action in enumerate(record.actions):
        if index in review:
            ranking = rank_actions(state.view(2))
            mine = next(e for e in ranking if e.action == action)
            move = review[index]
            assert (move.best, move.best_win_chance, move.best_points) == (
                ranking[0].action, ranking[0].win_chance, ranking[0].expected_points)
            assert (move.win_chance, move.expected_points) == (mine.win_chance,
                                                               mine.expected_points)
            assert move.win_lost == pytest.approx(mine.behind, abs=1e-6) and move.win_lost >= 0
            assert move.points_lost == pytest.approx(
                max(0.0, ranking[0].expected_points - mine.expected_points), abs=1e-6)
            assert move.big_loss == (move.win_lost >= BIG_LOSS)
            assert move.round == state.round and move.choices == len(state.legal_actions())
            if action == ranking[0].action:
                assert move.win_lost == 0.0 and not move.big_loss
        state.play(action)


def test_the_summary_adds_the_losses_and_names_the_biggest() -> None:
    for seat in range(4):
        review = review_seat(example("game-4p"), seat)
        assert review.win_lost == pytest.approx(sum(m.win_lost for m in review.moves))
        assert review.points_lost == pytest.approx(sum(m.points_lost for m in review.moves))
        assert review.big_losses == sum(m.big_loss for m in review.moves)
        biggest = review.biggest
        assert len(biggest) <= BIGGEST
        assert [m.win_lost for m in biggest] == sorted((m.win_lost for m in biggest),
                                                      reverse=True)
        others = [m for m in review.moves if m not in biggest]
        assert all(o.win_lost <= biggest[-1].win_lost for o in others) if biggest else True
        assert all(m.win_lost > 0 or m.points_lost > 0 for m in biggest)
        data = review.to_dict()
        assert json.loads(json.dumps(data)) == data
        assert data["biggest"] == [m.move for m in biggest]
        assert data["decisions"] == len(review.moves)


def test_the_ranking_is_asked_only_with_the_seats_own_view_of_that_moment() -> None:
    final = random_game(11, 4)
    record = Record.from_state(final, ["A", "B", "C", "D"])
    seen: list[View] = []

    def spy(view: View) -> list:  # type: ignore[type-arg]
        seen.append(view)
        return rank_actions(view)

    review = review_seat(record, 3, rank=spy)
    assert len(seen) == len(review.moves) > 0
    state = record.start()
    views = []
    for action in record.actions:
        if state.to_move == 3 and len(state.legal_actions()) > 1:
            views.append(state.view(3))
        state.play(action)
    assert seen == views
    for view in seen:
        assert view.seat == 3 and not view.finished
        assert all(hand.draws is None for i, hand in enumerate(view.hands) if i != 3)


def test_hidden_cards_of_the_others_and_the_deck_leave_a_seats_review_unchanged() -> None:
    changed_scores = 0
    for seed in range(8):
        players = 3 + seed % 3
        final = random_game(seed, players)
        record = Record.from_state(final, [f"P{i}" for i in range(players)])
        seat = seed % players
        other_deck = unseen_by(seat, final, random.Random(seed))
        other = State(other_deck, players, 0, final.rules)
        for action in final.actions:
            other.play(action)  # legality is public: the same decisions stay legal
        other_record = Record.from_state(other, record.players)
        mine, theirs = review_seat(record, seat), review_seat(other_record, seat)
        assert mine == theirs
        assert json.dumps(mine.to_dict()) == json.dumps(theirs.to_dict())
        changed_scores += other.score().points != final.score().points
    assert changed_scores >= 4  # the other decks really are other games


@settings(max_examples=examples(25), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(min_value=0, max_value=2**32 - 1), st.integers(min_value=3, max_value=5),
    st.sampled_from([Rules(e, d) for e in ("draw_or_feed", "must_draw") for d in (1, 2)]),
    st.integers(min_value=0, max_value=4),
)
def test_a_review_depends_on_nothing_the_seat_could_not_see(
    seed: int, players: int, rules: Rules, reviewed: int
) -> None:
    final = random_game(seed, players, rules)
    seat = reviewed % players
    other = State(unseen_by(seat, final, random.Random(seed ^ 1)), players, 0, rules)
    for action in final.actions:
        other.play(action)
    names = [f"P{i}" for i in range(players)]
    assert review_seat(Record.from_state(final, names), seat) == review_seat(
        Record.from_state(other, names), seat)


def test_an_unfinished_game_and_a_seat_it_lacks_are_refused() -> None:
    with pytest.raises(ReviewError) as unfinished:
        review_seat(example("unfinished-4p"), 0)
    assert unfinished.value.code == "review_not_over"
    for bad in (-1, 4, 9):
        with pytest.raises(ReviewError) as refused:
            review_seat(example("game-4p"), bad)
        assert refused.value.code == "bad_review_seat"
        assert refused.value.params == {"seat": repr(bad), "last": 3}
