"""The bots and the hint search the terminal game plays with, found in :mod:`kingsbreakfast.bots`.

The game builds no bot and no search of its own: it asks the bots package by name (``random``,
``greedy``, ``heuristic``, ``ismcts`` or a level ``easy``…``expert``). The factory and the hint
are looked up when first used, so this module keeps working with an older bots package that
has only :class:`RandomBot` (then only ``random`` is offered and the hint says it is missing).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from kingsbreakfast.bots import Bot, RandomBot
from kingsbreakfast.engine import Action, View

DEFAULT_LEVEL = "medium"


class UnknownBotError(ValueError):
    """A bot name the bots package does not know; the message lists the names it does."""


def _factory() -> Callable[..., Bot] | None:
    module = importlib.import_module("kingsbreakfast.bots")
    found = getattr(module, "make_bot", None)
    return cast("Callable[..., Bot] | None", found)


def bot_names() -> tuple[str, ...]:
    """The names ``--bots`` accepts: the levels first, then the bot kinds."""
    module = importlib.import_module("kingsbreakfast.bots")
    if _factory() is None:
        return ("random",)
    levels = tuple(getattr(module, "LEVELS", {}))
    kinds = ("random", "greedy", "heuristic", "ismcts")
    return (*levels, *(kind for kind in kinds if kind not in levels))


def default_bot() -> str:
    """The opponent a newcomer gets: a medium level when the levels exist, else random."""
    names = bot_names()
    return DEFAULT_LEVEL if DEFAULT_LEVEL in names else names[0]


def make_opponent(name: str) -> Bot:
    """A bot by name; :class:`UnknownBotError` names the choices when it is not known."""
    factory = _factory()
    if factory is None:
        if name == "random":
            return RandomBot()
        raise UnknownBotError(f"unknown bot {name!r} (this version has: random)")
    try:
        return factory(name)
    except (KeyError, ValueError) as error:
        raise UnknownBotError(
            f"unknown bot {name!r} (choose from {', '.join(bot_names())}): {error}"
        ) from None


@dataclass(frozen=True, slots=True)
class HintLine:
    """One ranked move of the hint, as the screen shows it."""

    action: Action
    expected_points: float
    win_chance: float
    visits: int


def hint_available() -> bool:
    return _ranker() is not None


def _ranker() -> Callable[..., Sequence[Any]] | None:
    try:
        module = importlib.import_module("kingsbreakfast.bots.hint")
    except ImportError:
        return None
    return cast("Callable[..., Sequence[Any]] | None", getattr(module, "rank_actions", None))


def rank_moves(view: View, rng: random.Random, seconds: float | None = None) -> list[HintLine]:
    """The hint: the bots' ranking of the viewer's legal moves, best first.

    Only the human's own view goes in, so the hint knows exactly what the player knows.
    Returns an empty list when the hint search is not installed.
    """
    rank = _ranker()
    if rank is None:
        return []
    estimates = rank(view, rng, seconds=seconds)
    return [
        HintLine(
            Action(int(estimate.action)),
            float(estimate.expected_points),
            float(estimate.win_chance),
            int(estimate.visits),
        )
        for estimate in estimates
    ]
