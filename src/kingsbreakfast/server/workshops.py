"""The server's slow work, each kind in a bounded place of its own.

Hashing passwords (argon2), reviewing finished games, hinting and replaying the lesson all
take far longer than a move, and once they shared one thread pool: 87 reviews asked at once
held every thread (each waiting for its turn at the reviewer), and a registration waited
3.8 s for a thread to hash its password in. So each kind gets its own workers here, and a
bounded wait: past ``workers + waiting`` jobs in hand, a new one is refused at once (503
``busy``, with ``retry_after``, which the client turns into Retry-After) instead of queueing
without end. Reviews, the heaviest by far (a third of a second of pure Python per seat),
run in a process of their own at a lower priority: in a thread they would hold the
interpreter's lock that the event loop needs for every move.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager
from functools import partial
from typing import Final, ParamSpec, TypeVar

from .lobby import LobbyError

P = ParamSpec("P")
T = TypeVar("T")

LOWER_PRIORITY: Final = 10
"""How much nicer than the server a worker process runs: moves and sign-ins come first."""


def _lower_priority() -> None:
    os.nice(LOWER_PRIORITY)


class Workshop:
    """One kind of slow work: at most ``workers`` jobs at a time, ``waiting`` more queued,
    and a clear refusal past that."""

    def __init__(
        self, name: str, workers: int, waiting: int, retry_after: float,
        processes: bool = False,
    ) -> None:
        self.name = name
        self.workers = workers
        self.waiting = waiting
        self.retry_after = retry_after
        self.processes = processes
        self.in_hand = 0
        """Jobs running or queued here now."""
        self.done = 0
        """Jobs the workers finished since the start (run to their end, or failed)."""
        self._executor: Executor | None = None

    def _pool(self) -> Executor:
        """Made on first use: a server that never reviews never starts the process."""
        if self._executor is None:
            if self.processes:
                self._executor = ProcessPoolExecutor(
                    self.workers, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_lower_priority,
                )
            else:
                self._executor = ThreadPoolExecutor(
                    self.workers, thread_name_prefix=f"kb-{self.name}"
                )
        return self._executor

    @contextmanager
    def taken(self) -> Iterator[None]:
        """One place in hand for as long as the block lasts (a job's preparation on the event
        loop counts too); 503 ``busy`` when there is none."""
        if self.in_hand >= self.workers + self.waiting:
            raise LobbyError(
                503, "busy", "the server is busy with this kind of work: try again shortly",
                work=self.name, retry_after=self.retry_after,
            )
        self.in_hand += 1
        try:
            yield
        finally:
            self.in_hand -= 1

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn`` run here, off the event loop; 503 ``busy`` when this workshop is full."""
        with self.taken():
            return await self.work(fn, *args, **kwargs)

    async def work(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn`` run here for a job that holds its place already (:meth:`taken`)."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), partial(fn, *args, **kwargs))
        finally:
            self.done += 1

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


PASSWORDS: Final = Workshop("passwords", workers=2, waiting=64, retry_after=2.0)
"""argon2 (it lets go of the interpreter's lock while it hashes): registrations, log-ins
and password changes, which their own per-address limits keep few."""
REVIEWS: Final = Workshop("reviews", workers=1, waiting=15, retry_after=10.0, processes=True)
"""A third of a second a seat: 16 in hand are about five seconds of work."""
HINTS: Final = Workshop("hints", workers=1, waiting=16, retry_after=2.0)
"""A hint takes a few milliseconds; each seat may ask a few (:mod:`.hint_gate`)."""
LESSONS: Final = Workshop("lessons", workers=1, waiting=16, retry_after=2.0)
"""Lesson replays (``POST /api/learn``), also limited per address (:mod:`.routes.learn`)."""

ALL: Final = (PASSWORDS, REVIEWS, HINTS, LESSONS)


def close_all() -> None:
    for workshop in ALL:
        workshop.close()
