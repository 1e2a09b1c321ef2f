"""The state's own refusals and invariants at its edges: the end of the game, chance steps,
clones, sampled worlds, and the reasons a view gives."""

from __future__ import annotations

import random

import pytest

from kingsbreakfast.engine import (
    Action,
    IllegalActionError,
    Rules,
    SetupError,
    State,
    WorldSampler,
    sample_world,
)
from kingsbreakfast.engine.scoring import standings
from rigging import play_all, rigged


def finished(seed: int, players: int) -> State:
    state = State.new(players, seed)
    rng = random.Random(seed)
    while not state.is_over:
        legal = state.legal_actions()
        state.play(legal[rng.randrange(len(legal))])
    return state


def test_r10_nothing_is_played_after_the_end_and_it_says_so() -> None:
    state = finished(2, 3)
    for action in ("pass", "draw", 0):
        with pytest.raises(IllegalActionError) as caught:
            state.play(action)
        assert (caught.value.code, caught.value.params, str(caught.value)) == (
            "game_over", {}, "the game is over (R10)"
        )


def test_no_player_acts_while_a_card_is_turned_up() -> None:
    state = State.with_unknown_deck(3)
    with pytest.raises(IllegalActionError) as caught:
        state.play("draw")
    assert (caught.value.code, caught.value.params, str(caught.value)) == (
        "chance_step", {},
        "a card is being turned up: no player acts until it is known (R4, R7)",
    )


def test_a_chance_answer_outside_a_chance_step_is_refused() -> None:
    state = State.new(3, 1)
    with pytest.raises(IllegalActionError) as caught:
        state.apply_chance(0)
    assert (caught.value.code, caught.value.params, str(caught.value)) == (
        "not_chance_step", {}, "no card is being turned up now"
    )


@pytest.mark.parametrize("card", [8, -1, "ham", None, 1.5])
def test_a_chance_answer_that_is_no_card_is_refused(card: object) -> None:
    state = State.with_unknown_deck(3)
    before = state.clone()
    with pytest.raises(IllegalActionError) as caught:
        state.apply_chance(card)  # type: ignore[arg-type]
    assert (caught.value.code, caught.value.params, str(caught.value)) == (
        "card_not_in_deck", {"card": repr(card)}, f"{card!r} is not a card still in the deck"
    )
    assert state == before


def test_a_chance_answer_for_a_card_no_longer_in_the_deck_is_refused() -> None:
    state = State.with_unknown_deck(3)
    for _ in range(5):
        state.apply_chance(7)  # the 5 dragons are turned up
    with pytest.raises(IllegalActionError) as caught:
        state.apply_chance(7)
    assert (caught.value.code, caught.value.params) == ("card_not_in_deck", {"card": "7"})


def test_is_legal_agrees_with_the_legal_actions() -> None:
    state = rigged("cheese", "ham", "bread", "wine", "fruit", "cake", players=3)
    for action in range(38):
        assert state.is_legal(action) == (action in state.legal_actions())
    assert state.is_legal(Action.parse("take ham")) and not state.is_legal(Action.parse("pass"))


def test_a_clone_keeps_the_deck_it_was_dealt() -> None:
    state = State.new(4, 9)
    state.play(state.legal_actions()[0])
    assert state.clone().initial_deck == state.initial_deck == State.new(4, 9).initial_deck


def test_a_sampled_world_has_no_past_deck() -> None:
    state = State.new(4, 9)
    world = sample_world(state.view(1), random.Random(1))
    for unknown in (world, world.clone()):
        with pytest.raises(SetupError) as caught:
            _ = unknown.initial_deck
        assert (caught.value.code, str(caught.value)) == (
            "deck_unknown", "this state was sampled from a player's view: its past deck is unknown"
        )
    with pytest.raises(SetupError) as caught:
        _ = State.with_unknown_deck(3).initial_deck
    assert str(caught.value) == "this game's deck order is unknown (its cards were chance steps)"


def test_a_world_dealt_from_a_finished_game_is_that_game() -> None:
    state = finished(6, 4)
    view = state.view(2)
    world = WorldSampler(view).sample(random.Random(3))
    assert world.is_over and world.legal_actions() == ()
    assert world == state  # every hand is shown at the end: the one world is the game itself
    assert world.view(2) == view
    assert world.score() == state.score()
    assert [world.hand(seat) for seat in range(4)] == [state.hand(seat) for seat in range(4)]


def test_a_world_keeps_the_public_history_seat_by_seat() -> None:
    state = State.new(5, 4)
    for _ in range(17):
        state.play(state.legal_actions()[-1])
    world = sample_world(state.view(3), random.Random(8))
    assert world.history == state.history
    assert world.actions == state.actions


def test_every_card_of_a_short_deck_can_come_up_first_or_second() -> None:
    """Fisher–Yates runs to the top of the deck: in worlds dealt near the end of a game,
    every kind of card left in the deck turns up in its first and its second place."""
    state = State.new(3, 21)
    rng = random.Random(21)
    while state.deck_size > 8 or state.to_move is None:
        legal = state.legal_actions()
        state.play(legal[rng.randrange(len(legal))])
    assert not state.is_over
    view = state.view(0)
    sampler = WorldSampler(view)
    kinds: set[int] = set()
    first, second = set(), set()
    for seed in range(400):
        deck = sampler.sample(random.Random(seed)).remaining_deck
        kinds.update(deck)
        first.add(deck[0])
        second.add(deck[1])
    assert len(kinds) >= 2
    assert first == kinds == second


def test_standings_refuse_lists_of_different_lengths() -> None:
    with pytest.raises(ValueError):
        standings([3, 1, 2], [0, 1])


# --- why a view calls an action illegal -----------------------------------------------------

def test_why_illegal_gives_the_rules_reason_from_the_view() -> None:
    state = rigged(
        "dragon", "cheese", "ham", "bread", "wine", "fruit",
        "cake", "cake", "cake", "chicken", "chicken", "chicken",
        players=3, rules=Rules(dragon_min_on_table=2),
    )
    play_all(state, "take cheese", "take ham", "take bread")  # king: wine, fruit; 1 dragon
    view = state.view(state.to_move)
    assert view.why_illegal(Action.parse("take cheese")) == "cheese is not on the table (R6)"
    assert view.why_illegal(Action.parse("feed fruit wine")) == (
        "feeding a dragon from the table needs 2 dragons there, and there is 1 "
        "(variant dragon_min_on_table)"
    )
    assert view.why_illegal(Action.parse("take cake")) is None
    over = finished(3, 3).view(0)
    assert over.why_illegal(Action.parse("pass")) == "the game is over"


def test_why_illegal_reads_the_deck_and_the_king_of_the_view() -> None:
    state = rigged(
        "dragon", "cheese", "ham", "bread", "wine", "fruit",
        "cake", "cake", "cake", "chicken", "chicken", "chicken",
        players=3,
    )
    play_all(state, "take cheese", "take ham", "take bread")  # king: wine, fruit; 1 dragon
    view = state.view(None)
    assert view.why_illegal(Action.parse("feed wine wine")) == (
        "the king has only 1 wine, the dragon needs 2 (R8)"
    )
    assert view.why_illegal(Action.parse("feed fruit wine")) is None
    assert view.why_illegal(Action.parse("place_dragon")) == (
        "there is no drawn dragon to place: only a dragon you just drew can be placed (R7a)"
    )


def test_a_two_card_deck_is_dealt_in_either_order() -> None:
    """The deck's shuffle runs down to its first two places: with two unseen cards left, one
    of them a dragon (a hidden draw is never a dragon, R7b), the dragon is on top in some
    worlds and below in others."""
    state = State.new(3, 22)
    rng = random.Random(22)
    for _ in range(46):
        legal = state.legal_actions()
        state.play(legal[rng.randrange(len(legal))])
    view = state.view(0)
    assert view.deck_size == 2 and not view.finished and not view.pending_dragon
    sampler = WorldSampler(view)
    places = {sampler.sample(random.Random(seed)).remaining_deck.index(7) for seed in range(60)}
    assert places == {0, 1}


def test_states_that_differ_only_in_the_decks_order_are_different_states() -> None:
    """Equality sees the cards still in the deck: two deals with the same table and the same
    next card differ once any later card differs."""
    deck = rigged("cheese", "ham", "bread", "wine", "fruit", "cake", "wine", players=3)
    cards = list(deck.initial_deck)
    swapped = [*cards[:7], cards[-1], *cards[8:-1], cards[7]]
    assert cards[7] != cards[-1]
    other = State(swapped, 3)
    assert other.view(None) == deck.view(None)
    assert other != deck
    assert State(cards, 3) == deck


def test_a_state_of_unknown_deck_says_so_plainly() -> None:
    assert State.with_unknown_deck(3).deck_known is False
    assert State.new(3, 1).deck_known is True


def test_why_illegal_sees_the_empty_table_and_the_deck_under_must_draw() -> None:
    """variant empty_table: must_draw: the view's table and deck decide the refusal."""
    state = rigged(
        "dragon", "cheese", "ham", "bread", "wine", "fruit",
        "cheese", "cheese", "cheese", "ham", "ham", "ham",
        players=3, rules=Rules(empty_table="must_draw"),
    )
    play_all(state, "take cheese", "take ham", "take bread")  # king: wine, fruit; a dragon
    assert state.view(None).why_illegal(Action.parse("feed fruit wine")) is None
    play_all(state, "take cheese", "take ham")  # the table is empty, the deck is not
    assert not any(state.table) and state.deck_size and state.table_dragons == 1
    assert state.view(None).why_illegal(Action.parse("feed fruit wine")) == (
        "the table is empty: you must draw a card (variant empty_table: must_draw)"
    )
