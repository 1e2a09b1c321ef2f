"""A failover is nobody's leaving. When process A froze and B took its table over, A's
players are still on their way to B (their clients notice the silence and reconnect through
the proxy): B gives them ``reconnect_grace`` before a turn is played for them, however short
the table's clock; and A, waking up with its players' clocks run out, is refused its bot's
move by the store and so calls nobody a leaver (a time-out ranks a rated game's account last,
:mod:`kingsbreakfast.server.site`)."""

from __future__ import annotations

import asyncio

from kingsbreakfast.engine import State
from kingsbreakfast.server.master import Master
from kingsbreakfast.server.storage import Storage
from kingsbreakfast.server.tables import Table
from server.kb_harness import seated_table

CLOCK = 5
"""The shortest turn clock a table may have."""


def fixed_dealer(n: int) -> tuple[tuple[int, ...], int]:
    return State.new(n, 8).initial_deck, 0


def test_a_taken_over_table_waits_for_its_players_and_the_old_owner_blames_nobody(
    db_url: str,
) -> None:
    async def main() -> None:
        a = Master(Storage(db_url), bot_delay=3600.0, dealer=fixed_dealer,
                   lease_seconds=0.5, owner="A")
        b = Master(Storage(db_url), bot_delay=3600.0, dealer=fixed_dealer,
                   lease_seconds=0.5, owner="B")
        await a.open()
        await b.open(migrate=False)
        created, _ = await seated_table(a, 3, clock_seconds=CLOCK)
        table_a = a.tables[created.id]
        actor_a = a.actor(table_a)
        assert table_a.state is not None and table_a.deadline is not None
        assert a._keeper is not None
        a._keeper.cancel()  # A froze: it renews nothing from here on

        held = await b.own(table_a.id, wait=5.0)
        assert held is not None
        table_b: Table = held.table
        seat = table_b.state.to_move if table_b.state is not None else None
        assert seat is not None and table_b.seats[seat].kind == "human"
        # nobody is connected to B yet: the player to move has the grace, not 5 s
        assert table_b.deadline is not None
        assert table_b.deadline - b.hall.wall_clock() > CLOCK
        assert table_b.deadline - b.hall.wall_clock() > b.hall.reconnect_grace - 1.0

        # A wakes with the clock of its player to move run out: its bot's move for them is
        # refused by the store (B holds the table), and no time-out is told
        told: list[tuple[Table, int]] = []
        a.hall.events.timed_out.connect(told.append)
        table_a.deadline = a.hall.wall_clock() - 1.0
        await actor_a._bot_move(seat, table_a.version)
        assert table_a.version == 0  # nothing was stored
        assert told == []
        await b.close()
        await a.close()

    asyncio.run(main())
