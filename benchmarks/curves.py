"""The evaluation points of the baseline learning curves (docs/baselines.md), shared by
``maskable_ppo.py`` and ``vector_ppo.py``: a point is a number of fresh games, seat-rotated,
summed up as the learner's win share with its 95% Wilson interval.

Seat rotation: game ``g`` of an evaluation has the first cook (R2) at seat ``g % players``,
so the learner (seat 0) plays an equal number of games from every position of the turn
order, first to move through last; ``games_by_position`` records the count for each, and an
evaluation's size is a whole number of rotations.
"""

from __future__ import annotations

import json
import math
import platform
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

PLAYERS = 4

LIBRARIES = (
    "kingsbreakfast", "numpy", "numba", "gymnasium", "torch", "stable-baselines3",
    "sb3-contrib", "jax", "jaxlib", "optax",
)
"""The libraries whose version a baseline records (one not installed is recorded as None)."""


def wilson(share: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win share measured over ``games`` games."""
    if games <= 0:
        raise ValueError("a win share needs at least one game")
    denominator = 1 + z * z / games
    centre = (share + z * z / (2 * games)) / denominator
    half = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games))
    return max(0.0, centre - half / denominator), min(1.0, centre + half / denominator)


def rotations(games: int, players: int = PLAYERS) -> int:
    """Whole seat rotations in ``games`` (refusing a count that is not a multiple)."""
    if games <= 0 or games % players:
        raise ValueError(
            f"evaluation games must be a positive multiple of {players} (whole seat "
            f"rotations), not {games}"
        )
    return games // players


def position(first_cook: int, seat: int = 0, players: int = PLAYERS) -> int:
    """The learner's place in the turn order: 0 when it moves first (it is the first cook),
    1 when it moves second, and so on."""
    return (seat - first_cook) % players


def point(
    shares: Sequence[float], positions: Sequence[int], players: int = PLAYERS, **fields: Any
) -> dict[str, Any]:
    """One point of a curve: the win share over the games, its Wilson interval, the count of
    games at each turn position, and the caller's ``fields`` (steps, CPU seconds, ...)."""
    if len(shares) != len(positions):
        raise ValueError("one turn position per game")
    share = sum(shares) / len(shares)
    low, high = wilson(share, len(shares))
    by_position = [0] * players
    for p in positions:
        by_position[p] += 1
    return {**fields, "win_share": share, "low": low, "high": high, "games": len(shares),
            "games_by_position": by_position}  # fmt: skip


def versions() -> dict[str, Any]:
    """What the run ran on: Python, the machine and every library of :data:`LIBRARIES`.

    Recorded in every baseline file, because a learner's curve depends on them: the same seed
    under another PyTorch (or another BLAS kernel for another CPU) rounds differently, and
    SGD carries a rounding difference into a different policy (docs/baselines.md)."""
    found: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "system": platform.system(),
    }
    for name in LIBRARIES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = None
    return found


def write(path: str | Path, **content: Any) -> None:
    """The baseline file at ``path``: ``content`` and the :func:`versions` it ran on."""
    content.setdefault("versions", versions())
    Path(path).write_text(json.dumps(content, indent=1) + "\n")
