"""The bots and the hint the terminal game plays with, all from :mod:`kingsbreakfast.bots`.

The game builds no bot and no search of its own: it asks the bots package by name (a level
``easy``…``expert`` or a bot ``random``, ``greedy``, ``heuristic``, ``ismcts``), and the hint
screen shows the bots' own estimates, so the two cannot disagree on what a hint holds.
"""

from __future__ import annotations

import random
import threading
import time

from kingsbreakfast.bots import BOT_NAMES, LEVELS, Bot, make_bot
from kingsbreakfast.bots.hint import ActionEstimate, rank_actions
from kingsbreakfast.bots.registry import HAS_NUMBA
from kingsbreakfast.engine import View

DEFAULT_LEVEL = "medium"
"""The opponent a newcomer meets unless ``--bots`` says otherwise."""


def bot_names() -> tuple[str, ...]:
    """The names ``--bots`` accepts: the levels (weakest first), then the bots."""
    return (*LEVELS, *BOT_NAMES)


def default_bot() -> str:
    return DEFAULT_LEVEL


def make_opponent(name: str) -> Bot:
    """A bot by name; the bots' ``UnknownBotError`` names the choices when it is not known."""
    return make_bot(name)


def rank_moves(
    view: View, rng: random.Random, seconds: float | None = None
) -> list[ActionEstimate]:
    """The hint: the bots' value of each of the viewer's legal moves, best first.

    Only the human's own view goes in, so the hint knows exactly what the player knows.
    The master bot's network answers at once; where the chef level's search is installed
    (numba) and the view is the mover's own, the search is given ``seconds`` (``play
    --hint-seconds``) to value the moves too, and when it answers within them its win
    chances are the ones shown (:func:`kingsbreakfast.bots.hint.rank_actions` with
    ``search``). ``None`` or 0 seconds: the network alone.
    """
    if not seconds or not HAS_NUMBA or view.seat is None or view.seat != view.to_move:
        return rank_actions(view, rng)
    deadline = time.monotonic() + seconds
    search = _SEARCH.start(view, seconds)
    quick = rank_actions(view, rng)  # the answer if the search runs out of time
    searched = search.wait(deadline - time.monotonic()) if search is not None else None
    return searched if searched is not None else quick


class _Search:
    """The hint's search, one at a time, on a daemon thread of its own.

    The compiled search cannot be stopped once it runs, so a hint that runs out of time
    leaves it to finish in the background (its compiled code, loaded or compiled on the
    first hint of a process, serves the next one). The next hint waits for it within its
    own seconds rather than start a second search beside it. A daemon thread, so leaving
    the game never waits for it.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: _Answer | None = None

    def start(self, view: View, seconds: float) -> _Answer | None:
        """A search of ``view`` under way, or None when the one before it is still
        running after ``seconds``."""
        deadline = time.monotonic() + seconds
        while True:
            with self._lock:
                running = self._running
                if running is None or running.done.is_set():
                    answer = _Answer()
                    self._running = answer
                    break
            if not running.done.wait(max(0.0, deadline - time.monotonic())):
                return None

        def think() -> None:
            try:
                answer.ranking = rank_actions(view, search=True)
            except Exception as error:  # the network's answer stands
                answer.error = error
            finally:
                answer.done.set()

        threading.Thread(target=think, name="hint-search", daemon=True).start()
        return answer


class _Answer:
    """What one search thread hands back (``done`` is set once it has finished)."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.ranking: list[ActionEstimate] | None = None
        self.error: Exception | None = None

    def wait(self, seconds: float) -> list[ActionEstimate] | None:
        """The searched ranking if it comes within ``seconds``, else None."""
        self.done.wait(max(0.0, seconds))
        return self.ranking


_SEARCH = _Search()
