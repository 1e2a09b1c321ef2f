"""The Record object's own doors: from a state, to JSON text, and replaying a Record itself."""

from __future__ import annotations

import json

import pytest

from kingsbreakfast.engine import Record, RecordError, Rules, SetupError, State, replay


def test_a_record_from_a_state_needs_one_name_per_seat() -> None:
    state = State.new(4, 3)
    with pytest.raises(SetupError) as caught:
        Record.from_state(state, ["Ann", "Bob", "Cy"])
    assert (caught.value.code, caught.value.params, str(caught.value)) == (
        "bad_player_names", {}, "3 names for 4 seats"
    )


def test_to_json_keeps_names_as_written_and_indents_on_request() -> None:
    state = State.new(3, 3)
    state.play(state.legal_actions()[0])
    record = Record.from_state(state, ["Zoë", "Đức", "Ákos"], event="café")
    flat = record.to_json()
    assert "Zoë" in flat and "Đức" in flat and "\\u" not in flat
    assert "\n" not in flat
    indented = record.to_json(indent=2)
    assert indented.startswith('{\n  "format": "kingsbreakfast/1",\n  "players": [\n    "Zoë"')
    assert json.loads(indented) == json.loads(flat) == record.to_dict()
    assert json.loads(flat)["event"] == "café"


def test_replay_takes_a_record_object_too() -> None:
    state = State.new(5, 11, 2, Rules("must_draw", 2))
    for _ in range(12):
        state.play(state.legal_actions()[-1])
    record = Record.from_state(state, list("ABCDE"))
    assert replay(record) == state == record.replay()


def test_rules_with_keys_that_are_not_names_are_refused_as_unknown_switches() -> None:
    """A Python caller may hand over a dict JSON cannot express (keys of two types); the first
    unknown switch is still named, rather than sorting the keys failing with a TypeError that
    was once reported as ``bad_rules``."""
    record = Record(("a", "b", "c"), seed=1).to_dict()
    record["rules"] = {1: "x", "jokers": 2}
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert caught.value.code == "unknown_rule_switch"
    assert caught.value.params == {
        "switch": "jokers", "expected": "empty_table, dragon_min_on_table"
    }
    assert str(caught.value) == (
        "'rules': unknown rule switch 'jokers' (known: empty_table, dragon_min_on_table)"
    )
