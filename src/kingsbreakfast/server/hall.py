"""What every table of one process shares (:class:`Hall`), and how a deck is dealt
(:data:`Dealer`): kept apart from the table actor so that the process-wide settings can be read
without the actor's lock and its many parts."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from .lifecycle import TableEvents

Dealer = Callable[[int], tuple[tuple[int, ...], int]]  # a shuffled deck and the first cook


@dataclass(slots=True)
class Hall:
    """What every table of one process shares: the bots' pace, the clocks' time, the thread
    a long-thinking bot thinks in, the events tables announce, and the work in flight that
    closing the process must wait for."""

    bot_delay: float = 0.6
    """Seconds a bot waits before moving, so people can follow the game."""
    zombie_grace: float = 30.0
    """How long a disconnected player's turn waits when the table has no clock."""
    reconnect_grace: float = 15.0
    """After a table is taken over from another process (which died or froze), how long
    its players have to reconnect before their turn is played for them: a browser notices
    a silent socket and reconnects within about ten seconds (docs/server.md), and a
    failover is no player's doing, so nobody is called a leaver for it."""
    wall_clock: Callable[[], float] = time.time
    events: TableEvents = field(default_factory=TableEvents)
    tasks: set[asyncio.Task[None]] = field(default_factory=set)
    bot_thread: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(max_workers=1, thread_name_prefix="kb-bot")
    )

    def keep(self, task: asyncio.Task[Any]) -> None:
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
