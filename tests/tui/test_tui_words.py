"""The terminal game's words: whole sentences with their plurals and negations, bot levels
and the hint's headings in the player's language, and the rules texts' R7a."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from kingsbreakfast.engine import DISHES
from kingsbreakfast.i18n import LANGUAGES, language
from kingsbreakfast.i18n.rules import rules_text
from kingsbreakfast.tui import strings
from kingsbreakfast.tui.session import Seat

TRANSLATED = [code for code in LANGUAGES if code != "en"]


def test_counts_agree_with_their_nouns() -> None:
    with language("en"):
        assert strings.provisional(1, 0) == "If the game ended now: 1 point"
        assert strings.provisional(3, 0) == "If the game ended now: 3 points"
        assert strings.provisional(1, 2) == "If the game ended now: 1 point (discarded: 2)"
        assert strings.provisional_short(1, 0) == "now 1 point"
    with language("fr"):
        assert strings.drawn_extra(1) == "1 piochée"
        assert strings.drawn_extra(0) == "0 piochée"
        assert strings.drawn_extra(6) == "6 piochées"
        assert strings.hidden_extra(1) == "+1 cachée"


def test_two_of_one_dish_are_counted_not_named_twice() -> None:
    fruit = DISHES.index("fruit")
    with language("en"):
        assert strings.feed_what(fruit, fruit) == "feed 2 fruit"
        assert strings.feed_what(0, fruit) == "feed bread and fruit"


@pytest.mark.parametrize(
    ("code", "nothing_at_all", "took_nothing"),
    [
        ("en", "Bob: took nothing; drew nothing.", "Bob: took nothing; 2 hidden cards."),
        ("de", "Bob: nichts genommen, nichts gezogen.",
         "Bob: nichts genommen; 2 verdeckte Karten."),
        ("hu", "Bob: nem vett el semmit, nem húzott semmit.",
         "Bob: nem vett el semmit; 2 rejtett lap."),
        ("fr", "Bob : n’a rien pris, n’a rien pioché.", "Bob : n’a rien pris ; 2 cartes cachées."),
        ("vi", "Bob: chưa lấy gì, chưa rút gì.", "Bob: chưa lấy gì; 2 lá úp."),
    ],
)
def test_a_hand_that_took_nothing_is_a_whole_sentence(
    code: str, nothing_at_all: str, took_nothing: str
) -> None:
    with language(code):
        assert strings.hand_sentence("Bob", None, None, None) == nothing_at_all
        assert strings.hand_sentence("Bob", None, None, 2) == took_nothing


@pytest.mark.parametrize("code", TRANSLATED)
def test_bot_levels_and_hint_headings_are_translated(code: str) -> None:
    with language(code):
        label = Seat("Bert", "medium").label
        header = " ".join(strings.hint_titles())
    assert label != "Bert (medium)" and label.startswith("Bert (")
    for english in ("move", "vs best", "win chance"):
        assert english not in header, f"{code}: {header!r}"
    # a bot given with options is shown as typed: it names a setting, not a level
    with language(code):
        assert Seat("Bert", "ismcts:simulations=50").label == "Bert (ismcts:simulations=50)"


@pytest.mark.parametrize("width", [40, 54, 76])
def test_the_hint_columns_fit_in_every_language(width: int) -> None:
    """Headers apart, every line within the width, the figures under their headers."""
    from kingsbreakfast.bots.hint import ActionEstimate
    from kingsbreakfast.engine import Action
    from kingsbreakfast.tui.hint_table import hint_columns, hint_lines

    ranking = [ActionEstimate(Action.feed(2, 5), 12.5, 0.25, 0.125),
               ActionEstimate(Action(0), 40.5, 0.338, 0.0)]
    for code in LANGUAGES:
        with language(code):
            columns = hint_columns(width)
            lines = hint_lines(ranking, width)
        assert all(cell_len(line) <= width for line in lines), (code, lines)
        for index in range(1, len(columns.headers)):
            start = sum(columns.widths[:index])
            assert lines[0][start] == " ", (code, lines[0])  # a gap before every header
        assert lines[1].rstrip().endswith("-12.5%") and lines[-1].rstrip().endswith("—")


@pytest.mark.parametrize(
    ("code", "needs_two", "no_replacement"),
    [
        ("en", "only while\n     the king has at least 2 cards", "You\n     do not draw another"),
        ("de", "solange der König mindestens 2", "keine Ersatzkarte"),
        ("hu", "legalább 2 lapja van", "nem húz újabb lapot"),
        ("fr", "si le roi a au moins 2 cartes", "On ne pioche pas d'autre"),
        ("vi", "có ít nhất 2 lá", "không rút lá khác"),
    ],
)
def test_the_rules_texts_give_both_conditions_of_a_drawn_dragon(
    code: str, needs_two: str, no_replacement: str
) -> None:
    text = rules_text(code)
    assert needs_two in text
    assert no_replacement in text


def test_vietnamese_says_neither_where_it_means_neither() -> None:
    assert "không thể làm cả hai" not in rules_text("vi")


@pytest.mark.parametrize(
    ("code", "sentence"),
    [
        ("en", "The king is served nothing this round."),
        ("fr", "Le roi ne reçoit rien ce tour-ci."),
        ("hu", "A király ebben a fordulóban nem kap semmit."),
    ],
)
def test_a_king_served_nothing_is_told_as_a_negation(code: str, sentence: str) -> None:
    from kingsbreakfast.engine import Action, State
    from kingsbreakfast.narrate import narrate
    from rigging import rigged_deck

    # three players take the three dishes on the table: nothing is left for the king (R9)
    state = State(rigged_deck("bread", "bread", "cheese", "ham", "ham", "ham"), 3, 0)
    names = ["Ann", "Bob", "Cid"]
    told: list[str] = []
    with language(code):
        for dish in ("bread", "cheese", "ham"):
            before = state.view(None)
            action = Action.parse(f"take {dish}")
            state.play(action)
            told += narrate(before, action, state.view(None), names)
    assert sentence in told
