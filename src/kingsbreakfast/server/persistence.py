"""The path from a table to its store: one worker thread for every database call, and group
commit for actions.

Every call runs in the one thread, in order, so the event loop never waits on a disk and the
order of commits stays the order of the tables' locks (SQLite has one writer anyway). When a
table has an action to store it joins a queue; a single flusher writes the whole queue in one
call to :meth:`~.store.GameStore.append_actions`, and whatever arrives meanwhile goes in the
next one. An idle server commits each action at once and alone; a busy one shares each commit
among many tables.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import ParamSpec, TypeVar

from .store import ActionItem, Fence, GameStore, StorageError

T = TypeVar("T")
P = ParamSpec("P")


class Journal:
    """A store seen from the event loop: awaitable calls and grouped action commits."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kb-db")
        self._pending: list[tuple[ActionItem, asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self.fence: Callable[[], Fence | None] = lambda: None
        """The leases writes are checked against (none: this process owns every table)."""

    async def call(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run one store call in the database thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, partial(fn, *args, **kwargs))

    async def append(
        self, game_id: str, number: int, seat: int, action: int, game_over: bool
    ) -> None:
        """Commit one action, grouped with whatever other tables commit at the same moment;
        raises :class:`StorageError` when it was refused (nothing was stored)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._pending.append(((game_id, number, seat, action, game_over), done))
        if self._flusher is None:
            self._flusher = loop.create_task(self._flush())
        await done

    async def _flush(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                try:
                    results = await self.call(
                        self.store.append_actions, [item for item, _ in batch], self.fence()
                    )
                except Exception as error:  # the worker itself failed: refuse the batch
                    results = [StorageError(str(error))] * len(batch)
                for (_, done), failure in zip(batch, results, strict=True):
                    if done.done():
                        continue
                    if failure is None:
                        done.set_result(None)
                    else:
                        done.set_exception(failure)
        finally:
            self._flusher = None

    async def close(self) -> None:
        """Finish what is queued, then let the thread and the store go."""
        if self._flusher is not None:
            await asyncio.gather(self._flusher, return_exceptions=True)
        self._thread.shutdown(wait=True)
        self.store.dispose()
