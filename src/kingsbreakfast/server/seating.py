"""A table's seats as the actor changes them: one seat stored (and put back in memory when
the store refuses), the seating a deal makes, and a bot's move chosen for a seat. Pieces of
:class:`~.actor.TableActor`'s work that need none of its state beyond the table, so the
actor reads as the order of its checks and phases."""

from __future__ import annotations

import asyncio
import logging
import random
from concurrent.futures import ThreadPoolExecutor

from kingsbreakfast.bots import Bot
from kingsbreakfast.engine import Action, State

from .persistence import Journal
from .store import SeatRecord, StorageError
from .tables import BOT, OPEN, Seat, Table

log = logging.getLogger("kingsbreakfast.server")


async def store_seat(journal: Journal, table: Table, record: SeatRecord) -> None:
    """Seat ``record.seat`` becomes ``record`` in memory and in the store, stored under the
    table's lease; when the store refuses, memory is put back as it was and the error
    raised (memory never runs ahead of the database)."""
    seat = table.seats[record.seat]
    old = (seat.kind, seat.name, seat.token_hash)
    seat.kind, seat.name, seat.token_hash = record.kind, record.name, record.token_hash
    try:
        await journal.call(journal.store.save_seat, table.id, record, journal.fence())
    except StorageError:
        seat.kind, seat.name, seat.token_hash = old
        raise


def dealt_seats(table: Table) -> tuple[list[Seat], list[SeatRecord]]:
    """The seating at the deal: every open seat a bot named by the table's level, the
    others as they are; and the same as records to store."""
    seats = [
        Seat(BOT, table.bot_level) if s.kind == OPEN else Seat(s.kind, s.name, s.token_hash)
        for s in table.seats
    ]
    return seats, [SeatRecord(n, s.kind, s.name, s.token_hash) for n, s in enumerate(seats)]


async def bot_action(
    table: Table, seat_no: int, bot: Bot, seed: int, thread: ThreadPoolExecutor | None,
) -> tuple[Action, State]:
    """A bot's move for the seat to move and the state after it. ``thread``: where a bot
    that thinks long thinks, so the event loop every table shares stays free (None: on the
    loop). A faulty bot must not stall a table: it plays a random legal move instead."""
    state = table.state
    assert state is not None
    view = state.view(seat_no)
    try:
        if thread is not None:
            action = await asyncio.get_running_loop().run_in_executor(
                thread, lambda: bot.act(view, random.Random(seed))
            )
        else:
            action = bot.act(view, random.Random(seed))
        trial = state.clone()
        trial.play(action, seat=seat_no)
    except Exception:
        log.exception("table %s: the %s bot failed", table.id, table.bot_level)
        action = random.Random(seed).choice(view.legal_actions())
        trial = state.clone()
        trial.play(action, seat=seat_no)
    return action, trial
