"""What a finished game is worth to each seat, for learning code (every adapter and kernel).

Two utilities, both from the engine's own scoring (R11) and winners rule (R12):

``rank`` (zero-sum)
    (players ranked below me − players ranked above me) / (players − 1), by the R12 order
    (more points, then fewer discarded cards; seats equal on both share a place). The sole
    winner gets 1 and the sole last −1; the values add up to 0. :func:`rank` reads plain
    numbers only, so the compiled simulator compiles this very function with numba.
``score`` (general-sum)
    my points (R11), from 0 to :data:`MAX_POINTS`.
"""

from __future__ import annotations

from typing import Any, Final

from kingsbreakfast.engine import Scoring

UTILITIES: Final = ("rank", "score")
MAX_POINTS: Final = 7 * 7 * 8
"""A hand scores at most 7 cards of each dish against a king holding 8 of it (15 a dish)."""


def check_utility(utility: object) -> str:
    if utility not in UTILITIES:
        raise ValueError(f"unknown utility {utility!r} (expected 'rank' or 'score')")
    assert isinstance(utility, str)
    return utility


def rank(points: Any, discarded: Any, n: int, seat: int) -> float:
    """The ``rank`` utility of ``seat`` from every seat's R11 points and discarded cards:
    R12 puts a seat above another with more points, or as many and fewer discards."""
    below = 0
    above = 0
    mine_p = points[seat]
    mine_x = discarded[seat]
    for other in range(n):
        if other == seat:
            continue
        p = points[other]
        x = discarded[other]
        if p > mine_p or (p == mine_p and x < mine_x):
            above += 1
        elif mine_p > p or (mine_p == p and mine_x < x):
            below += 1
    return (below - above) / (n - 1)


def utilities(scoring: Scoring, utility: str) -> list[float]:
    """The value of the final ``scoring`` to each seat."""
    if utility == "score":
        return [float(points) for points in scoring.points]
    points = scoring.points
    discarded = scoring.discarded
    n = len(points)
    return [rank(points, discarded, n, seat) for seat in range(n)]


def bounds(utility: str) -> tuple[float, float]:
    return (-1.0, 1.0) if utility == "rank" else (0.0, float(MAX_POINTS))
