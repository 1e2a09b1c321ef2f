"""The server seats the master level like any other: its bots play a whole game."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("numpy")

from kingsbreakfast.engine import State
from server.kb_harness import make_master, seated_table, until


def test_a_table_of_master_bots_plays_to_the_end(sqlite_url: str) -> None:
    async def main() -> None:
        def dealer(n: int) -> tuple[tuple[int, ...], int]:
            return State.new(n, 5).initial_deck, 0

        master = make_master(sqlite_url, dealer=dealer, zombie_grace=0.0)
        await master.open()
        # the host's seat is left to the bots as well (zombie at once): four masters play
        table, _ = await seated_table(master, 1, seats=4, bot_level="master")
        assert table.state is not None
        await until(lambda: table.state is not None and table.state.is_over, seconds=60)
        assert len(table.state.history) > 30
        await master.close()

    asyncio.run(main())
