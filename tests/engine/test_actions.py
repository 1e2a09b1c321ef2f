"""Action ids, the text notation and the record's action objects round-trip."""

from __future__ import annotations

import pickle

import pytest

from kingsbreakfast.engine import ALL_ACTIONS, NUM_ACTIONS, Action, ActionFormatError
from kingsbreakfast.engine.actions import FEED_PAIRS


def test_the_38_actions_have_stable_ids() -> None:
    assert NUM_ACTIONS == 38 == len(ALL_ACTIONS)
    assert [str(Action(i)) for i in range(7)] == [
        "take bread", "take cheese", "take ham", "take chicken", "take fruit", "take cake",
        "take wine",
    ]
    assert str(Action(7)) == "draw"
    assert str(Action(8)) == "place_dragon"
    assert str(Action(9)) == "feed bread bread"
    assert str(Action(10)) == "feed bread cheese"
    assert str(Action(36)) == "feed wine wine"
    assert str(Action(37)) == "pass"
    assert len(FEED_PAIRS) == 28


@pytest.mark.parametrize("action", ALL_ACTIONS)
def test_every_action_round_trips(action: Action) -> None:
    assert Action.parse(str(action)) is action
    assert Action.from_record(action.to_record()) is action
    assert Action(int(action)) is action
    assert eval(repr(action), {"Action": Action}) is action
    assert pickle.loads(pickle.dumps(action)) is action


def test_feed_dishes_are_unordered() -> None:
    assert Action.parse("feed wine ham") is Action.parse("feed ham+wine")
    assert Action.from_record({"type": "feed", "dishes": ["wine", "ham"]}).to_record() == {
        "type": "feed", "dishes": ["ham", "wine"],
    }
    assert Action.feed("ham", "ham").dishes == (2, 2)


def test_notation_tolerates_case_and_blanks() -> None:
    assert Action.parse("  TAKE   Cheese ") is Action.take("cheese")
    assert Action.parse("place") is Action.parse("place_dragon")


@pytest.mark.parametrize(
    "text", ["", "take", "take dragon", "take pizza", "feed ham", "feed ham wine cake", "eat"]
)
def test_bad_text_is_refused_with_a_reason(text: str) -> None:
    with pytest.raises(ActionFormatError) as caught:
        Action.parse(text)
    assert caught.value.code in {"empty_action", "unknown_action"}


@pytest.mark.parametrize(
    "obj",
    [
        [],
        {"type": "eat"},
        {"type": "take"},
        {"type": "take", "dish": "dragon"},
        {"type": "take", "dish": 3},
        {"type": "feed", "dishes": ["ham"]},
        {"type": "feed", "dishes": "ham wine"},
        {"type": "feed", "dishes": ["ham", None]},
    ],
)
def test_bad_record_actions_are_refused(obj: object) -> None:
    with pytest.raises(ActionFormatError):
        Action.from_record(obj)


@pytest.mark.parametrize("value", [-1, 38, 1000, "3"])
def test_bad_ids_are_refused(value: object) -> None:
    with pytest.raises(ActionFormatError):
        Action(value)  # type: ignore[arg-type]


def test_action_properties() -> None:
    feed = Action.parse("feed cheese wine")
    assert feed.kind == "feed" and feed.dishes == (1, 6) and feed.dish is None
    take = Action.parse("take ham")
    assert take.kind == "take" and take.dish == 2 and take.dishes is None
    assert Action.parse("draw").kind == "draw"
    assert Action.parse("pass").kind == "pass"
