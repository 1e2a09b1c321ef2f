"""Rigged decks: put chosen cards on top so a test can walk into any situation of the rules.

The cards after the chosen ones follow in R1 order (all remaining bread, then cheese, …,
then the remaining dragons), so a test can also know what comes later.
"""

from __future__ import annotations

from kingsbreakfast.engine import CARD_IDS, Rules, State
from kingsbreakfast.engine.cards import UNSHUFFLED_DECK


def rigged_deck(*top: str) -> list[str]:
    rest = [CARD_IDS[card] for card in UNSHUFFLED_DECK]
    for card in top:
        rest.remove(card)  # ValueError if a test asks for more than exists
    return [*top, *rest]


def rigged(
    *top: str, players: int = 3, first_cook: int = 0, rules: Rules | None = None
) -> State:
    return State(rigged_deck(*top), players, first_cook, rules or Rules())


def play_all(state: State, *actions: str) -> State:
    for action in actions:
        state.play(action)
    return state
