"""What a finished game is worth to each seat, for learning code (shared by every adapter).

Two utilities, both from the engine's own scoring (R11) and winners rule (R12):

``rank`` (zero-sum)
    (players ranked below me − players ranked above me) / (players − 1), by the engine's R12
    places (points, then fewer discarded cards; seats equal on both share a place). The sole
    winner gets 1 and the sole last −1; the values add up to 0.
``score`` (general-sum)
    my points (R11), from 0 to :data:`MAX_POINTS`.
"""

from __future__ import annotations

from typing import Final

from kingsbreakfast.engine import Scoring

UTILITIES: Final = ("rank", "score")
MAX_POINTS: Final = 7 * 7 * 8
"""A hand scores at most 7 cards of each dish against a king holding 8 of it (15 a dish)."""


def check_utility(utility: object) -> str:
    if utility not in UTILITIES:
        raise ValueError(f"unknown utility {utility!r} (expected 'rank' or 'score')")
    assert isinstance(utility, str)
    return utility


def utilities(scoring: Scoring, utility: str) -> list[float]:
    """The value of the final ``scoring`` to each seat."""
    if utility == "score":
        return [float(points) for points in scoring.points]
    ranked = scoring.places
    n = len(ranked)
    return [
        (sum(other > mine for other in ranked) - (mine - 1)) / (n - 1)  # below - above
        for mine in ranked
    ]


def bounds(utility: str) -> tuple[float, float]:
    return (-1.0, 1.0) if utility == "rank" else (0.0, float(MAX_POINTS))
