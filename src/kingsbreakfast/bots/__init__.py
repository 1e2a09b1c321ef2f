"""Players that are programs. A bot sees only a player's view, never the full state.

Every bot and difficulty level is one entry of :data:`.registry.BOTS`: ``make_bot(name)``
builds it, ``describe_bot(name)`` says in one paragraph how it plays, and ``LEVELS`` lists
the levels weakest first. :mod:`.hint` ranks a view's legal actions for players who want to
learn.
"""

from .base import Bot
from .greedy import GreedyBot
from .heuristic import HeuristicBot
from .ismcts import IsmctsBot
from .random_bot import RandomBot
from .registry import (
    BOT_NAMES,
    BOTS,
    LEVELS,
    OPPONENT_LEVELS,
    BotEntry,
    UnknownBotError,
    batch_policy,
    describe_bot,
    find_bot,
    make_bot,
)

__all__ = [
    "BOTS",
    "BOT_NAMES",
    "LEVELS",
    "OPPONENT_LEVELS",
    "Bot",
    "BotEntry",
    "GreedyBot",
    "HeuristicBot",
    "IsmctsBot",
    "RandomBot",
    "UnknownBotError",
    "batch_policy",
    "describe_bot",
    "find_bot",
    "make_bot",
]
