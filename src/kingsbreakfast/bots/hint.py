"""Hints: the search's ranking of the legal actions, so that players can learn.

The user interfaces call :func:`rank_actions` with the view of the seat asking; the numbers
come from an ISMCTS search from that view, so a hint never uses a card the asker cannot see.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TypedDict

from kingsbreakfast.engine import Action, View

from .ismcts import IsmctsBot

HINT_SIMULATIONS = 3000
"""Default budget when neither simulations nor seconds is given: about a second's search."""


class ActionEstimateDict(TypedDict):
    """One estimate in JSON; ``action`` is the action's short text (``take ham``)."""

    action: str
    expected_points: float
    win_chance: float
    visits: int


@dataclass(frozen=True, slots=True)
class ActionEstimate:
    """One legal action with what the search expects if it is played."""

    action: Action
    expected_points: float
    """Estimated final score (R11) of the viewing seat after this action."""
    win_chance: float
    """Estimated chance (0-1) that the viewing seat wins (R12; a shared win counts in part)."""
    visits: int
    """Simulations that went through this action: how much the estimate is worth."""

    def to_dict(self) -> ActionEstimateDict:
        return {
            "action": str(self.action),
            "expected_points": self.expected_points,
            "win_chance": self.win_chance,
            "visits": self.visits,
        }


def rank_actions(
    view: View,
    rng: random.Random,
    simulations: int | None = None,
    seconds: float | None = None,
) -> list[ActionEstimate]:
    """The legal actions of the player to move, best first, with their estimates.

    Best means best for the player to move. When the view belongs to another seat (or to a
    spectator), the ranking is still the mover's, and the points and win chance are the
    viewer's (a spectator sees the mover's): "if Bob takes ham, this is where you stand".
    The same seed, view and simulation budget give the same ranking.
    """
    if view.to_move is None:
        raise ValueError("the game is over: there is no action to rank")
    if simulations is None and seconds is None:
        simulations = HINT_SIMULATIONS
    bot = IsmctsBot(simulations=simulations, seconds=seconds)
    return [
        ActionEstimate(r.action, r.viewer_points, r.viewer_wins, r.visits)
        for r in bot.search(view, rng)
    ]


__all__ = ["HINT_SIMULATIONS", "ActionEstimate", "ActionEstimateDict", "rank_actions"]
