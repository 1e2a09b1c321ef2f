"""Turn-based tables keep their clock across restarts.

A live table's clock (seconds) simply starts again when a restarted server brings the game
back; at a turn-based table (a clock of hours or days) that would hand the player to move a
fresh day, so each turn's deadline is stored when it starts and taken back on restore.
"""

from __future__ import annotations

import asyncio
import logging

from .accounts import Accounts
from .lobby import is_turn_based
from .store import StorageError
from .tables import Table

log = logging.getLogger("kingsbreakfast.server")


class TurnClocks:
    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts

    def started(self, table: Table) -> None:
        """The actor's hook: a turn's clock started (store it in the background)."""
        if not is_turn_based(table.clock_seconds) or table.deadline is None:
            return
        task = asyncio.get_running_loop().create_task(
            self._save(table.id, table.version, table.deadline)
        )
        self.accounts.master.hall.keep(task)

    async def _save(self, table_id: str, version: int, deadline: float) -> None:
        try:
            await self.accounts.call(self.accounts.store.save_clock, table_id, version, deadline)
        except StorageError as error:  # the clock restarts in full after a restart, no worse
            log.warning("table %s: turn clock not stored (%s)", table_id, error)

    async def restore(self, table: Table) -> None:
        """The master's hook: a table back from the store takes its turn's deadline back."""
        if not is_turn_based(table.clock_seconds) or table.state is None:
            return
        stored = await self.accounts.call(self.accounts.store.load_clock, table.id)
        if stored is not None and stored[0] == table.version:
            table.deadline = stored[1]
