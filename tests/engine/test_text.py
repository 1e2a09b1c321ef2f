"""A position as one line of text (engine/text.py): the full state round-trips exactly, a
view's line shows only what its seat may know (R7), and a bad line is refused naming its
field."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kingsbreakfast.engine import (
    DRAW_OR_FEED,
    MUST_DRAW,
    Rules,
    SetupError,
    State,
    sample_world,
)


def reachable(seed: int, players: int, steps: int, rules: Rules, source: str) -> State:
    """A state reached by random legal play: from a known deck, from an unknown one (its
    chance steps answered at random), or a world dealt from one seat's view of it."""
    rng = random.Random(seed)
    if source == "unknown":
        state = State.with_unknown_deck(players, seed % players, rules)
    else:
        state = State.new(players, rng, seed % players, rules)
    for _ in range(steps):
        if state.is_over:
            break
        if state.is_chance:
            cards, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_chance(rng.choices(cards, weights)[0])
            continue
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    if source == "world" and not state.is_chance:
        seat = rng.randrange(players)
        return sample_world(state.view(seat), rng)
    return state


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([3, 4, 5]),
    steps=st.integers(0, 400),
    empty=st.sampled_from([DRAW_OR_FEED, MUST_DRAW]),
    dragons=st.sampled_from([1, 2]),
    source=st.sampled_from(["known", "unknown", "world"]),
)
def test_every_reachable_state_round_trips_exactly(
    seed: int, players: int, steps: int, empty: str, dragons: int, source: str
) -> None:
    state = reachable(seed, players, steps, Rules(empty, dragons), source)
    text = state.to_text()
    assert "\n" not in text
    back = State.from_text(text)
    assert back == state
    assert back.to_text() == text
    assert back.legal_actions() == state.legal_actions()
    assert back.card_counts() == state.card_counts()
    for seat in [None, *range(players)]:
        if not state.is_chance:
            assert back.view(seat) == state.view(seat)
    if state.deck_known and source == "known":
        assert back.initial_deck == state.initial_deck
    # play goes on alike from both
    rng = random.Random(seed + 1)
    while not state.is_over and not state.is_chance:
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        state.apply(action)
        back.apply(action)
        assert back == state


def test_a_view_s_line_shows_nothing_its_seat_may_not_see() -> None:
    """Two worlds behind one view (other hidden draws, another deck) give the same view line
    and different full lines: the view's line carries no hidden card (R7)."""
    state = reachable(3, 4, 25, Rules(), "known")
    seat = state.to_move
    assert seat is not None and seat >= 0
    view = state.view(seat)
    lines = set()
    views = set()
    for world_seed in range(6):
        world = sample_world(view, random.Random(world_seed))
        lines.add(world.to_text())
        views.add(world.view(seat).to_text())
    assert len(views) == 1 and len(lines) > 1
    shown = views.pop()
    assert f"#{view.deck_size}" in shown.split(" ")
    for other, hand in enumerate(view.hands):
        part = shown.split(" ")[10].split("/")[other]
        assert part.endswith(f"?{hand.hidden}") == (hand.draws is None)


GOOD = State.new(4, random.Random(7))
for _ in range(20):
    GOOD.apply(GOOD.legal_actions()[0])
GOOD_TEXT = GOOD.to_text()


def changed(field: int, value: str) -> str:
    parts = GOOD_TEXT.split(" ")
    parts[field] = value
    return " ".join(parts)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("", "tag"),
        (GOOD_TEXT.replace(" ", "  ", 1), "tag"),
        (changed(0, "kb2"), "tag"),
        (changed(1, "6"), "players"),
        (changed(1, "x"), "players"),
        (changed(2, "f3"), "rules"),
        (changed(3, "4"), "first_cook"),
        (changed(5, "9"), "cook"),
        (changed(6, "7"), "turn"),
        (changed(6, "t3"), "turn"),
        (changed(7, "x12"), "deck"),
        (changed(7, "*0123+0"), "deck"),
        (changed(7, GOOD_TEXT.split(" ")[7].replace("+", "")), "deck"),
        (changed(7, "=0129"), "deck"),
        (changed(8, "0000000"), "table"),
        (changed(8, "000000g0"), "table"),
        (changed(9, "0000000"), "deck"),  # the king's cards are gone: R1 is broken
        (changed(10, "0000000.0000000"), "hands"),
        (changed(10, "/".join(["0000000"] * 4)), "hands"),
        (changed(11, "0000000.0"), "removed"),
        (changed(11, "0000000.9.0"), "removed"),
        (changed(12, "9xx"), "history"),
        (changed(12, "099"), "history"),
        (changed(12, "900"), "history"),
    ],
)
def test_a_bad_line_is_refused_naming_its_field(text: str, field: str) -> None:
    with pytest.raises(SetupError) as refused:
        State.from_text(text)
    assert refused.value.code == "bad_state_text"
    assert refused.value.params["field"] == field
    assert repr(field) in str(refused.value)


def test_a_text_that_is_not_a_string_is_refused() -> None:
    with pytest.raises(SetupError, match="is a string"):
        State.from_text(b"kb1")  # type: ignore[arg-type]
