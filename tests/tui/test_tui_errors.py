"""What the terminal game refuses (seats, bots, languages) is the project's one error type:
a stable code and parameters for any language, the English sentence as its text, and the
shown message falls back to that sentence where no translation exists yet."""

from __future__ import annotations

import random

import pytest

from kingsbreakfast.bots import UnknownBotError
from kingsbreakfast.bots.hint import ActionEstimate
from kingsbreakfast.engine import KingsBreakfastError, State, shuffled_deck
from kingsbreakfast.i18n import UnknownLanguageError, check_language, language
from kingsbreakfast.i18n.errors import explain
from kingsbreakfast.tui.opponents import make_opponent, rank_moves
from kingsbreakfast.tui.session import SeatingError, plan_seats


def test_bad_seating_has_a_code_and_is_explained_in_english_r2() -> None:
    with pytest.raises(SeatingError) as refused:
        plan_seats(6, [], 0, 1)
    error = refused.value
    assert isinstance(error, KingsBreakfastError) and isinstance(error, ValueError)
    assert error.code == "bad_player_count" and error.params == {"players": 6}
    assert "3 to 5 players" in error.message and explain(error) == error.message


@pytest.mark.parametrize(
    ("args", "code", "german"),
    [
        ((4, [], 4, 1), "bad_seat", "--seat muss zwischen 0 und 3 liegen, nicht 4"),
        ((4, [], 0, 5), "bad_hotseat", "--hotseat muss zwischen 0 und 4 Menschen liegen, nicht 5"),
        ((4, ["easy", "hard"], 0, 1), "bot_count", "2 Bots für 3 Bot-Plätze genannt"),
        ((4, [], 0, 1, ["Ann", "Bob"]), "too_many_names", "2 Namen für 1 menschliche Person"),
    ],
)
def test_each_seating_refusal_is_told_in_the_players_language(
    args: tuple,  # type: ignore[type-arg]
    code: str,
    german: str,
) -> None:
    with pytest.raises(SeatingError) as refused:
        plan_seats(*args)
    error = refused.value
    assert error.code == code
    with language("de"):
        assert german in explain(error)
    assert german not in error.message  # the English sentence stays the error's text


def test_an_unknown_bot_names_itself_and_the_choices() -> None:
    with pytest.raises(UnknownBotError) as refused:
        make_opponent("grandmaster")
    error = refused.value
    assert isinstance(error, KingsBreakfastError)
    assert error.code == "unknown_bot" and error.params["name"] == "grandmaster"
    assert "medium" in error.params["choices"] and "grandmaster" in str(error)


def test_an_unknown_language_keeps_the_asked_code_apart_from_the_error_code() -> None:
    with pytest.raises(UnknownLanguageError) as refused:
        check_language("xx")
    error = refused.value
    assert isinstance(error, KingsBreakfastError)
    assert error.code == "unknown_language" and error.params["language"] == "xx"
    assert "de" in error.params["choices"]


def test_the_hint_screen_shows_the_bots_own_estimates() -> None:
    state = State(shuffled_deck(random.Random(3)), 3)
    seat = state.to_move
    assert seat is not None
    view = state.view(seat)
    lines = rank_moves(view, random.Random(0), seconds=0.05)
    assert lines and all(isinstance(line, ActionEstimate) for line in lines)
    assert {line.action for line in lines} == set(view.legal_actions())
