"""A stored table back in memory: its seats, and its game replayed from the deck and the
stored actions (a restart, a takeover from another process, a finished game reopened)."""

from __future__ import annotations

from kingsbreakfast.engine import Action, Rules, State

from .store import GameRecord, SeatRecord
from .tables import Seat, Table


def replay_state(record: GameRecord) -> State:
    """A stored game rebuilt by replaying its actions on its deck."""
    assert record.deck is not None
    state = State(record.deck, record.num_seats, record.first_cook, Rules.from_dict(record.rules))
    for seat, action in record.actions:
        state.play(Action(action), seat=seat)
    return state


def restore(record: GameRecord, replay: bool = True) -> Table:
    """A stored table back in memory, its game replayed from the deck and the actions
    (``replay=False``: only what the lobby list shows)."""
    table = Table(
        id=record.id,
        num_seats=record.num_seats,
        rules=Rules.from_dict(record.rules),
        bot_level=record.bot_level,
        clock_seconds=record.clock_seconds,
        public=record.public,
        seats=[Seat(s.kind, s.name, s.token_hash) for s in record.seats],
        status=record.status,
    )
    table.version = len(record.actions)
    if record.deck is not None and replay:
        table.state = replay_state(record)
    return table


def seat_records(table: Table) -> list[SeatRecord]:
    return [SeatRecord(n, s.kind, s.name, s.token_hash) for n, s in enumerate(table.seats)]
