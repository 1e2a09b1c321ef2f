"""A running game's full record (deck included) is served by nobody: not by the process that
holds the table, and not by another process of the same site that reads the game from the
store (``Master.finished`` behind ``record`` and ``replay_step``, and ``Master.find``,
which must not bring a running game back as if it were finished). Two masters on one
database play the two processes; the cluster test asks through HAProxy."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from kingsbreakfast.server.lobby import LobbyError
from server.kb_harness import make_master, seated_table


def test_a_process_that_does_not_hold_a_running_game_never_serves_its_record(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"

    async def main() -> None:
        owner = make_master(url, bot_delay=3600.0)
        await owner.open()
        other = make_master(url, bot_delay=3600.0)
        await other.open(migrate=False)
        try:
            table, _tokens = await seated_table(owner, 2, seats=3)
            for master in (owner, other):  # the holder, and a process reading the store
                for ask in (master.record(table.id), master.replay_step(table.id, 0)):
                    with pytest.raises(LobbyError) as refused:
                        await ask
                    assert (refused.value.status, refused.value.code) == (409, "not_over")
            assert await other.find(table.id) is None  # not restored as a finished game
            assert table.id not in other.tables
            with pytest.raises(LobbyError) as refused:
                await other.record(table.id)  # and still refused after the find
            assert refused.value.code == "not_over"
        finally:
            await other.close()
            await owner.close()

    asyncio.run(main())
