"""When Python's cycle collector does its full passes: on a schedule, not while a crowd
arrives, and over what is new rather than over every socket again.

CPython runs a full collection each time the objects that survived earlier ones grow by a
quarter. A server gaining a thousand sockets in a few seconds therefore paused for full
passes in the middle of the storm (75–340 ms each, measured in ``benchmarks/
spectator_storm.py``), and a seated player's move waited behind them. Nearly everything the
server drops is freed at once by reference counting, and the young generations are still
collected as usual; only the full pass waits for this timer.

A full pass walks every object it tracks: at a thousand tables (four thousand sockets,
their protocol objects, tasks and buffers) about a second of the event loop, each minute,
for objects that are nearly all still in use. So what a pass finds alive is frozen
(``gc.freeze``): the next passes walk only what was made since. What was frozen and then
became cyclic garbage (a closed table's cycles) is not freed by those passes, so every
``SWEEP_EVERY``-th pass thaws everything first and sweeps it all: garbage waits at most
that many minutes, as it once waited for a full pass at all.

The young generation's threshold is raised from 700 allocations to ``YOUNG``: a young pass
walks the young objects still alive, and a server's young objects (frames, parsed
messages, views) mostly die within a move, so fewer, later passes walk fewer of them.
"""

from __future__ import annotations

import asyncio
import gc
from typing import Final

FULL_PASS_SECONDS: Final = 60.0
"""How often the full pass runs (what survived the young collections and then became
garbage waits at most this long, unless it had been frozen)."""
SWEEP_EVERY: Final = 5
"""Every this many full passes, everything frozen is thawed and swept too."""
YOUNG: Final = 10_000
"""Allocations (less deallocations) between two young passes (CPython's default: 700)."""
_NEVER: Final = 1_000_000_000


def take_over() -> tuple[int, int, int]:
    """Freeze what start-up built and stop automatic full passes (young ones go on, less
    often); answers the thresholds to give back."""
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(before[0], YOUNG), before[1], _NEVER)
    return before


def give_back(thresholds: tuple[int, int, int]) -> None:
    """The collector as it was (a server stopping inside a longer-lived process)."""
    gc.set_threshold(*thresholds)
    gc.unfreeze()


def full_pass(number: int) -> None:
    """The ``number``-th scheduled pass (from 1): what is not frozen, or every ``SWEEP_EVERY``-th
    time everything; then what survived is frozen."""
    if number % SWEEP_EVERY == 0:
        gc.unfreeze()
    gc.collect()
    gc.freeze()


async def full_passes(seconds: float = FULL_PASS_SECONDS) -> None:
    number = 0
    while True:
        await asyncio.sleep(seconds)
        number += 1
        full_pass(number)
