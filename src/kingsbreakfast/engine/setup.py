"""Before the first card: who may sit down (R2) and which decks a game may be dealt from (R1).

Every way into a game (a record, a seeded shuffle, an unknown deck, a research adapter)
passes these checks, so a bad table size or a short deck is refused once, here, with a
reason a person can read, and the state's own code may trust what it is given.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import CARD_IDS, DECK_SIZE, DRAGON, UNSHUFFLED_DECK, is_full_deck
from .errors import SetupError
from .rules import Rules

MIN_PLAYERS = 3
MAX_PLAYERS = 5

_SHUFFLE_STEPS = tuple((last, float(last + 1)) for last in range(DECK_SIZE - 1, 0, -1))
"""Fisher–Yates' swap positions with their range as a float, worked out once at import so a
shuffle is only the swaps."""


def check_player_count(num_players: object) -> int:
    """R2: 3 to 5 players; anything else is refused with a clear error."""
    if (
        not isinstance(num_players, int)
        or isinstance(num_players, bool)
        or not MIN_PLAYERS <= num_players <= MAX_PLAYERS
    ):
        raise SetupError(
            f"King's Breakfast is played by 3 to 5 players, not {num_players!r} (R2)",
            "bad_player_count",
            players=repr(num_players),
        )
    return num_players


def check_first_cook(first_cook: object, num_players: int) -> None:
    """R2: the first cook is one of the seats."""
    if (
        not isinstance(first_cook, int)
        or isinstance(first_cook, bool)
        or not 0 <= first_cook < num_players
    ):
        raise SetupError(
            f"the first cook must be a seat from 0 to {num_players - 1}, not {first_cook!r}",
            "bad_first_cook",
            first_cook=repr(first_cook),
        )


def check_rules(rules: object) -> None:
    """The variant switches come as one checked ``Rules`` object, never loose values, so the
    legality tables can rely on them."""
    if not isinstance(rules, Rules):
        raise SetupError("rules must be a Rules object", "bad_rules")


def shuffled_deck(rng: random.Random) -> tuple[int, ...]:
    """A uniformly shuffled deck of the 110 cards (R2), top card first.

    Fisher–Yates driven by ``rng.random()`` rather than ``rng.shuffle``: a quarter faster,
    which matters when a shuffle is a third of a simulated game, and uneven only by the
    float's 2**-53 granularity (about 1e-14 per position for 110 cards). Records carry seeds,
    so this must stay the same deck for the same generator, bit for bit.
    """
    cards = list(UNSHUFFLED_DECK)
    uniform = rng.random
    for last, size in _SHUFFLE_STEPS:
        other = int(uniform() * size)  # size is last + 1 as a float: the same product
        cards[last], cards[other] = cards[other], cards[last]
    return tuple(cards)


def deck_numbers(deck: Sequence[int] | Sequence[str]) -> tuple[int, ...]:
    """A deck given as card numbers or card ids, as card numbers, once it is known to be the
    whole deck of R1: a record or a caller may hand over anything, and the state deals from
    it without looking again."""
    if isinstance(deck, str | bytes):
        raise SetupError("the deck must be a list of card ids", "bad_deck")
    cards: list[int] = []
    for position, card in enumerate(deck):
        if isinstance(card, str):
            if card not in CARD_IDS:
                raise SetupError(
                    f"card {position} of the deck, {card!r}, is not a card "
                    f"(cards: {', '.join(CARD_IDS)})",
                    "unknown_card",
                    position=position,
                    card=card,
                )
            cards.append(CARD_IDS.index(card))
        elif isinstance(card, int) and not isinstance(card, bool) and 0 <= card <= DRAGON:
            cards.append(card)
        else:
            raise SetupError(
                f"card {position} of the deck, {card!r}, is not a card", "unknown_card",
                position=position, card=repr(card),
            )
    if not is_full_deck(cards):
        counts = {name: cards.count(number) for number, name in enumerate(CARD_IDS)}
        detail = ", ".join(f"{counts[name]} {name}" for name in CARD_IDS)
        raise SetupError(
            f"the deck must hold 110 cards, 15 of each dish and 5 dragons (R1); "
            f"this one holds {len(cards)}: {detail}",
            "bad_deck",
            size=len(cards),
        )
    return tuple(cards)
