"""Hints: the master bot's value of every legal action, so that players can learn.

Every legal action gets the same treatment: one evaluation by the master bot's network of
the position it leaves (:mod:`.master`), from the view of the seat asking, so a hint never
uses a card the asker cannot see. The rows are sorted by the estimated share of the win,
then the expected points. The network reads dish-blind descriptions (:mod:`.features`), so
two actions that differ only by which dish is which get exactly the same numbers; a search
gave such twins different values and sorted them by how often it happened to try them.
"""

from __future__ import annotations

import importlib.util
import random
from dataclasses import dataclass
from typing import TypedDict

from kingsbreakfast.engine import Action, KingsBreakfastError, View


class HintUnavailableError(KingsBreakfastError, RuntimeError):
    """The master bot's network needs numpy, which the core install leaves out; the front
    ends tell the player which extra brings it (``needs_extra`` in the translated errors)."""

    code = "needs_extra"


class ActionEstimateDict(TypedDict):
    """One estimate in JSON; ``action`` is the action's short text (``take ham``)."""

    action: str
    expected_points: float
    win_chance: float
    behind: float


@dataclass(frozen=True, slots=True)
class ActionEstimate:
    """One legal action with what the master bot expects if it is played."""

    action: Action
    expected_points: float
    """Estimated final score (R11) of the player to move after this action."""
    win_chance: float
    """Estimated share (0-1) of the win for the player to move (R12; a shared win counts in
    part)."""
    behind: float
    """How much win chance this action gives up against the best one (0 for the best)."""

    def to_dict(self) -> ActionEstimateDict:
        return {
            "action": str(self.action),
            "expected_points": self.expected_points,
            "win_chance": self.win_chance,
            "behind": self.behind,
        }


def rank_actions(view: View, rng: random.Random | None = None) -> list[ActionEstimate]:
    """The legal actions of the player to move, best first, with their estimates.

    Best means best for the player to move, and the numbers are the mover's. When the view
    belongs to another seat or a spectator, the mover's hidden draws are unknown and read as
    nothing known about them. The ranking depends on the view alone (``rng`` is accepted so
    that callers treat every hint alike; ties keep the legal order).
    """
    if importlib.util.find_spec("numpy") is None:
        raise HintUnavailableError(
            "hints need numpy, from the 'tui' extra", packages="numpy", extra="tui"
        )
    from .master import MasterBot, action_values

    del rng
    if view.to_move is None:
        raise ValueError("the game is over: there is no action to rank")
    weights = MasterBot().weights
    valued = action_values(view, weights)
    estimates = [
        (action, round(min(1.0, max(0.0, win)), 6), round(max(0.0, points), 6))
        for action, win, points in valued
    ]
    best = max(win for _, win, _ in estimates)
    rows = [
        ActionEstimate(action, points, win, round(best - win, 6))
        for action, win, points in estimates
    ]
    rows.sort(key=lambda e: (-e.win_chance, -e.expected_points))
    return rows


__all__ = ["ActionEstimate", "ActionEstimateDict", "HintUnavailableError", "rank_actions"]
