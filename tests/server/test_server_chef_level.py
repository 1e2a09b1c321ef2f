"""The server seats the chef level like any other, its search in the bot thread (the
registry says it thinks long): a table of chefs plays a whole game."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("numpy")
pytest.importorskip("numba")

from kingsbreakfast.bots import find_bot
from kingsbreakfast.engine import State
from server.kb_harness import make_master, seated_table, until


def test_a_table_of_chef_bots_plays_to_the_end(sqlite_url: str) -> None:
    assert find_bot("chef").thinks_long  # so the actor runs it off the event loop

    async def main() -> None:
        def dealer(n: int) -> tuple[tuple[int, ...], int]:
            return State.new(n, 6).initial_deck, 0

        master = make_master(sqlite_url, dealer=dealer, zombie_grace=0.0)
        await master.open()
        table, _ = await seated_table(master, 1, seats=4, bot_level="chef")
        assert table.state is not None
        await until(lambda: table.state is not None and table.state.is_over, seconds=120)
        assert len(table.state.history) > 30
        await master.close()

    asyncio.run(main())
