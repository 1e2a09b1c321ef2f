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
        assert caught.value.code == expect["code"]
        assert caught.value.params == expect["params"]
        assert caught.value.message == expect["message"]
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


# name: (record, code, params). Every refusal pins its code and params, so a case refused for
# the wrong reason (say, an unknown switch failing by a TypeError) is caught.
BAD_HEADERS: dict[str, tuple[Any, str, dict[str, Any]]] = {
    "not an object": ([], "record_not_object", {}),
    "format missing": (broken(format=KeyError), "bad_format", {"value": "None"}),
    "wrong format": (
        broken(format="kingsbreakfast/2"), "bad_format", {"value": "'kingsbreakfast/2'"}
    ),
    "players missing": (broken(players=KeyError), "bad_players", {}),
    "two players": (broken(players=["a", "b"]), "bad_player_count", {"players": 2}),
    "six players": (broken(players=list("abcdef")), "bad_player_count", {"players": 6}),
    "player not a name": (broken(players=["a", "b", 3, "d"]), "bad_players", {}),
    "first cook out of range": (
        broken(first_cook=4), "bad_first_cook", {"value": "4", "last": 3}
    ),
    "first cook negative": (
        broken(first_cook=-1), "bad_first_cook", {"value": "-1", "last": 3}
    ),
    "first cook boolean": (
        broken(first_cook=True), "bad_first_cook", {"value": "True", "last": 3}
    ),
    "first cook float": (
        broken(first_cook=1.0), "bad_first_cook", {"value": "1.0", "last": 3}
    ),
    "unknown switch": (
        broken(rules={"jokers": 1}),
        "unknown_rule_switch",
        {"switch": "jokers", "expected": "empty_table, dragon_min_on_table"},
    ),
    "unknown empty_table value": (
        broken(rules={"empty_table": "skip"}),
        "unknown_rule_value",
        {"switch": "empty_table", "value": "'skip'", "expected": "draw_or_feed, must_draw"},
    ),
    "dragon minimum 3": (
        broken(rules={"dragon_min_on_table": 3}),
        "unknown_rule_value",
        {"switch": "dragon_min_on_table", "value": "3", "expected": "1, 2"},
    ),
    "dragon minimum boolean": (
        broken(rules={"dragon_min_on_table": True}),
        "unknown_rule_value",
        {"switch": "dragon_min_on_table", "value": "True", "expected": "1, 2"},
    ),
    "dragon minimum float": (
        broken(rules={"dragon_min_on_table": 2.0}),
        "unknown_rule_value",
        {"switch": "dragon_min_on_table", "value": "2.0", "expected": "1, 2"},
    ),
    "rules not an object": (broken(rules=[]), "rules_not_object", {}),
    "deck and seed": (broken(seed=3), "deck_or_seed", {}),
    "neither deck nor seed": (broken(deck=KeyError), "deck_or_seed", {}),
    "deck too short": (broken(deck=base()["deck"][:-1]), "bad_deck", {"size": 109}),
    "deck too long": (broken(deck=[*base()["deck"], "ham"]), "bad_deck", {"size": 111}),
    "deck with an unknown card": (
        broken(deck=["pizza", *base()["deck"][1:]]),
        "unknown_card",
        {"position": 0, "card": "pizza"},
    ),
    "deck with 16 ham": (broken(deck=["ham", *base()["deck"][1:]]), "bad_deck", {"size": 110}),
    "deck not a list": (broken(deck="ham"), "bad_deck", {}),
    "actions missing": (broken(actions=KeyError), "bad_actions", {}),
    "actions not a list": (broken(actions={}), "bad_actions", {}),
}


@pytest.mark.parametrize(
    ("record", "code", "params"), BAD_HEADERS.values(), ids=BAD_HEADERS.keys()
)
def test_faults_outside_the_actions_have_no_action_index(
    record: Any, code: str, params: dict[str, Any]
) -> None:
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert caught.value.action_index is None
    assert (caught.value.code, caught.value.params) == (code, params)
    assert str(caught.value)


# A representative table of the exact English sentences (the catalogues translate by code and
# params; these are what the CLI and the record format's readers show in English).
HEADER_MESSAGES = {
    "not an object": "a record must be a JSON object",
    "players missing": "'players' must be a list of names",
    "unknown empty_table value": (
        "'rules': unknown value 'skip' for empty_table (expected draw_or_feed or must_draw)"
    ),
    "wrong format": "'format' must be \"kingsbreakfast/1\", not 'kingsbreakfast/2'",
    "two players": (
        "King's Breakfast is played by 3 to 5 players, and this record has 2 (R2)"
    ),
    "first cook out of range": "'first_cook' must be a seat number from 0 to 3, not 4",
    "unknown switch": (
        "'rules': unknown rule switch 'jokers' (known: empty_table, dragon_min_on_table)"
    ),
    "dragon minimum 3": (
        "'rules': unknown value 3 for dragon_min_on_table (expected 1 or 2)"
    ),
    "rules not an object": "'rules': 'rules' must be a JSON object",
    "deck and seed": "a record must give exactly one of 'deck' and 'seed'",
    "deck too short": (
        "'deck': the deck must hold 110 cards, 15 of each dish and 5 dragons (R1); this one "
        "holds 109: 15 bread, 15 cheese, 15 ham, 15 chicken, 15 fruit, 15 cake, 15 wine, "
        "4 dragon"
    ),
    "deck with an unknown card": (
        "'deck': card 0 of the deck, 'pizza', is not a card "
        "(cards: bread, cheese, ham, chicken, fruit, cake, wine, dragon)"
    ),
    "deck not a list": "'deck' must be a list of card ids",
    "actions not a list": "'actions' must be a list (it may be empty)",
}


@pytest.mark.parametrize("name", HEADER_MESSAGES)
def test_header_faults_say_exactly_what_is_wrong(name: str) -> None:
    with pytest.raises(RecordError) as caught:
        replay(BAD_HEADERS[name][0])
    assert str(caught.value) == HEADER_MESSAGES[name]
    assert caught.value.message == HEADER_MESSAGES[name]


@pytest.mark.parametrize("seed", [1.5, True, "7", None])
def test_a_seed_must_be_an_integer(seed: Any) -> None:
    record = broken(deck=KeyError, seed=seed)
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert caught.value.code == "bad_seed"
    assert caught.value.params == {"value": repr(seed)}
    assert caught.value.action_index is None
    assert str(caught.value) == f"'seed' must be an integer, not {seed!r}"


def with_action(index: int, action: Any) -> dict[str, Any]:
    record = base()
    record["actions"][index] = action
    return record


# name: (record, index, code, params, exact English message)
BAD_ACTIONS: dict[str, tuple[Any, int, str, dict[str, Any], str]] = {
    "unknown type": (
        with_action(3, {"type": "eat"}), 3, "unknown_action_type", {"type": "'eat'"},
        "action 3: unknown action type 'eat' (expected one of take, draw, place_dragon, "
        "feed, pass)",
    ),
    "take without dish": (
        with_action(2, {"type": "take"}), 2, "unknown_dish", {"dish": "None"},
        "action 2: 'dish' must be a dish id such as \"cheese\", not None",
    ),
    "take of a dragon": (
        with_action(2, {"type": "take", "dish": "dragon"}), 2, "unknown_dish",
        {"dish": "dragon"},
        "action 2: 'dragon' is not a dish (dishes: bread, cheese, ham, chicken, fruit, cake, "
        "wine)",
    ),
    "feed with one dish": (
        with_action(4, {"type": "feed", "dishes": ["ham"]}), 4, "feed_needs_two_dishes", {},
        "action 4: a feed must name exactly 2 dishes in 'dishes'",
    ),
    "action not an object": (
        with_action(0, "draw"), 0, "action_not_object", {},
        "action 0: an action must be a JSON object",
    ),
    "wrong player": (
        with_action(1, {"type": "take", "dish": "ham", "player": 2}), 1, "wrong_player",
        {"action": "take ham", "seat": "2", "to_move": 1},
        "action 1 (take ham): it is seat 1's turn, but the action names player 2",
    ),
    "player as boolean": (
        with_action(1, {"type": "take", "dish": "ham", "player": True}), 1, "wrong_player",
        {"action": "take ham", "seat": "True", "to_move": 1},
        "action 1 (take ham): it is seat 1's turn, but the action names player True",
    ),
    "player as float": (
        with_action(1, {"type": "take", "dish": "ham", "player": 1.0}), 1, "wrong_player",
        {"action": "take ham", "seat": "1.0", "to_move": 1},
        "action 1 (take ham): it is seat 1's turn, but the action names player 1.0",
    ),
    "place without a drawn dragon": (
        with_action(0, {"type": "place_dragon"}), 0, "no_drawn_dragon",
        {"action": "place_dragon"},
        "action 0 (place_dragon): there is no drawn dragon to place: only a dragon you just "
        "drew can be placed (R7a)",
    ),
    "pass when something is legal": (
        with_action(0, {"type": "pass"}), 0, "pass_not_allowed", {"action": "pass"},
        "action 0 (pass): you may pass only when no other action is possible (R5b)",
    ),
}


@pytest.mark.parametrize(
    ("record", "index", "code", "params", "message"),
    BAD_ACTIONS.values(),
    ids=BAD_ACTIONS.keys(),
)
def test_faults_in_actions_name_the_first_offending_action(
    record: Any, index: int, code: str, params: dict[str, Any], message: str
) -> None:
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert caught.value.action_index == index
    assert (caught.value.code, caught.value.params) == (code, params)
    assert str(caught.value) == message


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
    index = len(record["actions"]) - 1
    assert caught.value.action_index == index
    assert (caught.value.code, caught.value.params) == ("action_after_end", {"action": "draw"})
    assert str(caught.value) == f"action {index} (draw): the game is already over (R10)"


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
    detail = "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"
    assert caught.value.params == {"detail": detail}
    assert str(caught.value) == f"the record is not valid JSON: {detail}"


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
