"""Hints: the value of every legal action, so that players can learn.

Every legal action gets the same treatment, from the view of the seat asking, so a hint never
uses a card the asker cannot see:

* where the action's outcome is settled (:mod:`.settled`: the mover's last action, with
  nothing left that can change the mover's score), the row shows the exact final points,
  worked out by the engine, and the exact result (R12) when that is certain too: ``exact``
  is True and ``result`` says ``win``, ``shared`` or ``loss``;
* in the game's last turns (the last round, at most one seat to play after the mover) the
  action is played out in worlds dealt from the view, master bots finishing the game
  (:mod:`.last_turns`), and the row shows the mean points and share of the win;
* elsewhere the master bot's network (:mod:`.master`) values the position the action
  leaves, and :mod:`.calibration` corrects its two numbers by stage of the game, so that
  they match what happens when the game is played out.

**The order.** The rows are sorted by :func:`utility`, the expected R12 result with the
points as a small part of it: ``win_chance + POINT_WORTH * expected_points``, one point being
worth a ten-thousandth of a win. So a difference of win chance decides unless it is smaller
than a hundredth of a percentage point per point of difference; a player whose chances are
all near zero, or whose loss is settled, is told the move that scores most; equal win chances
(a settled win for every move) are ordered by points. Ties keep the legal order. The weight
is the largest of those ``benchmarks/hint_order.py`` tried that gave up no win share when
played out (a thousandth gave up about 4 points of win share where it changed the first
move).

**With the search** (``search=True``, the chef level's, where its numpy and numba are
installed): the win chance of each action the chef searched is the search's value, its mean
share of the win over the dealt worlds, instead of the network's; the points stay the
network's. Only the mover's own view can be searched (a spectator's or another seat's view
lacks the mover's draws); the seed is fixed, so the numbers depend on the view alone, and
twins (actions with the same network row) share one number. The last turns are played out
with or without it.

Each row has a :class:`~.reasons.Reason` (a key and parameters) that the front ends write in
the player's language. The network reads dish-blind descriptions (:mod:`.features`), the
correction depends only on the stage, and the settled numbers and reasons only on dish
counts, so two actions that differ only by which dish is which get exactly the same numbers.
"""

from __future__ import annotations

import importlib.util
import random
from dataclasses import dataclass
from typing import Any, Final, TypedDict

from kingsbreakfast.engine import Action, KingsBreakfastError, View

from .reasons import Reason, reason
from .settled import Result, settle

POINT_WORTH: Final = 0.0001
"""The share of a win one final point is worth in the hint's order (:func:`utility`)."""


class HintUnavailableError(KingsBreakfastError, RuntimeError):
    """The master bot's network needs numpy, which the core install leaves out; the front
    ends tell the player which extra brings it (``needs_extra`` in the translated errors)."""

    code = "needs_extra"


class ReasonDict(TypedDict):
    """A reason in JSON: its key and parameters (dish ids, numbers), for each front end to
    write in its player's language."""

    key: str
    params: dict[str, str | int]


class ActionEstimateDict(TypedDict):
    """One estimate in JSON; ``action`` is the action's short text (``take ham``)."""

    action: str
    expected_points: float
    win_chance: float
    behind: float
    exact: bool
    result: Result | None
    reason: ReasonDict | None


@dataclass(frozen=True, slots=True)
class ActionEstimate:
    """One legal action with what the hint expects if it is played."""

    action: Action
    expected_points: float
    """Final score (R11) of the player to move after this action: exact when ``exact``,
    else the calibrated estimate."""
    win_chance: float
    """Share (0-1) of the win for the player to move (R12; a shared win counts in part):
    exact when ``result`` is set, else the calibrated estimate."""
    behind: float
    """How much win chance this action gives up against the first row (0 for the first; below
    0 when it has more win chance but ranks lower for its points)."""
    exact: bool = False
    """The points are certain (:mod:`.settled`): no hidden card or later move changes them."""
    result: Result | None = None
    """The R12 result when it is certain: ``win``, ``shared`` or ``loss``."""
    reason: Reason | None = None
    """Why, in rules facts (:mod:`.reasons`); every row of :func:`rank_actions` has one."""

    def to_dict(self) -> ActionEstimateDict:
        return {
            "action": str(self.action),
            "expected_points": self.expected_points,
            "win_chance": self.win_chance,
            "behind": self.behind,
            "exact": self.exact,
            "result": self.result,
            "reason": None if self.reason is None
            else {"key": self.reason.key, "params": dict(self.reason.params)},
        }


def utility(win_chance: float, expected_points: float) -> float:
    """What the hint sorts by: the expected R12 result, then the points (module docstring)."""
    return win_chance + POINT_WORTH * expected_points


SEARCH_SEED: Final = 27
"""The chef's seed for a hint: fixed, so a hint depends on the view alone."""


def _searched(view: View, rows: Any) -> dict[int, float]:
    """The chef's value of each action it searched, by index in the legal order; twins (the
    same network row) get the mean of their searched values."""
    from .registry import make_bot

    chef: Any = make_bot("chef")
    values = [v for _, v in chef.values(view, SEARCH_SEED)]
    groups: dict[bytes, list[int]] = {}
    for i in range(len(values)):
        groups.setdefault(rows[i].tobytes(), []).append(i)
    out: dict[int, float] = {}
    for members in groups.values():
        known = [v for i in members if (v := values[i]) is not None]
        if known:
            for i in members:
                out[i] = sum(known) / len(known)
    return out


def rank_actions(
    view: View, rng: random.Random | None = None, *, search: bool = False
) -> list[ActionEstimate]:
    """The legal actions of the player to move, best first, with their estimates.

    Best means best for the player to move, and the numbers are the mover's. When the view
    belongs to another seat or a spectator, the mover's hidden draws are unknown and read as
    nothing known about them (and nothing is settled that depends on them). The ranking
    depends on the view alone (``rng`` is accepted so that callers treat every hint alike;
    ties keep the legal order). ``search`` takes the win chances of the actions the chef
    level searches from its search (module doc).
    """
    if importlib.util.find_spec("numpy") is None:
        raise HintUnavailableError(
            "hints need numpy, from the 'tui' extra", packages="numpy", extra="tui"
        )
    from . import calibration
    from .last_turns import is_played_out, played_out
    from .master import MasterBot, row_values, view_rows

    del rng
    if view.to_move is None:  # the view's line names the position (it shows nothing hidden)
        raise ValueError(f"the game is over: there is no action to rank ({view.to_text()})")
    if search and view.seat != view.to_move:
        raise ValueError("the search hints only the seat to move, from its own view "
                         f"({view.to_text()})")
    legal, features = view_rows(view)
    numbers: dict[int, tuple[float, float]] = {}
    if is_played_out(view):
        numbers = dict(enumerate(played_out(view)))
    else:
        stage = calibration.stage_of(view)
        searched = _searched(view, features) if search else {}
        for index, (raw_win, raw_points) in enumerate(row_values(features, MasterBot().weights)):
            win = searched.get(index, calibration.win_chance(stage, raw_win))
            numbers[index] = (win, calibration.points(stage, raw_points))
    shares = {"win": 1.0, "loss": 0.0}
    rows = []
    for index, action in enumerate(legal):
        settled = settle(view, action)
        win, points = numbers[index]
        result = None
        if settled is not None:
            points = float(settled.points)
            result = settled.result
            if result is not None:
                win = shares.get(result, settled.share)
        rows.append(ActionEstimate(
            action, round(points, 6), round(min(1.0, max(0.0, win)), 6), 0.0,
            exact=settled is not None, result=result, reason=reason(view, action),
        ))
    rows.sort(key=lambda e: -utility(e.win_chance, e.expected_points))
    top = rows[0].win_chance
    return [
        ActionEstimate(e.action, e.expected_points, e.win_chance, round(top - e.win_chance, 6),
                       exact=e.exact, result=e.result, reason=e.reason)
        for e in rows
    ]


__all__ = [
    "POINT_WORTH",
    "ActionEstimate",
    "ActionEstimateDict",
    "HintUnavailableError",
    "ReasonDict",
    "rank_actions",
    "utility",
]
