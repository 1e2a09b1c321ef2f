"""The fast broadcast path writes the very same bytes as the plain one, for every seat, at
every moment of a game (shared parts are only encoded once)."""

from __future__ import annotations

import json
import random

from kingsbreakfast.engine import Rules, State
from kingsbreakfast.server.tables import HUMAN, Seat, Table, state_frame, state_frames
from kingsbreakfast.server.wire import encode_slow


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
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
            table.version += 1
        assert '"score":{' in fast[0]
