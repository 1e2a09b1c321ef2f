"""The one protocol every bot follows."""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from kingsbreakfast.engine import Action, View


@runtime_checkable
class Bot(Protocol):
    """Chooses a legal action from what one seat may know.

    A bot receives a :class:`View` (never the state, so it cannot peek at hidden cards) and
    an explicit random generator (so the same seed, view and budget give the same move).
    The project's bots also carry ``description``, one paragraph on how they play (see
    :func:`kingsbreakfast.bots.describe_bot`); it is not required of other bots.
    """

    name: str

    def act(self, view: View, rng: random.Random) -> Action: ...


def legal_choices(view: View) -> tuple[Action, ...]:
    """The mover's legal actions, never none: asking a bot to move in a finished game is the
    caller's mistake, and it is told so in the same words by every bot."""
    legal = view.legal_actions()
    if not legal:
        raise ValueError("the game is over: there is no action to choose")
    return legal
