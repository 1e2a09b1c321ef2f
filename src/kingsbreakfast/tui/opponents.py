"""The bots and the hint the terminal game plays with, all from :mod:`kingsbreakfast.bots`.

The game builds no bot and no search of its own: it asks the bots package by name (a level
``easy``…``expert`` or a bot ``random``, ``greedy``, ``heuristic``, ``ismcts``), and the hint
screen shows the bots' own estimates, so the two cannot disagree on what a hint holds.
"""

from __future__ import annotations

import random

from kingsbreakfast.bots import BOT_NAMES, LEVELS, Bot, make_bot
from kingsbreakfast.bots.hint import ActionEstimate, rank_actions
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
    """The hint: the master bot's value of each of the viewer's legal moves, best first.

    Only the human's own view goes in, so the hint knows exactly what the player knows.
    ``seconds`` was the search's budget; the network answers at once, so it is not needed.
    """
    del seconds
    return rank_actions(view, rng)
