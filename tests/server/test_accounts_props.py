"""Invariants of the account helpers, with hypothesis: chat lines, signed cookies, derived
seat tokens, the growing login lock and the rating plot."""

from __future__ import annotations

import math
import unicodedata
import xml.etree.ElementTree as ElementTree

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kingsbreakfast.server.account_store import Failures
from kingsbreakfast.server.accounts import (
    FREE_FAILURES,
    MAX_LOCK_SECONDS,
    NAME_FAILURES,
    after_failure,
    lock_seconds,
    name_key,
)
from kingsbreakfast.server.chat import MAX_CHARS, clean_line
from kingsbreakfast.server.limits import DAY, HOUR, Refused, Registrations
from kingsbreakfast.server.lobby import LobbyError
from kingsbreakfast.server.rating_plot import rating_svg
from kingsbreakfast.server.rating_rules import MODEL, rate
from kingsbreakfast.server.sessions import Keys

KEYS = Keys("k" * 64)


@given(st.text(max_size=400))
def test_a_chat_line_is_refused_or_clean(text: str) -> None:
    try:
        line = clean_line(text)
    except LobbyError as error:
        assert error.code == "bad_chat" and error.params["limit"] == MAX_CHARS
        return
    assert 1 <= len(line) <= MAX_CHARS and line == line.strip()
    assert not any(unicodedata.category(ch).startswith("C") for ch in line)
    assert "  " not in line


@given(st.text(alphabet=st.characters(blacklist_categories=["Cs"]), min_size=1, max_size=60))
def test_a_signed_value_comes_back_and_a_changed_one_does_not(value: str) -> None:
    value = value.replace(".", "")
    if not value:
        return
    signed = KEYS.sign(value)
    assert KEYS.unsign(signed) == value
    assert Keys("another key").unsign(signed) is None
    head, mac = signed.rsplit(".", 1)
    flipped = mac[:-1] + ("0" if mac[-1] != "0" else "1")
    assert KEYS.unsign(f"{head}.{flipped}") is None
    assert KEYS.unsign(value) is None


@given(st.integers(1, 10**6), st.integers(1, 10**6), st.text(min_size=1, max_size=12))
def test_derived_seat_tokens_differ_by_account_and_table(a: int, b: int, table: str) -> None:
    token = KEYS.account_seat_token(a, table)
    assert token == KEYS.account_seat_token(a, table) and len(token) <= 64
    if a != b:
        assert token != KEYS.account_seat_token(b, table)
    assert token != KEYS.account_seat_token(a, table + "x")


@given(st.integers(0, 200))
def test_the_login_lock_grows_and_is_bounded(failures: int) -> None:
    lock = lock_seconds(failures)
    assert 0.0 <= lock <= MAX_LOCK_SECONDS
    assert lock_seconds(failures + 1) >= lock
    assert (lock == 0.0) == (failures < FREE_FAILURES)


@given(st.lists(st.floats(0, 3000), max_size=60))
def test_the_counts_of_a_name_only_grow_within_their_window(gaps: list[float]) -> None:
    here, every, now = Failures(), Failures(), 1e6
    for gap in gaps:
        now += gap
        before = every
        here, every = after_failure(here, every, now)
        assert here.locked_until >= now and every.failures >= 1
        assert every.failures in (1, before.failures + 1)
        free = 1 if every.failures >= NAME_FAILURES else FREE_FAILURES
        assert (here.locked_until > now) == (here.failures >= free)


@pytest.mark.parametrize(
    ("one", "other"), [("Ann", "ANN"), ("Ａｎｎ", "ann"), ("Straße", "STRASSE")]
)
def test_names_differing_only_in_case_or_width_are_one_name(one: str, other: str) -> None:
    assert name_key(one) == name_key(other)


@given(st.lists(st.floats(-50, 50, allow_nan=False), max_size=40), st.text(max_size=50))
def test_the_rating_plot_is_well_formed_svg_whatever_the_title(
    ratings: list[float], title: str
) -> None:
    svg = rating_svg(ratings, title, "description")
    root = ElementTree.fromstring(svg)
    found = root.find("{http://www.w3.org/2000/svg}title")
    shown = "".join(ch for ch in title if not unicodedata.category(ch).startswith("C"))
    assert found is not None and (found.text or "") == shown
    assert len(root.findall("{http://www.w3.org/2000/svg}circle")) == len(ratings)


@given(
    st.lists(
        st.tuples(st.floats(10, 40), st.floats(1, 25 / 3), st.integers(1, 5)),
        min_size=2, max_size=5,
    )
)
def test_a_rating_update_never_loses_more_certainty_than_the_drift(
    players: list[tuple[float, float, int]],
) -> None:
    after = rate([(mu, sigma) for mu, sigma, _ in players], [p for _, _, p in players])
    for (_, sigma, _), (_, new_sigma) in zip(players, after, strict=True):
        assert new_sigma <= math.hypot(sigma, MODEL.tau) + 1e-9


@given(st.tuples(st.floats(10, 40), st.floats(1, 25 / 3)),
       st.tuples(st.floats(10, 40), st.floats(1, 25 / 3)))
def test_between_two_accounts_the_better_place_gains_and_the_other_loses(
    first: tuple[float, float], second: tuple[float, float],
) -> None:
    (winner_mu, _), (loser_mu, _) = rate([first, second], [1, 2])
    assert winner_mu > first[0] and loser_mu < second[0]
    (tied_a, _), (tied_b, _) = rate([first, first], [1, 1])
    assert tied_a == pytest.approx(tied_b)


@given(st.lists(st.floats(0, 4 * HOUR), min_size=1, max_size=80))
def test_registrations_never_pass_either_window(gaps: list[float]) -> None:
    now = [0.0]
    limit = Registrations(per_hour=3, per_day=10, clock=lambda: now[0])
    made: list[float] = []
    for gap in gaps:
        now[0] += gap
        try:
            limit.check("198.51.100.1")
        except Refused as refused:
            assert refused.code == "too_many_registrations"
            assert refused.params["retry_after"] >= 1
            hour = [t for t in made if t > now[0] - HOUR]
            assert len(hour) >= 3 or len([t for t in made if t > now[0] - DAY]) >= 10
            continue
        limit.add("198.51.100.1")
        made.append(now[0])
        assert len([t for t in made if t > now[0] - HOUR]) <= 3
        assert len([t for t in made if t > now[0] - DAY]) <= 10
    limit.check("203.0.113.5")  # another address is not held back by this one
