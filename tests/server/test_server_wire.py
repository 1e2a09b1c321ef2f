"""The shape check: every client frame is parsed strictly, and any text at all either parses
or is refused with a ProtocolError naming what is wrong (never another exception)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kingsbreakfast.engine import Action
from kingsbreakfast.server.wire import (
    MAX_FRAME_BYTES,
    Act,
    Hello,
    Ping,
    ProtocolError,
    Sync,
    encode,
    encode_slow,
    parse_message,
)


def test_the_four_messages_parse() -> None:
    assert parse_message('{"type":"hello","token":null}') == Hello(None)
    assert parse_message('{"type":"hello","token":"abc"}') == Hello("abc")
    assert parse_message('{"type":"sync"}') == Sync()
    assert parse_message('{"type":"ping"}') == Ping()
    message = parse_message(
        '{"type":"act","version":3,"action":{"type":"feed","dishes":["wine","ham"]}}'
    )
    assert message == Act(3, Action.parse("feed ham wine"))


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("not json", "bad_json"),
        ("[1, 2]", "not_object"),
        ('{"type": "dance"}', "unknown_type"),
        ('{"type": "sync", "cards": 1}', "unknown_field"),
        ('{"type": "hello", "token": 5}', "bad_token_field"),
        ('{"type": "hello", "token": ""}', "bad_token_field"),
        ('{"type": "act", "version": "3", "action": {"type": "draw"}}', "bad_version_field"),
        ('{"type": "act", "version": true, "action": {"type": "draw"}}', "bad_version_field"),
        ('{"type": "act", "version": 1e308, "action": {"type": "draw"}}', "bad_version_field"),
        ('{"type": "act", "version": 99999999999999999999, "action": {}}', "bad_version_field"),
        ('{"type": "act", "version": 1, "action": {"type": "take", "dish": "gold"}}', "bad_action"),
        ('{"type": "act", "version": 1, "action": "draw"}', "bad_action"),
        ("x" * (MAX_FRAME_BYTES + 1), "frame_too_big"),
        ("[" * 1500 + "]" * 1500, "frame_too_big"),
        ("[" * 1000 + "]" * 1000, "bad_json"),
        (b"\xff\xfe", "bad_json"),
        ('{"type": "ping"} {"type": "ping"}', "bad_json"),
        ("{}", "unknown_type"),
        ('{"type": 5}', "unknown_type"),
        ('"hello"', "not_object"),
        ('{"type": "hello", "token": "' + "t" * 65 + '"}', "bad_token_field"),
        ('{"type": "act", "action": {"type": "draw"}}', "bad_version_field"),
        ('{"type": "act", "version": -1, "action": {"type": "draw"}}', "bad_version_field"),
        ('{"type": "act", "version": 3.0, "action": {"type": "draw"}}', "bad_version_field"),
        ('{"type": "act", "version": 1}', "bad_action"),
        ('{"type": "act", "version": "x", "action": 1, "cards": []}', "unknown_field"),
    ],
)
def test_bad_frames_are_refused_by_name(text: str, code: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        parse_message(text)
    assert refused.value.code == code
    assert refused.value.message


def test_a_refusal_names_the_first_fault_a_reader_meets() -> None:
    with pytest.raises(ProtocolError) as refused:
        parse_message('{"type": "act", "zeta": 1, "alpha": 2, "version": "x", "action": 1}')
    assert (refused.value.code, refused.value.params) == ("unknown_field", {"field": "alpha"})
    with pytest.raises(ProtocolError) as refused:
        parse_message('{"type": "act", "version": "x", "action": 1}')
    assert refused.value.code == "bad_version_field"
    with pytest.raises(ProtocolError) as refused:
        parse_message('{"type": "act", "version": 2, "action": {"type": "take", "dish": "gold"}}')
    assert refused.value.code == "bad_action"
    assert "gold" in refused.value.message  # the engine's own reason (R1 names the dishes)
    with pytest.raises(ProtocolError) as refused:
        parse_message('{"type": "dance"}')
    assert refused.value.params == {"expected": ["act", "hello", "ping", "seat_answer", "sync"]}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12,
)


@settings(max_examples=300)
@given(st.one_of(
    st.text(max_size=300),
    st.binary(max_size=300),
    json_values.map(json.dumps),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["hello", "act", "sync", "ping"])},
        optional={"version": json_values, "action": json_values, "token": json_values},
    ).map(json.dumps),
))
def test_any_frame_parses_or_is_refused_cleanly(text: str | bytes) -> None:
    try:
        message = parse_message(text)
    except ProtocolError as error:
        assert error.code and error.message
    else:
        assert isinstance(message, Hello | Act | Sync | Ping)


def test_frames_are_written_canonically() -> None:
    assert encode({"b": 1, "a": [1, 2], "é": "ü"}) == '{"a":[1,2],"b":1,"é":"ü"}'


@given(json_values.filter(lambda v: not isinstance(v, float)).map(lambda v: {"x": v, "y": [v]}))
def test_the_fast_encoder_writes_what_the_standard_library_writes(frame: dict[str, Any]) -> None:
    def no_floats(value: Any) -> bool:
        if isinstance(value, float):
            return False
        if isinstance(value, list):
            return all(no_floats(v) for v in value)
        if isinstance(value, dict):
            return all(no_floats(v) for v in value.values())
        return not isinstance(value, int) or abs(value) < 2**63
    if no_floats(frame):  # frames hold no floats and no huge integers
        assert encode(frame) == encode_slow(frame)
