"""Bots by name and the difficulty levels the user interfaces offer."""

from __future__ import annotations

from typing import Any, Final

from .base import Bot
from .greedy import GreedyBot
from .heuristic import HeuristicBot
from .ismcts import IsmctsBot
from .random_bot import RandomBot

LEVELS: Final = ("easy", "medium", "hard", "expert")
"""Difficulty levels, weakest first."""

BOT_NAMES: Final = ("random", "greedy", "heuristic", "ismcts")

MEDIUM_MISTAKES: Final = 0.25
"""Share of medium's moves played at random: a step below hard, which is the same card
counter without slips."""
EXPERT_SIMULATIONS: Final = 1000
"""Expert's search budget. Its strength against the card counter levels off after a few
hundred simulations (docs/analysis.md), so more would only make players wait."""

_LEVEL_TEXT: Final = {
    "easy": "Easy is the greedy bot. ",
    "medium": (
        f"Medium is the heuristic bot, except that {round(100 * MEDIUM_MISTAKES)}% of its "
        "moves are random slips. "
    ),
    "hard": "Hard is the heuristic bot, without slips. ",
    "expert": f"Expert is the ismcts bot with {EXPERT_SIMULATIONS} simulations a move. ",
}


def make_bot(name: str, **options: Any) -> Bot:
    """A bot by its name (``random``, ``greedy``, ``heuristic``, ``ismcts``) or level
    (``easy``, ``medium``, ``hard``, ``expert``).

    Options go to the bot: ``simulations`` and ``seconds`` (ismcts, expert),
    ``exploration``, ``rollout_rounds``, ``prior_weight``, ``world_reuse`` (ismcts, expert),
    ``leader_weight`` and ``mistakes`` (heuristic, medium, hard).
    """
    key = name.strip().lower()
    bot: GreedyBot | HeuristicBot | IsmctsBot | RandomBot
    try:
        if key == "random":
            _no_options(key, options)
            bot = RandomBot()
        elif key in ("greedy", "easy"):
            _no_options(key, options)
            bot = GreedyBot()
        elif key in ("heuristic", "hard"):
            bot = HeuristicBot(**options)
        elif key == "medium":
            bot = HeuristicBot(**{"mistakes": MEDIUM_MISTAKES, **options})
        elif key in ("ismcts", "expert"):
            opts = dict(options)
            if "simulations" not in opts:  # a time budget alone is a time budget only
                if "seconds" in opts:
                    opts["simulations"] = None
                elif key == "expert":
                    opts["simulations"] = EXPERT_SIMULATIONS
            bot = IsmctsBot(**opts)
        else:
            raise ValueError(
                f"unknown bot {name!r}: choose one of {', '.join(BOT_NAMES + LEVELS)}"
            )
    except TypeError as error:  # an option the bot does not take
        raise ValueError(f"bad option for bot {name!r}: {error}") from None
    if key in LEVELS:
        bot.name = key
        bot.description = describe_bot(key)
    return bot


def _no_options(name: str, options: dict[str, Any]) -> None:
    if options:
        raise ValueError(f"bot {name!r} takes no options (got {', '.join(sorted(options))})")


def describe_bot(name: str) -> str:
    """One paragraph on how the bot or level plays (for menus and ``--help``)."""
    key = name.strip().lower()
    if key == "random":
        return RandomBot.description
    if key == "greedy":
        return GreedyBot.description
    if key == "heuristic":
        return HeuristicBot.description
    if key == "ismcts":
        return IsmctsBot.description
    if key in ("easy", "medium", "hard"):
        base = GreedyBot.description if key == "easy" else HeuristicBot.description
        return _LEVEL_TEXT[key] + base
    if key == "expert":
        return _LEVEL_TEXT[key] + IsmctsBot.description
    raise ValueError(f"unknown bot {name!r}: choose one of {', '.join(BOT_NAMES + LEVELS)}")
