"""What the engine accepts as an action, a deck and a seat, and what it says about a state:
each refusal pinned to its code, params and sentence, each accepted spelling to its action."""

from __future__ import annotations

from typing import Any

import pytest

from kingsbreakfast.engine import (
    CARD_IDS,
    UNSHUFFLED_DECK,
    Action,
    ActionFormatError,
    SetupError,
    State,
    score_hand,
)
from kingsbreakfast.engine.cards import dish_number
from rigging import play_all, rigged

DISH_LIST = "bread, cheese, ham, chicken, fruit, cake, wine"
TRY = "(try 'take cheese', 'draw', 'place_dragon', 'feed ham wine' or 'pass')"

SPELLINGS = {
    "take ham": "take ham",
    "TAKE  Ham": "take ham",
    "  take\tcheese ": "take cheese",
    "feed wine ham": "feed ham wine",
    "feed wine+ham": "feed ham wine",
    "feed wine,ham": "feed ham wine",
    "feed ham ham": "feed ham ham",
    "draw": "draw",
    "Pass": "pass",
    "place_dragon": "place_dragon",
    "place": "place_dragon",
}


@pytest.mark.parametrize(("text", "meant"), SPELLINGS.items())
def test_the_text_notation_reads_every_documented_spelling(text: str, meant: str) -> None:
    action = Action.parse(text)
    assert str(action) == meant
    assert Action.parse(str(action)) == action


BAD_TEXTS = {
    "take dragon": f"'take dragon' is not an action: 'dragon' is not a dish (dishes: {DISH_LIST})",
    "take pizza": f"'take pizza' is not an action: 'pizza' is not a dish (dishes: {DISH_LIST})",
    "feed ham pizza": (
        f"'feed ham pizza' is not an action: 'pizza' is not a dish (dishes: {DISH_LIST})"
    ),
    "feed ham": f"'feed ham' is not an action {TRY}",
    "take": f"'take' is not an action {TRY}",
    "take ham wine": f"'take ham wine' is not an action {TRY}",
    "place dragon": f"'place dragon' is not an action {TRY}",
    "draw now": f"'draw now' is not an action {TRY}",
    "pass twice": f"'pass twice' is not an action {TRY}",
    "eat": f"'eat' is not an action {TRY}",
}


@pytest.mark.parametrize(("text", "message"), BAD_TEXTS.items())
def test_a_text_that_is_no_action_is_refused_with_its_reason(text: str, message: str) -> None:
    with pytest.raises(ActionFormatError) as caught:
        Action.parse(text)
    assert (caught.value.code, caught.value.params, str(caught.value)) == (
        "unknown_action", {"action": text}, message
    )


@pytest.mark.parametrize("text", ["", "   ", "+", ",,"])
def test_an_empty_text_is_no_action(text: str) -> None:
    with pytest.raises(ActionFormatError) as caught:
        Action.parse(text)
    assert (caught.value.code, caught.value.params, str(caught.value)) == (
        "empty_action", {}, "an empty text is not an action"
    )


@pytest.mark.parametrize(
    ("dish", "meant"), [(0, "bread"), (6, "wine"), ("ham", "ham"), (" Ham ", "ham")]
)
def test_a_dish_by_number_or_by_name(dish: Any, meant: str) -> None:
    assert str(Action.take(dish)) == f"take {meant}"
    assert str(Action.feed(dish, "wine")) == " ".join(
        ["feed", *sorted([meant, "wine"], key=CARD_IDS.index)]
    )


@pytest.mark.parametrize(
    ("dish", "message"),
    [
        (7, "7 is not a dish number (0–6)"),
        (-1, "-1 is not a dish number (0–6)"),
        (True, "True is not a dish number (0–6)"),
        (1.5, "1.5 is not a dish number (0–6)"),
        ("dragon", f"'dragon' is not a dish (dishes: {DISH_LIST})"),
        ("pizza", f"'pizza' is not a dish (dishes: {DISH_LIST})"),
    ],
)
def test_a_dish_that_is_none_is_refused(dish: Any, message: str) -> None:
    for make in (lambda: Action.take(dish), lambda: Action.feed("ham", dish)):
        with pytest.raises(ActionFormatError) as caught:
            make()
        assert (caught.value.code, caught.value.params, str(caught.value)) == (
            "unknown_dish", {"dish": dish}, message
        )


def test_the_dragon_is_a_card_but_not_a_dish() -> None:
    assert dish_number("wine") == 6
    with pytest.raises(KeyError) as caught:
        dish_number("dragon")
    assert caught.value.args == ("dragon",)


RECORD_ACTIONS = {
    "take": ({"type": "take", "dish": "ham"}, "take ham"),
    "feed in any order": ({"type": "feed", "dishes": ["wine", "ham"]}, "feed ham wine"),
    "draw": ({"type": "draw"}, "draw"),
    "place_dragon": ({"type": "place_dragon"}, "place_dragon"),
    "pass": ({"type": "pass"}, "pass"),
    "with a player": ({"type": "draw", "player": 2}, "draw"),
}


@pytest.mark.parametrize(("obj", "meant"), RECORD_ACTIONS.values(), ids=RECORD_ACTIONS.keys())
def test_a_record_action_object_reads_as_its_action(obj: dict[str, Any], meant: str) -> None:
    action = Action.from_record(obj)
    assert str(action) == meant
    assert Action.from_record(action.to_record()) == action


BAD_RECORD_ACTIONS = {
    "a dish in capitals": (
        {"type": "take", "dish": "Ham"}, "unknown_dish", {"dish": "Ham"},
        f"'Ham' is not a dish (dishes: {DISH_LIST})",
    ),
    "a dish as a number": (
        {"type": "feed", "dishes": ["ham", 3]}, "unknown_dish", {"dish": "3"},
        "'dishes' must be a dish id such as \"cheese\", not 3",
    ),
    "a first dish as a number": (
        {"type": "feed", "dishes": [3, "ham"]}, "unknown_dish", {"dish": "3"},
        "'dishes' must be a dish id such as \"cheese\", not 3",
    ),
    "a feed of three": (
        {"type": "feed", "dishes": ["ham", "wine", "cake"]}, "feed_needs_two_dishes", {},
        "a feed must name exactly 2 dishes in 'dishes'",
    ),
    "a feed of a string": (
        {"type": "feed", "dishes": "hamwine"}, "feed_needs_two_dishes", {},
        "a feed must name exactly 2 dishes in 'dishes'",
    ),
    "no type": (
        {}, "unknown_action_type", {"type": "None"},
        "unknown action type None (expected one of take, draw, place_dragon, feed, pass)",
    ),
    "a type in capitals": (
        {"type": "DRAW"}, "unknown_action_type", {"type": "'DRAW'"},
        "unknown action type 'DRAW' (expected one of take, draw, place_dragon, feed, pass)",
    ),
}


@pytest.mark.parametrize(
    ("obj", "code", "params", "message"), BAD_RECORD_ACTIONS.values(),
    ids=BAD_RECORD_ACTIONS.keys(),
)
def test_a_bad_record_action_is_refused_with_its_reason(
    obj: dict[str, Any], code: str, params: dict[str, Any], message: str
) -> None:
    with pytest.raises(ActionFormatError) as caught:
        Action.from_record(obj)
    assert (caught.value.code, caught.value.params, str(caught.value)) == (
        code, params, message
    )


# --- decks ----------------------------------------------------------------------------------

def test_a_deck_as_card_numbers_is_the_same_deck_as_card_ids() -> None:
    ids = [CARD_IDS[card] for card in UNSHUFFLED_DECK]
    assert State(list(UNSHUFFLED_DECK), 3) == State(ids, 3)
    assert State(tuple(UNSHUFFLED_DECK), 3).initial_deck == UNSHUFFLED_DECK


@pytest.mark.parametrize("deck", ["bread" * 22, b"abc"])
def test_a_deck_given_as_text_is_refused(deck: Any) -> None:
    with pytest.raises(SetupError) as caught:
        State(deck, 3)
    assert (caught.value.code, caught.value.params, str(caught.value)) == (
        "bad_deck", {}, "the deck must be a list of card ids"
    )


@pytest.mark.parametrize("card", [8, -1, True, 1.0, None])
def test_a_card_number_that_is_no_card_is_refused_at_its_position(card: Any) -> None:
    deck: list[Any] = list(UNSHUFFLED_DECK)
    deck[5] = card
    with pytest.raises(SetupError) as caught:
        State(deck, 3)
    assert (caught.value.code, caught.value.params, str(caught.value)) == (
        "unknown_card", {"position": 5, "card": repr(card)},
        f"card 5 of the deck, {card!r}, is not a card",
    )


def test_the_dragon_and_card_seven_are_the_same_card() -> None:
    deck: list[Any] = [CARD_IDS[card] for card in UNSHUFFLED_DECK]
    assert deck[-1] == "dragon"
    deck[-1] = 7
    assert State(deck, 3).initial_deck == UNSHUFFLED_DECK


# --- what a state says about itself ---------------------------------------------------------

def test_card_counts_say_where_each_card_is() -> None:
    """R1: the 110 cards, place by place, in a state with a dragon just drawn and pending."""
    state = rigged("cheese", "ham", "bread", "wine", "fruit", "cake", "dragon", players=3)
    assert state.card_counts() == {
        "deck": 104, "table_dishes": 6, "table_dragons": 0, "drawn_dragon": 0, "king": 0,
        "hands": 0, "removed": 0, "unaccounted": 0,
    }
    play_all(state, "take cheese", "draw")
    assert state.card_counts() == {
        "deck": 103, "table_dishes": 5, "table_dragons": 0, "drawn_dragon": 1, "king": 0,
        "hands": 1, "removed": 0, "unaccounted": 0,
    }
    play_all(state, "place_dragon", "take ham")  # R9: bread, wine, fruit, cake to the king
    assert state.card_counts() == {
        "deck": 103 - 6, "table_dishes": 6, "table_dragons": 1, "drawn_dragon": 0,
        "king": 4, "hands": 2, "removed": 0, "unaccounted": 0,
    }


def test_provisional_points_are_the_hand_scored_against_the_king_now() -> None:
    state = rigged(
        "cheese", "ham", "bread", "wine", "fruit", "cake",
        "cheese", "cheese", "ham", "bread", "bread", "wine", players=3,
    )
    play_all(state, "take cheese", "take ham", "take bread")  # king: wine, fruit, cake
    # round 2, seat 1 cooks: seat 1 takes 2 cheese, seat 2 a wine, seat 0 2 bread; the ham
    # left goes to the king, who now has one wine, fruit, cake and ham
    play_all(state, "take cheese", "take wine", "take bread")
    assert state.king == (0, 0, 1, 0, 1, 1, 1)
    for seat in range(3):
        assert state.provisional_points(seat) == score_hand(state.king, state.hand(seat))
    # R11: seat 0 holds cheese and 2 bread, none with the king: 3 discarded; seat 1 scores
    # its ham (1 × 1) and discards 2 cheese; seat 2 scores its wine and discards a bread
    assert [state.provisional_points(seat) for seat in range(3)] == [(0, 3), (1, 2), (1, 1)]


def test_a_state_tells_where_the_game_stands_in_its_repr() -> None:
    state = State.new(4, 1, 2)
    assert repr(state) == "<State 4 players, round 1, seat 2 to move, deck 102, king 0 cards>"
    unknown = State.with_unknown_deck(5)
    assert repr(unknown) == "<State 5 players, round 1, a card to turn up, deck 110, king 0 cards>"
    while not state.is_over:
        state.play(state.legal_actions()[0])
    assert repr(state) == (
        f"<State 4 players, round {state.round}, over, deck 0, king {sum(state.king)} cards>"
    )
