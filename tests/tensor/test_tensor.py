"""The observation layout and the rank utility are defined once, in kingsbreakfast.tensor."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from kingsbreakfast.engine import State, places, score
from kingsbreakfast.interop import encoding, utility
from kingsbreakfast.tensor import (
    FIELDS,
    OBS_SIZE,
    SCALED,
    encode,
    offsets,
    rank,
    utilities,
    write_observation,
)


def test_the_adapters_read_the_very_same_definitions() -> None:
    assert encoding.FIELDS is FIELDS and encoding.SIZE == OBS_SIZE == 98
    assert encoding.encode is encode and utility.utilities is utilities


def test_the_layout_has_no_gap_and_no_overlap() -> None:
    spans = list(offsets().values())
    assert spans[0][0] == 0 and spans[-1][1] == OBS_SIZE
    assert all(stop == start for (_, stop), (start, _) in itertools.pairwise(spans))
    assert [f.name for f in FIELDS] == list(offsets())


def test_the_writer_overwrites_every_entry() -> None:
    """A row reused between games must not keep an old game's numbers."""
    state = State.new(4, random.Random(2))
    view = state.view(1)
    fresh = encode(view)
    dirty = [0.5] * OBS_SIZE
    hands = view.hands
    write_observation(
        dirty, SCALED, 4, 1, False, 1, view.to_move if view.to_move is not None else -1,
        view.cook, view.pending_dragon, view.deck_size, view.round, view.turns_left,
        (*view.table, view.table_dragons), view.king, view.removed_dishes,
        view.removed_dragons, view.removed_unseen, [h.takes for h in hands],
        [h.draws or (0,) * 7 for h in hands], [h.hidden for h in hands], True, False,
    )
    assert dirty == fresh


@settings(max_examples=80, deadline=None)
@given(st.integers(3, 5), st.integers(0, 10**6))
def test_rank_follows_the_r12_places_and_adds_up_to_zero(players: int, seed: int) -> None:
    rng = random.Random(seed)
    king = [rng.randrange(6) for _ in range(7)]
    hands = [[rng.randrange(4) for _ in range(7)] for _ in range(players)]
    scoring = score(king, hands)
    ranked = places(scoring.points, scoring.discarded)
    values = [rank(scoring.points, scoring.discarded, players, s) for s in range(players)]
    assert abs(sum(values)) < 1e-9
    for s in range(players):
        below = sum(other > ranked[s] for other in ranked)
        above = sum(other < ranked[s] for other in ranked)
        assert values[s] == (below - above) / (players - 1)
