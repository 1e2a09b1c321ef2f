"""One test (or a few) per rule of docs/rules.md, each on a rigged deck that walks into it."""

from __future__ import annotations

import random

import pytest

from kingsbreakfast.engine import (
    DISHES,
    NUM_ACTIONS,
    Action,
    IllegalActionError,
    Rules,
    SetupError,
    State,
    Turn,
)
from kingsbreakfast.engine.cards import CHEESE, FRUIT, HAM, WINE
from rigging import play_all, rigged

MUST_DRAW = Rules(empty_table="must_draw")
TWO_DRAGONS = Rules(dragon_min_on_table=2)


def legal_text(state: State) -> list[str]:
    return [str(action) for action in state.legal_actions()]


def refusal(state: State, action: str) -> IllegalActionError:
    """Play an illegal action; check it is refused and changes nothing."""
    before = state.clone()
    with pytest.raises(IllegalActionError) as caught:
        state.play(action)
    assert state == before
    return caught.value


# --- R1: components -------------------------------------------------------------------------


def test_r1_a_game_has_110_cards_15_of_each_dish_and_5_dragons() -> None:
    state = State.new(4, 7)
    assert state.deck_size + sum(state.table) + state.table_dragons == 110
    assert state.dish_totals() == [15] * 7 + [5]


def test_r1_dishes_in_their_canonical_order() -> None:
    assert DISHES == ("bread", "cheese", "ham", "chicken", "fruit", "cake", "wine")
    assert NUM_ACTIONS == 38


# --- R2: players and setup ------------------------------------------------------------------


@pytest.mark.parametrize("players", [0, 1, 2, 6, 7, -3, "4", 4.0, True, None])
def test_r2_player_counts_outside_3_to_5_are_refused(players: object) -> None:
    with pytest.raises(SetupError) as caught:
        State.new(players, 1)  # type: ignore[arg-type]
    assert caught.value.code == "bad_player_count"
    assert "3 to 5 players" in str(caught.value)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_r2_three_to_five_players_start_with_an_empty_king(players: int) -> None:
    state = State.new(players, 3)
    assert state.num_players == players
    assert state.king == (0,) * 7
    assert all(sum(hand) == 0 for hand in state.hands)


def test_r2_first_cook_starts_and_play_goes_clockwise() -> None:
    state = State.new(4, 5, first_cook=2)
    seats = []
    for _ in range(4):
        seats.append(state.to_move)
        state.play(state.legal_actions()[0] if "draw" not in legal_text(state) else "draw")
        while state.pending_dragon:
            state.play("place_dragon")
    assert seats == [2, 3, 0, 1]


@pytest.mark.parametrize("first_cook", [-1, 3, "0", True, 1.0])
def test_r2_first_cook_must_be_a_seat(first_cook: object) -> None:
    with pytest.raises(SetupError) as caught:
        State.new(3, 1, first_cook=first_cook)  # type: ignore[arg-type]
    assert caught.value.code == "bad_first_cook"


# --- R3: rounds and the cook ----------------------------------------------------------------


def test_r3_after_a_round_the_next_seat_is_cook() -> None:
    state = rigged("cheese", "ham", "bread", "wine", "fruit", "cake", players=3, first_cook=2)
    assert (state.round, state.cook, state.to_move) == (1, 2, 2)
    play_all(state, "take cheese", "take ham", "take bread")
    assert (state.round, state.cook, state.to_move) == (2, 0, 0)


# --- R4: set the table ----------------------------------------------------------------------


def test_r4_cook_turns_up_two_cards_per_player_dragons_included() -> None:
    state = rigged("dragon", "dragon", "cheese", "ham", "ham", "bread", players=3)
    assert state.table == (1, 1, 2, 0, 0, 0, 0)
    assert state.table_dragons == 2
    assert state.deck_size == 104  # dragons are not replaced


def test_r4_dragons_left_on_the_table_do_not_change_the_deal() -> None:
    state = rigged(
        "dragon", "cheese", "ham", "bread", "wine", "fruit",
        "cake", "cake", "cake", "dragon", "chicken", "chicken", players=3,
    )
    play_all(state, "take cheese", "take ham", "take bread")
    assert state.round == 2
    assert state.table_dragons == 2  # the old one stays, one new among the 6 turned up
    assert sum(state.table) == 5
    assert state.deck_size == 98


def test_r4_r10_every_round_is_dealt_in_full_until_the_deck_runs_short() -> None:
    for seed in range(30):
        rng = random.Random(seed)
        players = 3 + seed % 3
        state = State.new(players, rng)
        deck_at_deal = {1: 110}
        while not state.is_over:
            round_before = state.round
            deck_before = state.deck_size
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            drew = action == Action.parse("draw")
            state.play(action)
            if state.round != round_before or state.is_over:
                left = deck_before - (1 if drew else 0)
                deck_at_deal[round_before + 1] = left
        rounds = state.round
        for number in range(2, rounds + 1):
            assert deck_at_deal[number] >= 2 * players  # R4: a full deal was possible
        last = deck_at_deal[rounds + 1]
        assert last < 2 * players  # R10: the next deal was not
        assert state.removed_unseen == last  # the rest leaves the game
        assert state.deck_size == 0


# --- R5: take portions ----------------------------------------------------------------------


def test_r5_each_player_has_exactly_one_turn_a_round_starting_with_the_cook() -> None:
    state = State.new(5, 11, first_cook=3)
    rng = random.Random(2)
    while not state.is_over:
        legal = state.legal_actions()
        state.play(legal[rng.randrange(len(legal))])
    turns_by_round: dict[int, list[int]] = {}
    replay = State(state.initial_deck, 5, 3)
    for turn in state.history:
        assert replay.to_move == turn.seat
        turns_by_round.setdefault(replay.round, [])
        if not replay.pending_dragon:  # the choice after a drawn dragon is the same turn
            turns_by_round[replay.round].append(turn.seat)
        replay.play(turn.action)
    for number, seats in turns_by_round.items():
        cook = (3 + number - 1) % 5
        assert seats == [(cook + k) % 5 for k in range(5)]


def _empty_table_with_a_dragon(rules: Rules) -> State:
    """Round 2, seat 0 to move: no dish on the table, a dragon there, the king has 2 cards."""
    state = rigged(
        "dragon", "cheese", "ham", "bread", "wine", "fruit",
        "cake", "cake", "cake", "chicken", "chicken", "chicken",
        players=3, rules=rules,
    )
    play_all(state, "take cheese", "take ham", "take bread")  # wine and fruit go to the king
    play_all(state, "take cake", "take chicken")
    assert state.to_move == 0 and sum(state.table) == 0 and state.deck_size > 0
    assert state.table_dragons == 1 and sum(state.king) == 2
    return state


def test_r5a_empty_table_allows_draw_or_feed_by_default() -> None:
    state = _empty_table_with_a_dragon(Rules())
    assert legal_text(state) == ["draw", "feed fruit wine"]
    assert refusal(state, "take cheese").code == "dish_not_on_table"
    assert refusal(state, "pass").code == "pass_not_allowed"
    state.play("feed wine fruit")
    assert state.king == (0,) * 7


def test_r5a_variant_must_draw_forbids_feeding_on_an_empty_table() -> None:
    state = _empty_table_with_a_dragon(MUST_DRAW)
    assert legal_text(state) == ["draw"]
    error = refusal(state, "feed fruit wine")
    assert error.code == "empty_table_must_draw"
    assert "must draw" in str(error)


def test_r5a_must_draw_still_allows_feeding_while_dishes_lie_on_the_table() -> None:
    state = rigged(
        "dragon", "cheese", "ham", "bread", "wine", "fruit",
        "cake", "cake", "cake", "chicken", "chicken", "chicken",
        players=3, rules=MUST_DRAW,
    )
    play_all(state, "take cheese", "take ham", "take bread")
    assert "feed fruit wine" in legal_text(state)


def _play_until(predicate: object, rules: Rules, seeds: range) -> State | None:
    assert callable(predicate)
    for seed in seeds:
        rng = random.Random(seed)
        state = State.new(3 + seed % 3, rng, rules=rules)
        while not state.is_over:
            if predicate(state):
                return state
            legal = state.legal_actions()
            # prefer takes so the table empties, but keep drawing sometimes
            takes = [a for a in legal if a.kind == "take"]
            options = takes if takes and rng.random() < 0.8 else list(legal)
            state.play(options[rng.randrange(len(options))])
    return None


def _table_and_deck_empty(state: State) -> bool:
    return (
        sum(state.table) == 0 and state.deck_size == 0 and not state.pending_dragon
        and not state.is_over
    )


def _deck_that_ends_on_an_empty_table() -> list[str]:
    """3 players. All five dragons come out early and are fed, the deck then runs out exactly
    at the deal of round 17, whose six cards are only cheese and ham."""
    prefix = [
        "cheese", "cheese", "ham", "ham", "bread", "bread",  # round 1
        "dragon", "dragon",  # drawn by seats 0 and 1, placed
        "dragon", "dragon", "dragon", "wine", "wine", "wine",  # round 2
        "cake", "cake", "cake", "cake", "chicken", "chicken",  # round 3
        "fruit", "fruit", "fruit",  # drawn in round 3
        "bread", "cheese", "ham", "wine", "fruit", "chicken",  # round 4
    ]
    last_round = ["cheese", "cheese", "cheese", "ham", "ham", "ham"]
    left = {dish: 15 for dish in DISHES}
    for card in prefix + last_round:
        if card != "dragon":
            left[card] -= 1
    middle: list[str] = []
    while any(left.values()):  # interleaved, so every round offers three different dishes
        for dish in sorted(DISHES, key=lambda d: -left[d]):
            if left[dish]:
                middle.append(dish)
                left[dish] -= 1
    return prefix + middle + last_round


def test_r5b_empty_table_and_deck_leave_only_the_pass_when_no_dragon_can_be_fed() -> None:
    state = State(_deck_that_ends_on_an_empty_table(), 3)
    play_all(
        state,
        "draw", "place_dragon", "draw", "place_dragon", "take bread",  # round 1
        "feed cheese cheese", "feed ham ham", "take wine",  # round 2: the king had 2+2
        "draw", "draw", "draw",  # round 3: all six cards go to the king
        "feed cake cake", "feed cake cake", "feed chicken chicken",  # round 4
        "draw", "draw", "draw",  # round 5
    )
    assert state.removed_dragons == 5 and state.table_dragons == 0
    while state.round < 17 or state.table[CHEESE]:
        takes = [a for a in state.legal_actions() if a.kind == "take"]
        state.play(takes[0])
    state.play("take ham")
    assert state.round == 17 and state.deck_size == 0 and sum(state.table) == 0
    assert legal_text(state) == ["pass"]
    assert refusal(state, "draw").code == "deck_empty"
    assert refusal(state, "feed cheese ham").code == "no_dragon_on_table"
    state.play("pass")
    assert state.is_over
    assert state.removed == 15  # five dragons and the ten dishes they ate
    assert state.removed_unseen == 0


def test_r5b_empty_table_and_deck_allow_feeding_a_table_dragon() -> None:
    state = _play_until(
        lambda s: _table_and_deck_empty(s) and s.table_dragons > 0 and sum(s.king) >= 2,
        Rules(), range(5000),
    )
    assert state is not None, "no game reached R5b with a dragon; widen the search"
    legal = state.legal_actions()
    assert legal and all(a.kind == "feed" for a in legal)
    assert refusal(state, "pass").code == "pass_not_allowed"


# --- R6: take a dish ------------------------------------------------------------------------


def test_r6_a_take_takes_every_card_of_the_dish_in_public() -> None:
    state = rigged("cheese", "cheese", "cheese", "ham", "bread", "wine", players=3)
    state.play("take cheese")
    assert state.takes(0)[CHEESE] == 3
    assert state.table[CHEESE] == 0
    spectator = state.view(None)
    assert spectator.hands[0].takes[CHEESE] == 3


def test_r6_a_dish_not_on_the_table_cannot_be_taken() -> None:
    state = rigged("cheese", "cheese", "cheese", "ham", "bread", "wine", players=3)
    state.play("take cheese")
    error = refusal(state, "take cheese")
    assert error.code == "dish_not_on_table"
    assert error.params == {"dish": "cheese"}
    assert str(error) == "cheese is not on the table (R6)"


# --- R7: draw -------------------------------------------------------------------------------


def test_r7_a_drawn_card_goes_to_the_hand_unseen_by_the_others() -> None:
    state = rigged("cheese", "ham", "bread", "wine", "fruit", "cake", "wine", players=3)
    state.play("draw")
    assert state.draws(0)[WINE] == 1
    assert state.deck_size == 103
    assert state.view(0).hands[0].draws is not None
    assert state.view(0).hands[0].draws[WINE] == 1  # type: ignore[index]
    for seat in (1, 2, None):
        hand = state.view(seat).hands[0]
        assert hand.draws is None
        assert hand.hidden == 1


# --- R7a / R7b: drawing a dragon ------------------------------------------------------------


def test_r7a_a_dragon_drawn_with_a_bare_king_must_be_placed() -> None:
    state = rigged("cheese", "ham", "bread", "wine", "fruit", "cake", "dragon", players=3)
    state.play("draw")
    assert state.pending_dragon and state.to_move == 0
    assert legal_text(state) == ["place_dragon"]
    assert refusal(state, "take cheese").code == "dragon_choice_pending"
    assert refusal(state, "draw").code == "dragon_choice_pending"
    assert refusal(state, "feed cheese ham").code == "king_too_few_dishes"
    state.play("place_dragon")
    assert state.table_dragons == 1
    assert state.to_move == 1
    assert sum(state.hand(0)) == 0  # a hand never holds a dragon
    assert state.deck_size == 103  # the dragon is not replaced by another card


def test_r7a_a_drawn_dragon_can_eat_two_of_the_kings_dishes_at_once() -> None:
    state = rigged(
        "cheese", "ham", "bread", "wine", "fruit", "cake",
        "chicken", "chicken", "chicken", "chicken", "chicken", "chicken", "dragon",
        players=3,
    )
    play_all(state, "take cheese", "take ham", "take bread")  # king: wine, fruit, cake
    assert state.to_move == 1
    state.play("draw")
    assert state.pending_dragon
    assert legal_text(state) == [
        "place_dragon", "feed fruit cake", "feed fruit wine", "feed cake wine",
    ]
    state.play("feed wine cake")
    assert state.king[FRUIT] == 1 and sum(state.king) == 1
    assert state.removed == 3 and state.removed_dragons == 1
    assert state.table_dragons == 0  # the drawn dragon was used, not placed
    assert state.to_move == 2


def test_r7a_place_dragon_is_only_for_a_dragon_just_drawn() -> None:
    state = rigged("dragon", "cheese", "ham", "bread", "wine", "fruit", players=3)
    error = refusal(state, "place_dragon")
    assert error.code == "no_drawn_dragon"


def test_r7b_a_drawn_dragon_is_seen_by_everyone() -> None:
    state = rigged("cheese", "ham", "bread", "wine", "fruit", "cake", "dragon", players=3)
    state.play("draw")
    spectator = state.view(None)
    assert spectator.pending_dragon
    state.play("place_dragon")
    spectator = state.view(None)
    assert spectator.history == (
        Turn(0, Action.parse("draw")), Turn(0, Action.parse("place_dragon"))
    )
    assert spectator.hands[0].hidden == 0
    assert spectator.table_dragons == 1


# --- R8: feed the dragon --------------------------------------------------------------------


def _king_with_fruit_and_wine_and_a_table_dragon(rules: Rules) -> State:
    state = rigged(
        "dragon", "cheese", "ham", "bread", "wine", "fruit",
        "cake", "cake", "cake", "chicken", "chicken", "chicken",
        players=3, rules=rules,
    )
    play_all(state, "take cheese", "take ham", "take bread")
    return state


def test_r8_feeding_removes_a_table_dragon_and_two_of_the_kings_dishes() -> None:
    state = _king_with_fruit_and_wine_and_a_table_dragon(Rules())
    assert "feed fruit wine" in legal_text(state)
    state.play(Action.feed("wine", "fruit"))
    assert state.table_dragons == 0
    assert state.king == (0,) * 7
    assert state.removed_dishes[FRUIT] == 1 and state.removed_dishes[WINE] == 1
    assert state.removed == 3


def test_r8_the_king_must_hold_both_dishes() -> None:
    state = _king_with_fruit_and_wine_and_a_table_dragon(Rules())
    error = refusal(state, "feed wine wine")
    assert error.code == "king_lacks_dish"
    assert str(error) == "the king has only 1 wine, the dragon needs 2 (R8)"
    error = refusal(state, "feed cheese wine")
    assert error.code == "king_lacks_dish" and error.params["dish"] == "cheese"


def test_r8_two_of_the_same_dish_may_be_fed() -> None:
    state = rigged(
        "dragon", "cheese", "ham", "ham", "ham", "bread", players=3,
    )
    play_all(state, "take cheese", "take bread", "draw")  # the king gets 3 ham
    assert state.king[HAM] == 3
    assert "feed ham ham" in legal_text(state)
    state.play("feed ham ham")
    assert state.king[HAM] == 1


def test_r8_feeding_needs_a_dragon_on_the_table() -> None:
    state = rigged(
        "cheese", "ham", "bread", "wine", "fruit", "cake",
        "chicken", "chicken", "chicken", "chicken", "chicken", "chicken",
        players=3,
    )
    play_all(state, "take cheese", "take ham", "take bread")
    error = refusal(state, "feed fruit wine")
    assert error.code == "no_dragon_on_table"


def test_r8_feeding_needs_two_dishes_with_the_king() -> None:
    state = rigged("dragon", "cheese", "ham", "bread", "wine", "fruit", players=3)
    error = refusal(state, "feed cheese ham")
    assert error.code == "king_too_few_dishes"
    assert str(error) == "the king has fewer than 2 dishes for the dragon (R8)"


def test_r8_variant_two_dragons_needed_on_the_table() -> None:
    state = _king_with_fruit_and_wine_and_a_table_dragon(TWO_DRAGONS)
    error = refusal(state, "feed fruit wine")
    assert error.code == "too_few_dragons_on_table"
    assert error.params == {"needed": 2, "present": 1}


def test_r8_variant_with_two_dragons_feeding_spends_only_one() -> None:
    state = rigged(
        "dragon", "dragon", "cheese", "ham", "wine", "fruit",
        "cake", "cake", "cake", "chicken", "chicken", "chicken",
        players=3, rules=TWO_DRAGONS,
    )
    play_all(state, "take cheese", "take ham", "draw")  # king: wine, fruit
    state.play("feed fruit wine")
    assert state.table_dragons == 1


# --- R9: serve the king ---------------------------------------------------------------------


def test_r9_what_is_left_on_the_table_goes_to_the_king_and_dragons_stay() -> None:
    state = rigged("dragon", "cheese", "cheese", "cheese", "ham", "bread", players=3)
    play_all(state, "take cheese", "draw", "draw")
    assert state.king[HAM] == 1 and state.king[0] == 1 and sum(state.king) == 2
    assert state.table_dragons == 1
    assert state.round == 2


def test_r9_an_empty_table_serves_the_king_nothing() -> None:
    state = rigged("cheese", "cheese", "ham", "ham", "bread", "bread", players=3)
    play_all(state, "take cheese", "take ham", "take bread")
    assert state.king == (0,) * 7


# --- R10: end of the game -------------------------------------------------------------------


def test_r10_nothing_can_be_played_after_the_end() -> None:
    state = State.new(3, 9)
    rng = random.Random(9)
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    assert state.legal_actions() == ()
    assert state.to_move is None
    error = refusal(state, "draw")
    assert error.code == "game_over"
    assert state.card_counts()["unaccounted"] == 0


# --- R11 / R12 are in test_scoring.py -------------------------------------------------------


def test_play_checks_the_seat_when_given() -> None:
    state = State.new(4, 1)
    before = state.clone()
    with pytest.raises(IllegalActionError) as caught:
        state.play(state.legal_actions()[0], seat=1)
    assert caught.value.code == "not_your_turn"
    assert state == before
