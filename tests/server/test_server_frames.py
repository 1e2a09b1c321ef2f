"""The fast broadcast path writes the very same bytes as the plain one, for every seat, at
every moment of a game (shared parts are only encoded once)."""

from __future__ import annotations

import json
import random
from typing import Any

from kingsbreakfast.engine import Rules, State
from kingsbreakfast.server.tables import (
    HUMAN,
    Seat,
    Table,
    state_frame,
    state_frames,
)
from kingsbreakfast.server.wire import (
    Clock,
    ErrorFrame,
    PongFrame,
    SeatInfo,
    StateFrame,
    TableInfo,
    encode_slow,
    error_frame,
    pong_frame,
)


def test_state_frames_equal_state_frame_all_game_long() -> None:
    rng = random.Random(4)
    for players in (3, 4, 5):
        state = State.new(players, rng)
        table = Table(
            id="t", num_seats=players, rules=Rules(), bot_level="easy", clock_seconds=30,
            public=True, seats=[Seat(HUMAN, f'"näme@hole@\\{n}\u2028😀') for n in range(players)],
            state=state,
        )
        seats: set[int | None] = {None, *range(players)}
        while True:
            table.deadline = 1_700_000_000.5 if table.version % 2 else None
            fast = state_frames(table, seats)
            for seat in seats:
                assert fast[seat] == state_frame(table, seat)
                assert fast[seat] == encode_slow(json.loads(fast[seat]))
                assert_declared_shape(json.loads(fast[seat]))
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
            table.version += 1
        assert '"score":{' in fast[0]


def assert_declared_shape(frame: dict[str, Any]) -> None:
    """A state frame holds exactly the fields its TypedDicts declare, no more, no fewer."""
    assert set(frame) == StateFrame.__required_keys__
    assert set(frame["table"]) == TableInfo.__required_keys__
    assert all(set(seat) == SeatInfo.__required_keys__ for seat in frame["table"]["seats"])
    assert frame["clock"] is None or set(frame["clock"]) == Clock.__required_keys__


def test_error_and_pong_frames_have_their_declared_shape() -> None:
    error = json.loads(error_frame("stale_version", "the game moved on", {"yours": 1}, 2))
    assert set(error) == ErrorFrame.__required_keys__
    assert error == {
        "type": "error", "code": "stale_version", "message": "the game moved on",
        "params": {"yours": 1}, "version": 2,
    }
    assert json.loads(pong_frame()) == {"type": "pong"}
    assert set(json.loads(pong_frame())) == PongFrame.__required_keys__
    # a pong is never longer than the shortest ping it answers
    assert len(pong_frame().encode()) <= len(b'{"type":"ping"}')
