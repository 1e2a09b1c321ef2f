"""Chance steps: a state with an unknown deck order turns each card up as a chance step
(R4, R7), and answering those steps with the cards of a deck plays the very game that deck
deals (the known-deck path)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import examples
from kingsbreakfast.engine import (
    CHANCE,
    DRAGON,
    IllegalActionError,
    Rules,
    State,
    shuffled_deck,
)

ALL_RULES = [Rules(e, d) for e in ("draw_or_feed", "must_draw") for d in (1, 2)]


def check_conservation(state: State) -> None:
    assert state.dish_totals() == [15] * 7 + [5]
    assert state.card_counts()["unaccounted"] == 0


def test_an_unknown_deck_starts_with_one_chance_step_per_table_card() -> None:
    state = State.with_unknown_deck(3)
    assert not state.deck_known
    for turned_up in range(6):  # R4: 2 x 3 cards, one chance step each
        assert state.is_chance
        assert state.to_move == CHANCE
        assert state.drawer is None  # the table, not a hand
        assert state.legal_actions() == ()
        assert state.deck_size == 110 - turned_up
        state.apply_chance(turned_up % 3)
    assert not state.is_chance
    assert state.to_move == 0  # the cook
    assert state.table == (2, 2, 2, 0, 0, 0, 0)
    assert state.round == 1
    check_conservation(state)


def test_chance_outcomes_are_the_deck_counts_over_the_deck_size() -> None:
    state = State.with_unknown_deck(3)
    assert dict(state.chance_outcomes()) == {**{d: 15 / 110 for d in range(7)}, DRAGON: 5 / 110}
    for card in (DRAGON, 0, 0, 0, 0, 0):
        state.apply_chance(card)
    state.apply(7)  # seat 0 draws (R7): the card is a chance step for seat 0
    assert state.is_chance and state.drawer == 0
    outcomes = dict(state.chance_outcomes())
    assert outcomes[0] == pytest.approx(10 / 104)
    assert outcomes[DRAGON] == pytest.approx(4 / 104)
    assert sum(outcomes.values()) == pytest.approx(1.0)
    assert state.history[-1].seat == 0 and str(state.history[-1].action) == "draw"


def test_a_drawn_dish_goes_to_the_drawer_and_a_drawn_dragon_waits_for_a_choice() -> None:
    state = State.with_unknown_deck(3)
    for card in (0, 0, 1, 1, 2, 2):
        state.apply_chance(card)
    state.apply(7)
    state.apply_chance(4)  # R7: the fruit goes to seat 0's hand, unseen by the others
    assert state.draws(0)[4] == 1 and state.to_move == 1
    assert state.view(1).hands[0].draws is None and state.view(1).hands[0].hidden == 1
    state.apply(7)
    state.apply_chance(DRAGON)  # R7a: shown, and the same seat must place or use it
    assert state.to_move == 1 and state.pending_dragon
    assert [str(a) for a in state.legal_actions()] == ["place_dragon"]  # the king is empty
    state.play("place_dragon")
    assert state.table_dragons == 1 and state.to_move == 2
    check_conservation(state)


def test_the_last_turn_of_a_round_serves_the_king_then_turns_up_the_next_table() -> None:
    state = State.with_unknown_deck(3)
    for card in (0, 0, 1, 1, 2, 2):
        state.apply_chance(card)
    state.play("take bread")
    state.play("take cheese")
    state.play("draw")
    state.apply_chance(3)  # the round's last turn: R9, then the next table is set (R4)
    assert state.king == (0, 0, 2, 0, 0, 0, 0)
    assert state.is_chance and state.drawer is None and state.cook == 1
    assert state.round == 2
    for _ in range(6):
        state.apply_chance(4)
    assert state.to_move == 1 and state.table == (0, 0, 0, 0, 6, 0, 0)


def test_the_end_of_the_game_needs_no_chance_step() -> None:
    """R10: with fewer than 2 x players cards left, the rest leaves unseen at once."""
    rng = random.Random(3)
    state = State.with_unknown_deck(4)
    while not state.is_over:
        if state.is_chance:
            cards, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_chance(rng.choices(cards, weights)[0])
        else:
            state.apply(7 if 7 in state.legal_actions() else state.legal_actions()[0])
    assert state.to_move is None and not state.is_chance
    assert state.chance_outcomes() == ()
    assert state.removed_unseen < 8 and state.deck_size == 0
    check_conservation(state)


def test_wrong_chance_answers_and_actions_at_a_chance_step_are_refused() -> None:
    state = State.with_unknown_deck(3)
    for _ in range(5):
        state.apply_chance(DRAGON)
    with pytest.raises(IllegalActionError, match="not a card still in the deck"):
        state.apply_chance(DRAGON)  # all five dragons are out
    with pytest.raises(IllegalActionError, match="not a card"):
        state.apply_chance(8)
    with pytest.raises(IllegalActionError) as refused:
        state.play("draw")
    assert refused.value.code == "chance_step"
    state.apply_chance(0)
    with pytest.raises(IllegalActionError, match="no card is being turned up"):
        state.apply_chance(0)
    with pytest.raises(Exception, match="unknown"):
        _ = state.initial_deck
    with pytest.raises(Exception, match="unknown"):
        _ = state.remaining_deck


def test_a_known_deck_never_stops_at_a_chance_step() -> None:
    state = State.new(4, 9)
    assert state.deck_known and not state.is_chance and state.chance_outcomes() == ()
    with pytest.raises(IllegalActionError, match="no card is being turned up"):
        state.apply_chance(0)


def test_a_view_at_a_chance_step_offers_no_action() -> None:
    state = State.with_unknown_deck(5)
    view = state.view(2)
    assert view.to_move == CHANCE and view.legal_actions() == ()


games = st.tuples(
    st.integers(min_value=0, max_value=2**32 - 1),
    st.integers(min_value=3, max_value=5),
    st.sampled_from(ALL_RULES),
    st.integers(min_value=0, max_value=4),
)


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_chance_answered_from_a_deck_plays_the_game_that_deck_deals(
    game: tuple[int, int, Rules, int],
) -> None:
    """The known-deck path and the unknown-deck path, side by side on random decks and random
    actions: after every action the two states agree in every view, history, hand and score,
    and both keep the 110 cards (R1)."""
    seed, players, rules, first_cook = game
    rng = random.Random(seed)
    deck = shuffled_deck(rng)
    cook = first_cook % players
    known = State(deck, players, cook, rules)
    unknown = State.with_unknown_deck(players, cook, rules)
    turned_up = 0

    def catch_up() -> None:
        nonlocal turned_up
        while unknown.is_chance:
            assert unknown.legal_actions() == ()
            assert deck[turned_up] in dict(unknown.chance_outcomes())
            unknown.apply_chance(deck[turned_up])
            turned_up += 1

    catch_up()
    while True:
        assert unknown.to_move == known.to_move
        assert unknown.legal_actions() == known.legal_actions()
        assert unknown.history == known.history
        assert unknown.hands == known.hands
        assert unknown.deck_size == known.deck_size == 110 - turned_up - known.removed_unseen
        for seat in (None, *range(players)):
            assert unknown.view(seat) == known.view(seat)
        assert unknown.score() == known.score()
        check_conservation(known)
        check_conservation(unknown)
        legal = known.legal_actions()
        if not legal:
            break
        action = legal[rng.randrange(len(legal))]
        known.apply(action)
        unknown.apply(action)
        catch_up()
    assert known.is_over and unknown.is_over
    assert known.removed_unseen == unknown.removed_unseen == 110 - turned_up
    assert known.remaining_deck == ()  # the leftovers left unseen (R10)


def test_worlds_are_dealt_from_views_of_an_unknown_deck_but_not_at_a_chance_step() -> None:
    """A world needs only what a seat sees, so a state with an unknown deck serves as well
    as one with a known deck, once no card is waiting to be turned up."""
    from kingsbreakfast.engine import SetupError, WorldSampler

    rng = random.Random(12)
    state = State.with_unknown_deck(4)
    with pytest.raises(SetupError, match="turned up"):
        WorldSampler(state.view(0))
    while len(state.history) < 20:
        if state.is_chance:
            cards, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_chance(rng.choices(cards, weights)[0])
        else:
            legal = state.legal_actions()
            state.apply(7 if 7 in legal else legal[rng.randrange(len(legal))])
    while state.is_chance:
        state.apply_chance(next(card for card, _ in state.chance_outcomes()))
    view = state.view(1)
    world = WorldSampler(view).sample(rng)
    assert world.deck_known and world.view(1) == view
    check_conservation(world)
