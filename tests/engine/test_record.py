"""The kingsbreakfast/1 record format, to the letter of the spec."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from kingsbreakfast.engine import Record, RecordError, Rules, State, outcome, read_record, replay

GOLDEN = Path(__file__).parent.parent / "golden"


def golden(name: str) -> dict[str, Any]:
    return json.loads((GOLDEN / name).read_text())  # type: ignore[no-any-return]


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.json")), ids=lambda p: p.name)
def test_golden_records_replay_to_their_expected_outcome(path: Path) -> None:
    case = json.loads(path.read_text())
    expect = case["expect"]
    if "error" in expect:
        with pytest.raises(RecordError) as caught:
            replay(case["record"])
        assert caught.value.action_index == expect["action_index"]
        assert caught.value.message
    else:
        assert outcome(replay(case["record"])) == expect


def test_the_illegal_take_is_explained_in_words() -> None:
    with pytest.raises(RecordError) as caught:
        replay(golden("05-illegal-take.json")["record"])
    assert "ham is not on the table (R6)" in str(caught.value)


def base() -> dict[str, Any]:
    return copy.deepcopy(golden("01-full-game-4p.json")["record"])


def broken(**changes: Any) -> dict[str, Any]:
    record = base()
    for key, value in changes.items():
        if value is KeyError:
            del record[key]
        else:
            record[key] = value
    return record


BAD_HEADERS = {
    "not an object": [],
    "format missing": broken(format=KeyError),
    "wrong format": broken(format="kingsbreakfast/2"),
    "players missing": broken(players=KeyError),
    "two players": broken(players=["a", "b"]),
    "six players": broken(players=list("abcdef")),
    "player not a name": broken(players=["a", "b", 3, "d"]),
    "first cook out of range": broken(first_cook=4),
    "first cook boolean": broken(first_cook=True),
    "first cook float": broken(first_cook=1.0),
    "unknown switch": broken(rules={"jokers": 1}),
    "unknown empty_table value": broken(rules={"empty_table": "skip"}),
    "dragon minimum 3": broken(rules={"dragon_min_on_table": 3}),
    "dragon minimum boolean": broken(rules={"dragon_min_on_table": True}),
    "dragon minimum float": broken(rules={"dragon_min_on_table": 2.0}),
    "rules not an object": broken(rules=[]),
    "deck and seed": broken(seed=3),
    "neither deck nor seed": broken(deck=KeyError),
    "deck too short": broken(deck=base()["deck"][:-1]),
    "deck too long": broken(deck=[*base()["deck"], "ham"]),
    "deck with an unknown card": broken(deck=["pizza", *base()["deck"][1:]]),
    "deck with 16 ham": broken(deck=["ham", *base()["deck"][1:]]),
    "deck not a list": broken(deck="ham"),
    "actions missing": broken(actions=KeyError),
    "actions not a list": broken(actions={}),
}


@pytest.mark.parametrize("record", BAD_HEADERS.values(), ids=BAD_HEADERS.keys())
def test_faults_outside_the_actions_have_no_action_index(record: Any) -> None:
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert caught.value.action_index is None
    assert str(caught.value)


@pytest.mark.parametrize("seed", [1.5, True, "7", None])
def test_a_seed_must_be_an_integer(seed: Any) -> None:
    record = broken(deck=KeyError, seed=seed)
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert caught.value.code == "bad_seed"


def with_action(index: int, action: Any) -> dict[str, Any]:
    record = base()
    record["actions"][index] = action
    return record


BAD_ACTIONS = {
    "unknown type": (with_action(3, {"type": "eat"}), 3),
    "take without dish": (with_action(2, {"type": "take"}), 2),
    "take of a dragon": (with_action(2, {"type": "take", "dish": "dragon"}), 2),
    "feed with one dish": (with_action(4, {"type": "feed", "dishes": ["ham"]}), 4),
    "action not an object": (with_action(0, "draw"), 0),
    "wrong player": (with_action(1, {"type": "take", "dish": "ham", "player": 2}), 1),
    "player as boolean": (with_action(1, {"type": "take", "dish": "ham", "player": True}), 1),
    "player as float": (with_action(1, {"type": "take", "dish": "ham", "player": 1.0}), 1),
    "place without a drawn dragon": (with_action(0, {"type": "place_dragon"}), 0),
    "pass when something is legal": (with_action(0, {"type": "pass"}), 0),
}


@pytest.mark.parametrize(
    ("record", "index"), BAD_ACTIONS.values(), ids=BAD_ACTIONS.keys()
)
def test_faults_in_actions_name_the_first_offending_action(record: Any, index: int) -> None:
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert caught.value.action_index == index
    assert f"action {index}" in str(caught.value)


def test_the_first_offending_action_wins_over_a_later_malformed_one() -> None:
    record = base()
    record["actions"][1] = {"type": "take", "dish": "cheese"}  # cheese is not on the table
    record["actions"][3] = {"type": "eat"}
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert caught.value.action_index == 1


def test_an_action_after_the_end_is_invalid() -> None:
    record = base()
    record["actions"].append({"type": "draw"})
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert caught.value.action_index == len(record["actions"]) - 1
    assert caught.value.code == "action_after_end"


def test_the_right_player_key_and_unknown_keys_are_accepted() -> None:
    record = base()
    record["event"] = "club night"
    state = State(record["deck"], 4)
    for raw in record["actions"]:
        raw["player"] = state.to_move
        raw["comment"] = "ignored"
        state.play(state.legal_actions()[0] if False else _action(raw))
    assert outcome(replay(record)) == golden("01-full-game-4p.json")["expect"]
    assert read_record(record).tags == {"event": "club night"}


def _action(raw: dict[str, Any]) -> Any:
    from kingsbreakfast.engine import Action

    return Action.from_record(raw)


def test_defaults_for_first_cook_and_rules() -> None:
    record = base()
    del record["first_cook"]
    record["rules"] = {"empty_table": "draw_or_feed"}
    assert read_record(record).first_cook == 0
    assert read_record(record).rules == Rules()


def test_a_seed_record_replays_the_same_every_time() -> None:
    record = {"format": "kingsbreakfast/1", "players": ["a", "b", "c"], "seed": 12345,
              "actions": []}
    start = replay(record)
    assert start.dish_totals() == [15] * 7 + [5]
    rng = random.Random(0)
    while not start.is_over:
        legal = start.legal_actions()
        start.play(legal[rng.randrange(len(legal))])
    record["actions"] = [action.to_record() for action in start.actions]
    assert replay(record) == replay(copy.deepcopy(record))
    assert outcome(replay(record)) == outcome(start)
    assert Record(("a", "b", "c"), tuple(start.actions), seed=12345).to_dict()["seed"] == 12345


def test_bad_json_text_is_a_record_error() -> None:
    with pytest.raises(RecordError) as caught:
        read_record("{not json")
    assert caught.value.code == "bad_json" and caught.value.action_index is None


def test_writing_and_reading_back_gives_the_same_game() -> None:
    rng = random.Random(4)
    state = State.new(5, rng, first_cook=3, rules=Rules("must_draw", 2))
    for _ in range(40):
        legal = state.legal_actions()
        state.play(legal[rng.randrange(len(legal))])
    record = Record.from_state(state, ["A", "B", "C", "D", "E"], date="2026-11-30")
    text = record.to_json(indent=1)
    again = read_record(text)
    assert again == record
    assert again.replay() == state
    data = json.loads(text)
    assert data["rules"] == {"empty_table": "must_draw", "dragon_min_on_table": 2}
    assert data["date"] == "2026-11-30" and data["first_cook"] == 3
    assert "seed" not in data


def test_a_tag_cannot_override_the_format() -> None:
    state = State.new(3, 1)
    record = Record.from_state(state, ["a", "b", "c"], seed=4, format="other")
    data = record.to_dict()
    assert data["format"] == "kingsbreakfast/1" and "seed" not in data


def test_a_finished_outcome_shows_the_scorings_summary_and_nothing_more() -> None:
    state = replay(golden("02-full-game-5p.json")["record"])
    summary = state.score().to_dict()
    out = outcome(state)
    assert out.get("scores") == summary["scores"]
    assert out.get("discarded") == summary["discarded"]
    assert out.get("winners") == summary["winners"]
    assert "players" not in out and "tie_break" not in out  # the breakdown is not in the format
