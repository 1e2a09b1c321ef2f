"""Who may ask the learned bot for advice, how often, and where the advice is computed.

A hint is the master bot's value of every legal move (:mod:`kingsbreakfast.bots.hint`).
At a *rated* table — two or more seats held by different accounts, the rule of
:mod:`.ratings` — it would be help from outside the game, so it is refused there
(``no_hints_rated``), at every call: a table that becomes rated (a second account takes a
seat) stops answering at once. Elsewhere a seat may ask :data:`HINT_BURST` times at once,
then one every :data:`HINT_EVERY` seconds (``hint_rate``, with ``retry_after``), and the
valuation runs in the hints' own worker thread (:mod:`.workshops`), never on the event
loop where every table's moves are served.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Final

from kingsbreakfast.bots.hint import rank_actions
from kingsbreakfast.engine import View

from .lobby import LobbyError
from .workshops import HINTS

HINT_BURST: Final = 3
HINT_EVERY: Final = 5.0
SEATS_KEPT: Final = 20_000


def is_rated(owners: dict[int, int]) -> bool:
    """Seat → account of a table: rated when two different accounts hold seats."""
    return len(set(owners.values())) >= 2


class HintGate:
    """The hint allowance of every seat of this process's tables (a token bucket each)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._buckets: dict[tuple[str, int], tuple[float, float]] = {}

    def take(self, table_id: str, seat: int) -> None:
        """Spend one hint of the seat's allowance, or refuse (``hint_rate``)."""
        now = self.clock()
        left, then = self._buckets.pop((table_id, seat), (float(HINT_BURST), now))
        left = min(float(HINT_BURST), left + (now - then) / HINT_EVERY)
        if left < 1.0:
            self._buckets[table_id, seat] = (left, now)
            raise LobbyError(
                429, "hint_rate", "hints come one every few seconds: wait a moment",
                retry_after=round((1.0 - left) * HINT_EVERY, 1),
            )
        self._buckets[table_id, seat] = (left - 1.0, now)
        while len(self._buckets) > SEATS_KEPT:  # many tables: forget the oldest seats
            self._buckets.pop(next(iter(self._buckets)))

    @staticmethod
    def allowed(owners: dict[int, int]) -> None:
        """Refuse (``no_hints_rated``) at a rated table."""
        if is_rated(owners):
            raise LobbyError(
                409, "no_hints_rated",
                "no hints at a rated table: every player plays on their own",
            )

    async def advise(
        self, table_id: str, seat: int, owners: dict[int, int], view: View
    ) -> list[dict[str, Any]]:
        """The ranked moves of ``view`` (the seat's own view: a hint never knows more than
        the player), after the rated-table and rate checks, computed off the event loop."""
        self.allowed(owners)
        self.take(table_id, seat)
        ranked = await HINTS.run(rank_actions, view)
        return [dict(estimate.to_dict()) for estimate in ranked]
