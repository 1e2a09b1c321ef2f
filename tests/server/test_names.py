"""Names that cannot impersonate (server/names.py): names that read alike share one key,
names that read as nothing are refused, and the key is stable."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kingsbreakfast.server.lobby import LobbyError, clean_name
from kingsbreakfast.server.names import KEY_CHARS, MAX_MARKS, look_alike_key, name_fault

ANN = ["Ann", "\u0391nn", "\u0410nn", "ann", "ANN", "\uff21\uff4e\uff4e", "Ann\u0301", "An\u0144"]


@pytest.mark.parametrize("name", ANN)
def test_names_that_read_as_ann_are_one_name(name: str) -> None:
    # Latin, Greek alpha, Cyrillic A, case, full width, an accent stacked on the last letter
    assert look_alike_key(name) == look_alike_key("Ann")


@pytest.mark.parametrize(("one", "other"), [
    ("Zed", "zED"), ("B0b", "Bob"), ("Ian", "lan"), ("paypal", "p\u0430ypal"),
    ("Nguy\u1ec5n", "Nguyen"), ("Stra\u00dfe", "STRASSE"),
])
def test_look_alikes_meet(one: str, other: str) -> None:
    assert look_alike_key(one) == look_alike_key(other)


@pytest.mark.parametrize(("one", "other"), [("Ann", "Anna"), ("Bob", "Rob"), ("Zoe", "Zed")])
def test_different_names_stay_apart(one: str, other: str) -> None:
    assert look_alike_key(one) != look_alike_key(other)


@pytest.mark.parametrize(("name", "reason"), [
    ("\u3164", "invisible"), ("\u3164\u3164\u3164", "invisible"), ("Ann\u2800", "invisible"),
    ("Ann\ufe0f", "invisible"), ("\u115f", "invisible"), ("Ann\u200d", "invisible"),
    ("\u0301", "lone_mark"), ("Ann \u0301", "lone_mark"), ("a" + "\u0301" * 4, "stacked_marks"),
    ("1234", "no_letter"), ("\u2615", "no_letter"), ("...", "no_letter"),
])
def test_names_that_read_as_nothing_or_as_something_else_are_refused(
    name: str, reason: str,
) -> None:
    assert name_fault(name) == reason
    with pytest.raises(LobbyError) as refused:
        clean_name(name)
    assert refused.value.code in ("unreadable_name", "bad_name")
    if refused.value.code == "unreadable_name":
        assert refused.value.params == {"reason": reason}


@pytest.mark.parametrize("name", [
    "Zo\u00eb", "Nguy\u1ec5n V\u0103n A", "M\u00fcller", "\u738b\u5c0f\u660e", "Ann \u2615",
    "\u00c9lodie", "Ti\u1ebfn", "R2D2",
])
def test_names_people_write_pass(name: str) -> None:
    assert name_fault(name) is None
    assert clean_name(name) == unicodedata.normalize("NFC", name)


def test_a_decomposed_name_is_stored_composed() -> None:
    assert clean_name("Zoe\u0308") == "Zo\u00eb"


@given(st.text(min_size=1, max_size=32))
def test_the_key_is_a_fixed_point_and_bounded(name: str) -> None:
    key = look_alike_key(name)
    assert len(key) <= KEY_CHARS
    if len(key) < KEY_CHARS:  # a key cut at the bound may read on past it
        assert look_alike_key(key) == key


@given(st.text(min_size=1, max_size=32))
def test_a_name_that_passes_has_a_visible_letter_and_no_lone_marks(name: str) -> None:
    try:
        text = clean_name(name)
    except LobbyError:
        return
    assert any(unicodedata.category(ch).startswith("L") for ch in text)
    decomposed = unicodedata.normalize("NFD", text)
    assert not unicodedata.combining(decomposed[0])
    run = 0
    for ch in decomposed:
        run = run + 1 if unicodedata.combining(ch) else 0
        assert run <= MAX_MARKS
