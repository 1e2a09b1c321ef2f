"""The bots and the hint the terminal game plays with, all from :mod:`kingsbreakfast.bots`.

The game builds no bot and no search of its own: it asks the bots package by name (a level
``easy``…``expert`` or a bot ``random``, ``greedy``, ``heuristic``, ``ismcts``) and turns its
hint estimates into the lines the hint screen shows.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from kingsbreakfast.bots import BOT_NAMES, LEVELS, Bot, make_bot
from kingsbreakfast.bots.hint import rank_actions
from kingsbreakfast.engine import Action, View

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


@dataclass(frozen=True, slots=True)
class HintLine:
    """One ranked move of the hint, as the screen shows it."""

    action: Action
    expected_points: float
    win_chance: float
    visits: int


def rank_moves(view: View, rng: random.Random, seconds: float | None = None) -> list[HintLine]:
    """The hint: the bots' ranking of the viewer's legal moves, best first.

    Only the human's own view goes in, so the hint knows exactly what the player knows.
    """
    return [
        HintLine(estimate.action, estimate.expected_points, estimate.win_chance, estimate.visits)
        for estimate in rank_actions(view, rng, seconds=seconds)
    ]
