"""The 110 cards of R1 as small integers.

Dishes are numbered in the order of the R1 table (that order is used by every table, tensor
and printout of the project); the dragon gets the next number. Small integers keep the hot
paths of the engine to list indexing.
"""

from __future__ import annotations

from typing import Final

DISHES: Final = ("bread", "cheese", "ham", "chicken", "fruit", "cake", "wine")
"""Canonical dish ids (R1), in R1 order; a dish's number is its index here."""

NUM_DISHES: Final = 7
BREAD, CHEESE, HAM, CHICKEN, FRUIT, CAKE, WINE = range(NUM_DISHES)
DRAGON: Final = 7
DRAGON_ID: Final = "dragon"

CARDS_PER_DISH: Final = 15
NUM_DRAGONS: Final = 5
DECK_SIZE: Final = NUM_DISHES * CARDS_PER_DISH + NUM_DRAGONS  # 110

CARD_IDS: Final = (*DISHES, DRAGON_ID)
"""Card id of every card number: the dishes, then ``dragon``."""

_CARD_BY_ID: Final = {name: number for number, name in enumerate(CARD_IDS)}

UNSHUFFLED_DECK: Final = tuple(
    [dish for dish in range(NUM_DISHES) for _ in range(CARDS_PER_DISH)] + [DRAGON] * NUM_DRAGONS
)
"""All 110 cards, dish by dish; shuffle a copy to start a game."""


def dish_number(dish_id: str) -> int:
    """The number of a dish id; the dragon and unknown names raise KeyError."""
    number = _CARD_BY_ID[dish_id]
    if number == DRAGON:
        raise KeyError(dish_id)
    return number


def is_full_deck(cards: list[int] | tuple[int, ...]) -> bool:
    """True when ``cards`` is a complete deck: 110 cards, 15 of each dish and 5 dragons."""
    if len(cards) != DECK_SIZE:
        return False
    counts = [0] * (NUM_DISHES + 1)
    for card in cards:
        counts[card] += 1
    return counts == [CARDS_PER_DISH] * NUM_DISHES + [NUM_DRAGONS]


def dish_counts(cards: list[int] | tuple[int, ...]) -> dict[str, int]:
    """Counts keyed by dish id, all seven present in R1 order (the record format's shape)."""
    return {name: cards[number] for number, name in enumerate(DISHES)}
