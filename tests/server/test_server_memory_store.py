"""The master runs on any store that keeps the storage protocol: a whole game on the
in-memory store, a store outage refused without touching memory, and the (game, number) key."""

from __future__ import annotations

import asyncio
from typing import Any

from kingsbreakfast.engine import State
from kingsbreakfast.server.master import Master
from kingsbreakfast.server.memory_store import MemoryStore
from kingsbreakfast.server.store import GameStore
from server.kb_harness import Capture, act, seated_table, until


def fixed_dealer(n: int) -> tuple[tuple[int, ...], int]:
    return State.new(n, 21).initial_deck, 0


def test_the_memory_store_is_a_game_store() -> None:
    store: GameStore = MemoryStore()  # mypy checks the protocol; this checks it at run time
    assert callable(store.append_actions)


def test_a_whole_game_on_the_memory_store_and_a_restart_from_it() -> None:
    async def main() -> None:
        store = MemoryStore()
        # the host is away and has no grace: bots play the whole game
        master = Master(store, bot_delay=0.0, zombie_grace=0.0, dealer=fixed_dealer)
        await master.open()
        table, _tokens = await seated_table(master, 1, seats=3)
        await until(lambda: table.state is not None and table.state.is_over)
        stored = store.games[table.id]
        assert stored.status == "over" and len(stored.actions) == table.version
        await master.close()

        again = Master(store, bot_delay=0.0, dealer=fixed_dealer)
        await again.open()
        assert table.id not in again.tables  # finished: archive only
        assert (await again.archive())[0]["id"] == table.id
        await again.close()

    asyncio.run(main())


def test_an_outage_refuses_the_move_retryably_and_memory_stays() -> None:
    async def main() -> None:
        store = MemoryStore()
        master = Master(store, bot_delay=0.0, dealer=fixed_dealer)
        await master.open()
        table, _ = await seated_table(master, 3)
        conn = Capture(0)
        master.actor(table).attach(conn)
        assert table.state is not None
        before = (table.version, table.state.actions)
        store.failing = True
        await act(master, table, conn, "draw")
        error: dict[str, Any] = conn.errors()[-1]
        assert error["code"] == "storage_unavailable" and error["params"]["retryable"] is True
        assert (table.version, table.state.actions) == before
        store.failing = False
        await act(master, table, conn, "draw")
        assert table.version == before[0] + 1
        assert len(store.games[table.id].actions) == table.version
        await master.close()

    asyncio.run(main())


def test_an_action_number_is_stored_once() -> None:
    store = MemoryStore()
    store.create_game("g", num_seats=3, rules={}, bot_level="easy", clock_seconds=None,
                      public=True, seats=[])
    first = store.append_actions([("g", 0, 0, 1, False), ("g", 0, 0, 2, False)])
    assert first[0] is None and first[1] is not None and first[1].code == "storage_unavailable"
    assert store.games["g"].actions == ((0, 1),)
