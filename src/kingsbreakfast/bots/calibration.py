"""The hint's correction of the master network's estimates, so that its numbers mean what
they say.

The network is trained to choose moves, not to report them: its points head runs high late in
the game (at the last move of ``examples/game-4p`` it says 97.4 where the move scores 92) and
its win head is over-sure. ``benchmarks/hint_calibration.py`` plays positions of master-bot
games out with master bots and measures both against what happens; the numbers below were
fitted there on the positions of seeds 7001 and 7002 (the figures it reports come from other
seeds).

The game is cut into :data:`STAGES` by the rounds still to come after the one under way
(R4, R10: a round takes two cards per player from the deck, the game ends when the deck
cannot set a table), read from the view *before* the action, so every row of one hint
shares its stage. In each stage

* the points are a straight line of the network's points: ``a + b * points``, never below 0;
* the win chance is a logistic curve of the network's win logit:
  ``1 / (1 + exp(-(c + d * logit(win))))``, the network's win clipped to [0.001, 0.999]
  first.

The game's last turns (the last round, at most one seat to play after the mover) are played
out instead (:mod:`.last_turns`), and their positions are left out of the fit.

Both maps are increasing (b, d > 0), so within a stage they keep the network's order of the
moves, and two moves with the same raw numbers (dish twins, :mod:`.features`) get the same
corrected numbers. Where the outcome is settled (:mod:`.settled`) the hint shows the exact
numbers instead and no correction is used.
"""

from __future__ import annotations

import math
from typing import Final

from kingsbreakfast.engine import View

STAGES: Final = ((0, 0), (1, 1), (2, 3), (4, 6), (7, 99))
"""Stages as inclusive ranges of rounds still to come after the one under way."""

POINTS_LINES: Final[tuple[tuple[float, float], ...]] = (
    (-2.1706, 1.0361), (-5.3089, 1.0657), (-4.6979, 1.046), (-3.1658, 1.0114), (2.7158, 0.9327),
)
"""(a, b) of ``a + b * points`` per stage."""
WIN_CURVES: Final[tuple[tuple[float, float], ...]] = (
    (0.1727, 1.0197), (0.2161, 1.0667), (-0.1791, 0.992), (-0.5509, 0.7218), (-0.8708, 0.7188),
)
"""(c, d) of the logistic curve per stage."""
WIN_CLIP: Final = 1e-3


def rounds_to_come(view: View) -> int:
    """Full tables the deck can still set after the round under way (R4, R10)."""
    return view.deck_size // (2 * view.num_players)


def stage_of(view: View) -> int:
    """The stage (an index of :data:`STAGES`) of the position ``view`` shows."""
    rounds = rounds_to_come(view)
    for index, (low, high) in enumerate(STAGES):
        if low <= rounds <= high:
            return index
    return len(STAGES) - 1


def points(stage: int, raw: float) -> float:
    """The corrected expected final points (R11) for the network's ``raw`` points."""
    a, b = POINTS_LINES[stage]
    return max(0.0, a + b * raw)


def win_chance(stage: int, raw: float) -> float:
    """The corrected share of the win (R12) for the network's ``raw`` win share."""
    c, d = WIN_CURVES[stage]
    p = min(1.0 - WIN_CLIP, max(WIN_CLIP, raw))
    z = c + d * math.log(p / (1.0 - p))
    return 1.0 / (1.0 + math.exp(-z))


__all__ = ["POINTS_LINES", "STAGES", "WIN_CURVES", "points", "stage_of", "win_chance"]
