"""The edges of the rules and of the engine's front door, each pinned to the error (code,
params and English sentence) it must give: the cases a mutation run found untested."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples
from kingsbreakfast.engine import (
    NUM_DISHES,
    Action,
    ActionFormatError,
    IllegalActionError,
    Rules,
    SetupError,
    State,
    explain_illegal,
    score,
    score_hand,
)
from kingsbreakfast.engine.rules import legal_actions
from rigging import play_all, rigged

BREAD, CHEESE, HAM, CHICKEN, FRUIT, CAKE, WINE = range(NUM_DISHES)
NO_DISHES = (0,) * NUM_DISHES
MUST_DRAW = Rules(empty_table="must_draw")


def plate(**held: int) -> tuple[int, ...]:
    names = ("bread", "cheese", "ham", "chicken", "fruit", "cake", "wine")
    return tuple(held.get(name, 0) for name in names)


def refused(state: State, action: Any) -> IllegalActionError:
    before = state.clone()
    with pytest.raises(IllegalActionError) as caught:
        state.play(action)
    assert state == before
    return caught.value


# --- R8: a feed the king cannot pay for -----------------------------------------------------

# (king, action, code, params, message), with a dragon on the table and cards in the deck.
FEED_REFUSALS: dict[str, tuple[tuple[int, ...], str, str, dict[str, Any], str]] = {
    "mixed pair, king holds only the second": (
        plate(ham=1, wine=1), "feed cheese ham", "king_lacks_dish",
        {"dish": "cheese", "needed": 1, "held": 0},
        "the king has no cheese for the dragon (R8)",
    ),
    "mixed pair, king holds only the first": (
        plate(cheese=1, wine=1), "feed cheese ham", "king_lacks_dish",
        {"dish": "ham", "needed": 1, "held": 0},
        "the king has no ham for the dragon (R8)",
    ),
    "same pair, king holds exactly one": (
        plate(ham=1, wine=1), "feed ham ham", "king_lacks_dish",
        {"dish": "ham", "needed": 2, "held": 1},
        "the king has only 1 ham, the dragon needs 2 (R8)",
    ),
    "king holds a single dish": (
        plate(ham=1), "feed ham wine", "king_too_few_dishes", {},
        "the king has fewer than 2 dishes for the dragon (R8)",
    ),
}


@pytest.mark.parametrize(
    ("king", "action", "code", "params", "message"),
    FEED_REFUSALS.values(),
    ids=FEED_REFUSALS.keys(),
)
def test_r8_a_feed_the_king_cannot_pay_for_is_explained(
    king: tuple[int, ...], action: str, code: str, params: dict[str, Any], message: str
) -> None:
    error = explain_illegal(Action.parse(action), plate(bread=1), 1, king, 10, False, Rules())
    assert (error.code, error.params, str(error)) == (code, params, message)


def test_r8_exactly_one_of_each_dish_of_a_mixed_pair_is_enough() -> None:
    """The boundary of the refusal above: one ham and one wine pay for a mixed feed."""
    with pytest.raises(AssertionError, match="legal action feed ham wine"):
        explain_illegal(
            Action.parse("feed ham wine"), plate(bread=1), 1, plate(ham=1, wine=1), 10, False,
            Rules(),
        )


def test_r8_in_play_a_mixed_feed_needs_both_dishes_with_the_king() -> None:
    # the king gets fruit and wine; the cheese-wine feed lacks cheese, the fruit-wine one works
    state = rigged(
        "dragon", "cheese", "ham", "bread", "wine", "fruit",
        "cake", "cake", "cake", "chicken", "chicken", "chicken", players=3,
    )
    play_all(state, "take cheese", "take ham", "take bread")
    assert state.king == plate(fruit=1, wine=1)
    error = refused(state, "feed cheese wine")
    assert (error.code, error.params) == (
        "king_lacks_dish", {"dish": "cheese", "needed": 1, "held": 0}
    )
    state.play("feed fruit wine")
    assert state.king == NO_DISHES


# Every other refusal, with its exact sentence: (table, dragons, king, deck, pending, rules).
OTHER_REFUSALS: dict[str, tuple[tuple[Any, ...], str, str, dict[str, Any], str]] = {
    "dragon pending": (
        (plate(), 0, plate(), 5, True, Rules()), "draw", "dragon_choice_pending", {},
        "you drew a dragon: feed it now or place it on the table (R7a)",
    ),
    "take from the table": (
        (plate(bread=1), 0, plate(), 5, False, Rules()), "take ham", "dish_not_on_table",
        {"dish": "ham"}, "ham is not on the table (R6)",
    ),
    "draw from an empty deck": (
        (plate(bread=1), 0, plate(), 0, False, Rules()), "draw", "deck_empty", {},
        "the deck is empty: there is no card to draw (R7)",
    ),
    "place a dragon not drawn": (
        (plate(bread=1), 0, plate(), 5, False, Rules()), "place_dragon", "no_drawn_dragon", {},
        "there is no drawn dragon to place: only a dragon you just drew can be placed (R7a)",
    ),
    "pass": (
        (plate(bread=1), 0, plate(), 5, False, Rules()), "pass", "pass_not_allowed", {},
        "you may pass only when no other action is possible (R5b)",
    ),
    "feed without a table dragon": (
        (plate(bread=1), 0, plate(ham=2), 5, False, Rules()), "feed ham ham",
        "no_dragon_on_table", {}, "there is no dragon on the table to feed (R8)",
    ),
    "one dragon where two are needed": (
        (plate(bread=1), 1, plate(ham=2), 5, False, Rules(dragon_min_on_table=2)),
        "feed ham ham", "too_few_dragons_on_table", {"needed": 2, "present": 1},
        "feeding a dragon from the table needs 2 dragons there, and there is 1 "
        "(variant dragon_min_on_table)",
    ),
    "default rules on an empty table, the king short": (
        (plate(), 1, plate(ham=1, wine=1), 5, False, Rules()), "feed ham ham",
        "king_lacks_dish", {"dish": "ham", "needed": 2, "held": 1},
        "the king has only 1 ham, the dragon needs 2 (R8)",
    ),
    "must draw, dishes on the table, the king short": (
        (plate(bread=1), 1, plate(ham=1, wine=1), 5, False, MUST_DRAW), "feed ham ham",
        "king_lacks_dish", {"dish": "ham", "needed": 2, "held": 1},
        "the king has only 1 ham, the dragon needs 2 (R8)",
    ),
    "must draw, empty table and deck, the king short": (
        (plate(), 1, plate(ham=1, wine=1), 0, False, MUST_DRAW), "feed ham ham",
        "king_lacks_dish", {"dish": "ham", "needed": 2, "held": 1},
        "the king has only 1 ham, the dragon needs 2 (R8)",
    ),
    "must draw on an empty table": (
        (plate(), 1, plate(ham=2), 5, False, MUST_DRAW), "feed ham ham",
        "empty_table_must_draw", {},
        "the table is empty: you must draw a card (variant empty_table: must_draw)",
    ),
}


@pytest.mark.parametrize(
    ("situation", "action", "code", "params", "message"),
    OTHER_REFUSALS.values(),
    ids=OTHER_REFUSALS.keys(),
)
def test_each_refusal_names_its_rule(
    situation: tuple[Any, ...], action: str, code: str, params: dict[str, Any], message: str
) -> None:
    table, dragons, king, deck, pending, rules = situation
    error = explain_illegal(Action.parse(action), table, dragons, king, deck, pending, rules)
    assert isinstance(error, IllegalActionError)
    assert (error.code, error.params, str(error)) == (code, params, message)


# --- R5a/R5b: must_draw once the deck is empty ----------------------------------------------

def test_r5a_must_draw_with_an_empty_deck_lets_a_table_dragon_be_fed() -> None:
    """The variant forces a draw only while there is a card to draw: on an empty table with an
    empty deck, a table dragon may be fed as in the default rules (R5b)."""
    king, dragons = plate(ham=2), 1
    default = Rules()
    with_cards = legal_actions(plate(), dragons, king, 5, False, MUST_DRAW)
    without_cards = legal_actions(plate(), dragons, king, 0, False, MUST_DRAW)
    assert [str(a) for a in with_cards] == ["draw"]
    assert [str(a) for a in without_cards] == ["feed ham ham"]
    assert without_cards == legal_actions(plate(), dragons, king, 0, False, default)
    # nothing to feed and nothing to draw: the pass is all that is left (R5b)
    assert [str(a) for a in legal_actions(plate(), 0, king, 0, False, MUST_DRAW)] == ["pass"]


# --- views ----------------------------------------------------------------------------------

def test_a_view_offers_only_feed_or_place_while_a_dragon_is_pending() -> None:
    state = rigged("cheese", "ham", "bread", "wine", "fruit", "cake", "dragon", players=3)
    state.play("draw")
    view = state.view(state.to_move)
    assert view.pending_dragon
    assert view.legal_actions() == state.legal_actions()
    assert [str(a) for a in view.legal_actions()] == ["place_dragon"]
    assert view.why_illegal(Action.parse("take ham")) == (
        "you drew a dragon: feed it now or place it on the table (R7a)"
    )
    assert view.why_illegal(Action.parse("place_dragon")) is None
    # a spectator sees the same choice: legality is public
    assert state.view(None).legal_actions() == view.legal_actions()


@pytest.mark.parametrize("seat", [-1, 3, 4, True, 1.0, "0"])
def test_a_view_for_a_seat_not_at_the_table_is_refused(seat: Any) -> None:
    state = State.new(3, 1)
    with pytest.raises(SetupError) as caught:
        state.view(seat)
    assert (caught.value.code, caught.value.params) == ("bad_seat", {"seat": repr(seat)})
    assert str(caught.value) == f"there is no seat {seat!r} at a table of 3"


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_every_seat_at_the_table_has_a_view(seat: int) -> None:
    assert State.new(3, 1).view(seat).seat == seat


# --- play(): what counts as an action -------------------------------------------------------

def test_play_takes_an_action_id() -> None:
    state, twin = State.new(3, 5), State.new(3, 5)
    legal = state.legal_actions()[0]
    state.play(int(legal))
    twin.play(legal)
    assert state == twin


@pytest.mark.parametrize(
    ("action", "code", "params", "message"),
    [
        (True, "unknown_action", {"action": "True"}, "True is not an action"),
        (1.0, "unknown_action", {"action": "1.0"}, "1.0 is not an action"),
        (None, "unknown_action", {"action": "None"}, "None is not an action"),
        (38, "unknown_action_id", {"action": "38"}, "38 is not an action id (0–37)"),
        (-1, "unknown_action_id", {"action": "-1"}, "-1 is not an action id (0–37)"),
        ("", "empty_action", {}, "an empty text is not an action"),
        (
            "eat ham", "unknown_action", {"action": "eat ham"},
            "'eat ham' is not an action (try 'take cheese', 'draw', 'place_dragon', "
            "'feed ham wine' or 'pass')",
        ),
    ],
)
def test_play_refuses_what_is_not_an_action(
    action: Any, code: str, params: dict[str, Any], message: str
) -> None:
    state = State.new(3, 5)
    before = state.clone()
    with pytest.raises(ActionFormatError) as caught:
        state.play(action)
    assert (caught.value.code, caught.value.params, str(caught.value)) == (
        code, params, message
    )
    assert state == before


def test_play_names_the_seat_whose_turn_it_is() -> None:
    state = State.new(3, 5, first_cook=1)
    to_move = state.to_move
    assert to_move is not None
    other = (to_move + 1) % 3
    before = state.clone()
    with pytest.raises(IllegalActionError) as caught:
        state.play(state.legal_actions()[0], seat=other)
    assert (caught.value.code, caught.value.params) == (
        "not_your_turn", {"seat": other, "to_move": to_move}
    )
    assert str(caught.value) == f"it is seat {to_move}'s turn, not seat {other}'s (R5)"
    assert state == before
    state.play(state.legal_actions()[0], seat=to_move)
    assert state != before


# --- R2: the first cook ---------------------------------------------------------------------

@pytest.mark.parametrize("players", [3, 4, 5])
def test_r2_first_cook_equal_to_the_player_count_is_refused(players: int) -> None:
    for make in (
        lambda: State.new(players, 1, players),
        lambda: State.with_unknown_deck(players, players),
    ):
        with pytest.raises(SetupError) as caught:
            make()
        assert (caught.value.code, caught.value.params) == (
            "bad_first_cook", {"first_cook": repr(players)}
        )
        assert str(caught.value) == (
            f"the first cook must be a seat from 0 to {players - 1}, not {players}"
        )
    assert State.new(players, 1, players - 1).to_move == players - 1


@pytest.mark.parametrize("players", [2, 6, True, 4.0, "4"])
def test_r2_player_count_refusal_pins_its_params(players: Any) -> None:
    with pytest.raises(SetupError) as caught:
        State.new(players, 1)
    assert (caught.value.code, caught.value.params) == (
        "bad_player_count", {"players": repr(players)}
    )
    assert str(caught.value) == (
        f"King's Breakfast is played by 3 to 5 players, not {players!r} (R2)"
    )


def test_rules_must_be_a_rules_object() -> None:
    with pytest.raises(SetupError) as caught:
        State([], 3, 0, {"empty_table": "must_draw"})  # type: ignore[arg-type]
    assert (caught.value.code, caught.value.params, str(caught.value)) == (
        "bad_rules", {}, "rules must be a Rules object"
    )


# --- R11: the bots' fast path agrees with the scoring ---------------------------------------

plates = st.lists(st.integers(0, 15), min_size=NUM_DISHES, max_size=NUM_DISHES)


@given(king=plates, hands=st.lists(plates, min_size=3, max_size=5))
def test_r11_score_hand_is_score_per_seat(king: list[int], hands: list[list[int]]) -> None:
    scoring = score(king, hands)
    for seat, hand in enumerate(hands):
        assert score_hand(king, hand) == (scoring.points[seat], scoring.discarded[seat])


@settings(max_examples=examples(50), deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(3, 5))
def test_r11_score_hand_matches_a_finished_games_scoring(seed: int, players: int) -> None:
    state = State.new(players, seed)
    rng = random.Random(seed)
    while not state.is_over:
        legal = state.legal_actions()
        state.play(legal[rng.randrange(len(legal))])
    scoring = state.score()
    for seat in range(players):
        assert score_hand(state.king, state.hand(seat)) == (
            scoring.points[seat], scoring.discarded[seat]
        )

