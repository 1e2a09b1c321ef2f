"""The shared view tensor: fixed layout, bounded values, seat-relative, no hidden cards."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from kingsbreakfast.engine import Rules, State
from kingsbreakfast.interop import encoding


def random_state(players: int, seed: int, steps: int) -> State:
    rng = random.Random(seed)
    state = State.new(players, rng, rules=Rules())
    for _ in range(steps):
        legal = state.legal_actions()
        if not legal:
            break
        state.apply(legal[rng.randrange(len(legal))])
    return state


def field(vector: list[float], name: str) -> list[float]:
    start, stop = encoding.offsets()[name]
    return vector[start:stop]


def test_layout_is_consistent() -> None:
    offsets = encoding.offsets()
    assert list(offsets) == [f.name for f in encoding.FIELDS]
    assert max(stop for _, stop in offsets.values()) == encoding.SIZE == 98
    assert len({f.name for f in encoding.FIELDS}) == len(encoding.FIELDS)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([3, 4, 5]), st.integers(0, 10**6), st.integers(0, 80))
def test_every_value_is_in_unit_range_and_length_fixed(players: int, seed: int, steps: int) -> None:
    state = random_state(players, seed, steps)
    for seat in range(players):
        vector = encoding.encode(state.view(seat))
        assert len(vector) == encoding.SIZE
        assert all(0.0 <= x <= 1.0 for x in vector)
        assert field(vector, "players")[players - 3] == 1.0


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([3, 4, 5]), st.integers(0, 10**6), st.integers(0, 60))
def test_the_tensor_of_a_view_does_not_depend_on_others_hidden_cards(
    players: int, seed: int, steps: int
) -> None:
    """Two worlds sampled from seat 0's view differ in everyone else's drawn cards and the
    deck, yet give seat 0 the same tensor."""
    state = random_state(players, seed, steps)
    view = state.view(0)
    from kingsbreakfast.engine import sample_world

    other = sample_world(view, random.Random(seed + 1))
    assert encoding.encode(other.view(0)) == encoding.encode(view)


def test_seats_are_counted_from_the_viewer_and_own_draws_are_private() -> None:
    state = random_state(4, 7, 30)
    seat = 2
    mine = encoding.encode(state.view(seat))
    assert field(mine, "takes_0") == [c / 15 for c in state.view(seat).hands[seat].takes]
    assert field(mine, "takes_1") == [c / 15 for c in state.view(seat).hands[3].takes]
    assert field(mine, "my_draws") == [
        c / 15 for c in state.view(seat).hands[seat].draws or ()
    ]
    to_move = state.to_move
    assert to_move is not None
    assert field(mine, "to_move")[(to_move - seat) % 4] == 1.0
    public = encoding.encode(state.view(None), perspective=seat)
    assert field(public, "my_draws") == [0.0] * 7
    assert field(public, "takes_0") == field(mine, "takes_0")
    assert field(mine, "takes_4") == [0.0] * 7  # a 4-player game pads the fifth slot


def test_a_spectator_view_needs_a_perspective() -> None:
    state = random_state(3, 1, 5)
    try:
        encoding.encode(state.view(None))
    except ValueError as error:
        assert "seat" in str(error)
    else:
        raise AssertionError("a spectator view without a perspective must be refused")
