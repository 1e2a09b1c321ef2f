"""Players that are programs. A bot sees only a player's view, never the full state."""

from .base import Bot
from .random_bot import RandomBot

__all__ = ["Bot", "RandomBot"]
