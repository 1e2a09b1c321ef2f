"""The first use of the compiled simulators: a notice while numba compiles, and a warm-up.

numba compiles the simulators' kernels on first use and keeps the machine code in its
cache (``NUMBA_CACHE_DIR``, or ``__pycache__`` folders beside the sources), so only the
first run on a machine pays. That first call says so on standard error when it takes
longer than :data:`NOTICE_AFTER` seconds, in the language of the program that called it
(:mod:`kingsbreakfast.i18n`: the command line's ``--lang``, else English).
``python -m kingsbreakfast.sim.warm`` compiles every kernel ahead of time (docs/research.md,
*The first run*).
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Hashable, Iterator
from typing import Final

from kingsbreakfast.i18n import _

NOTICE_AFTER: Final = 1.0
"""Seconds a first call may take before the notice is shown (loading a warm cache takes
less)."""

_seen: set[Hashable] = set()
_lock = threading.Lock()


def _say(notice: str) -> None:
    print(notice, file=sys.stderr, flush=True)


COMPILE_SECONDS: Final = {"rules": 5.0, "greedy": 3.0, "counter": 6.0}
"""About how long compiling takes on a desktop core: a driver with the rules and the random
seats, and what the greedy ports and the card counter add (benchmarks/cold_start.py)."""


def compile_seconds(greedy: bool, counter: bool) -> float:
    """The compile time to announce for a driver seating these bots."""
    return (
        COMPILE_SECONDS["rules"]
        + greedy * COMPILE_SECONDS["greedy"]
        + counter * COMPILE_SECONDS["counter"]
    )


@contextlib.contextmanager
def notice_first_compile(key: Hashable, seconds: float) -> Iterator[None]:
    """Around a call of a compiled kernel: the first time ``key`` (a kernel and the kinds
    of seats it is compiled for) is called in this process, a notice goes to standard error
    if the call is still running after :data:`NOTICE_AFTER` seconds (compiling, not loading
    numba's cache). ``seconds`` is the compile time to announce."""
    with _lock:
        first = key not in _seen
        _seen.add(key)
    if not first:
        yield
        return
    # worded here, in the caller's language: the timer's thread does not share its context
    notice = _(
        "compiling the simulator once (about {seconds} s of CPU; numba keeps it in its "
        "cache for later runs)…"
    ).format(seconds=round(seconds))
    timer = threading.Timer(NOTICE_AFTER, _say, (notice,))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def warm() -> float:
    """Compile (or load from numba's cache) every kernel the simulators run: the batch
    simulator with every policy, scripted games, the vector games with every kind of
    built-in seat, the chef level's search and the search that labels training positions.
    Returns the CPU seconds it took."""
    import numpy as np

    from kingsbreakfast.engine import UNSHUFFLED_DECK

    from .batch import ALL_POLICIES, MAX_ACTIONS, simulate
    from .vector import VectorGames

    start = time.process_time()
    for policy in ALL_POLICIES:
        simulate(2, 3, policy, record=True)
        simulate(2, 3, policy)
    simulate(1, 3, decks=[UNSHUFFLED_DECK], actions=[[7] * MAX_ACTIONS], record=True)
    tables = (
        "caller",
        ["caller", "random", "greedy"],
        ["caller", "heuristic", "random"],
        ["caller", "greedy", "heuristic"],
    )
    for seats in tables:
        games = VectorGames(2, 3, seats)
        _, masks = games.reset()
        games.step(np.argmax(masks, axis=1))
    warm_chef()
    warm_labels()
    return time.process_time() - start


def warm_chef() -> None:
    """Compile (or load) the chef level's search and its evaluation driver: the search is
    compiled once for every table size (numba specializes only on types), so one move and
    one tiny evaluation of three players cover every table."""
    import random

    from kingsbreakfast.bots.chef import ChefBot, SearchBudget
    from kingsbreakfast.compiled import search
    from kingsbreakfast.engine import State

    from .chef_evaluation import evaluate

    state = State.new(3, random.Random(1))
    ChefBot(worlds=1).choose(state.view(state.to_move), 1)
    evaluate(1, 3, search.SEAT_MASTER, 2, SearchBudget(2, 1, 0))


def warm_labels() -> None:
    """Compile (or load) the search that labels training positions for the master network
    (``kingsbreakfast train --search-targets``): two tiny games of three players."""
    from kingsbreakfast.bots.master import MasterBot

    from .search_targets import label

    label(MasterBot().weights, 3, 2, seed=0, worlds=1)


def main() -> None:
    seconds = warm()
    print(f"the simulators are compiled and cached ({seconds:.1f} s of CPU)")


if __name__ == "__main__":
    main()
