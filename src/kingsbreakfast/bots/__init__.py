"""Players that are programs. A bot sees only a player's view, never the full state.

``make_bot(name)`` builds any bot by name or difficulty level (``LEVELS``, weakest first);
``describe_bot(name)`` says in one paragraph how it plays; :mod:`.hint` ranks a view's legal
actions for players who want to learn.
"""

from .base import Bot
from .greedy import GreedyBot
from .heuristic import HeuristicBot
from .ismcts import IsmctsBot
from .levels import BOT_NAMES, LEVELS, describe_bot, make_bot
from .random_bot import RandomBot

__all__ = [
    "BOT_NAMES",
    "LEVELS",
    "Bot",
    "GreedyBot",
    "HeuristicBot",
    "IsmctsBot",
    "RandomBot",
    "describe_bot",
    "make_bot",
]
