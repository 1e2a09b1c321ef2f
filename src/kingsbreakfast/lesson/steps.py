"""The lesson's steps: one rule each, what the learner reads, and the move that ends it.

A step's texts are English message ids marked for the translators (``N_``) and translated
when a front shows them, so the terminal and the browser read the same words from the same
catalogues. A step ends when the learner makes a move it accepts; the last one accepts any
legal move and lasts until the game is over (R10).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from kingsbreakfast.engine import DRAW_ID, PLACE_DRAGON_ID, Action
from kingsbreakfast.i18n import N_


@dataclass(frozen=True, slots=True)
class Step:
    key: str
    """Names the step for the fronts and the tests (``take``, ``draw``, …)."""
    rules: tuple[str, ...]
    """The sections of docs/rules.md the step teaches."""
    title: str
    text: str
    """What the step explains; ``{name}`` is filled with the name of the bot it speaks of
    (:data:`~.script.WINE_TAKER`)."""
    task: str
    """The move asked for, in a few words (repeated when the learner does something else)."""
    accepts: Callable[[Action], bool]
    example: Action
    """The move that passes the step in the lesson's game (what the tests play)."""
    to_the_end: bool = False
    """The step lasts until the game is over (every legal move is welcome)."""


def _only(text: str) -> Callable[[Action], bool]:
    wanted = Action.parse(text)
    return lambda action: action == wanted


def _dragon_choice(action: Action) -> bool:
    return action == PLACE_DRAGON_ID or action.kind == "feed"


STEPS: Final = (
    Step(
        "take",
        ("R4", "R5", "R6"),
        N_("Taking a dish"),
        N_(
            "You are the cook of the first round: you turned up 8 cards, twice as many as "
            "there are players, and you move first. On your turn you may take one dish from "
            "the table, always every card of it. The cheese is worth having: take all 3."
        ),
        N_("Take the cheese."),
        _only("take cheese"),
        Action.parse("take cheese"),
    ),
    Step(
        "draw",
        ("R7",),
        N_("Drawing a card"),
        N_(
            "Instead of taking a dish you may draw the top card of the deck. Only you see "
            "what you drew; the others see just that your hand has one card more. "
            "Draw a card."
        ),
        N_("Draw a card."),
        _only("draw"),
        Action(DRAW_ID),
    ),
    Step(
        "king",
        ("R9", "R11"),
        N_("The king's plate"),
        N_(
            "At the end of every round the dishes nobody took go to the king: he now has "
            "3 wine, 2 cake and 1 cheese. When the game ends, every card in your hand scores "
            "as many points as the king has of its dish, but a dish you hold more of than "
            "the king scores nothing. You hold 4 cheese and the king only 1: leave the "
            "3 cheese on the table for him and take the fruit."
        ),
        N_("Take the fruit."),
        _only("take fruit"),
        Action.parse("take fruit"),
    ),
    Step(
        "feed",
        ("R8",),
        N_("Feeding a dragon"),
        N_(
            "A dragon turned up with this table. Instead of taking or drawing you may feed "
            "it: the dragon and two of the king's cards leave the game. {name} has just taken "
            "2 wine, and the king has 3. Feed the dragon two of the king's wine: then {name} "
            "holds more wine than the king, and that wine scores nothing."
        ),
        N_("Feed the dragon two wine."),
        _only("feed wine wine"),
        Action.parse("feed wine wine"),
    ),
    Step(
        "dragon_draw",
        ("R7",),
        N_("Another card from the deck"),
        N_(
            "A new round, and you are the cook again. Draw a card once more: this time "
            "something special comes up."
        ),
        N_("Draw a card."),
        _only("draw"),
        Action(DRAW_ID),
    ),
    Step(
        "dragon",
        ("R7a",),
        N_("A drawn dragon"),
        N_(
            "You drew a dragon! A dragon never stays in a hand: everyone sees it, and you "
            "choose at once. Use it now, and it eats two of the king's cards, or place it on "
            "the table, where anyone may feed it on a later turn."
        ),
        N_("Use the dragon or place it on the table."),
        _dragon_choice,
        Action(PLACE_DRAGON_ID),
    ),
    Step(
        "end",
        ("R10",),
        N_("Playing to the end"),
        N_(
            "Now play on as you like: take a dish, draw or feed a dragon on each turn. When "
            "the cook can no longer turn up 8 cards, the game ends at once and every hand "
            "is scored. Drawing empties the deck sooner."
        ),
        N_("Take a dish, draw or feed a dragon."),
        lambda action: True,
        Action(DRAW_ID),
        to_the_end=True,
    ),
)

