"""When Python's cycle collector does its full passes: on a schedule, not while a crowd
arrives.

CPython runs a full collection each time the objects that survived earlier ones grow by a
quarter. A server gaining a thousand sockets in a few seconds therefore paused for full
passes in the middle of the storm (75–340 ms each, measured in ``benchmarks/
spectator_storm.py``), and a seated player's move waited behind them. Nearly everything the
server drops is freed at once by reference counting, and the young generations are still
collected as usual; only the full pass waits for this timer.
"""

from __future__ import annotations

import asyncio
import gc
from typing import Final

FULL_PASS_SECONDS: Final = 60.0
"""How often the full pass runs (what survived the young collections and then became
garbage waits at most this long)."""
_NEVER: Final = 1_000_000_000


def take_over() -> tuple[int, int, int]:
    """Freeze what start-up built and stop automatic full passes (young ones go on);
    answers the thresholds to give back."""
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(before[0], before[1], _NEVER)
    return before


def give_back(thresholds: tuple[int, int, int]) -> None:
    """The collector as it was (a server stopping inside a longer-lived process)."""
    gc.set_threshold(*thresholds)
    gc.unfreeze()


async def full_passes(seconds: float = FULL_PASS_SECONDS) -> None:
    while True:
        await asyncio.sleep(seconds)
        gc.collect()
