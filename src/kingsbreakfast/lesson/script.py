"""The lesson's game: who sits where, the fixed deck and the moves the bots make.

The lesson is a real game of four (seat 0 learns, seats 1–3 are bots) dealt from a deck
written out card by card, the way a game record fixes a deal (``Record.deck``, R1–R2): the
first five rounds are laid out below as the tables they turn up (R4) and the cards drawn in
them (R7), so the cards that teach something (the cheese to take, the king's leftovers, the
dragon on the table, the dragon the learner draws) come exactly when the steps need them.
The rest of the deck follows in the order of a seeded shuffle, so the game after the taught
rounds is an ordinary one that ends by R10.

The bots' moves in rounds 1–4 are fixed here; from round 5 on, every bot plays
:func:`plain_choice`, which reads only the bot's own view.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Final

from kingsbreakfast.engine import (
    CARD_IDS,
    DRAW_ID,
    PLACE_DRAGON_ID,
    Action,
    Record,
    State,
    View,
    shuffled_deck,
)

PLAYERS: Final = 4
LEARNER: Final = 0
"""The learner's seat; the first cook (R2), so the learner moves first in round 1 (R5)."""
FIRST_COOK: Final = 0
WINE_TAKER: Final = 3
"""The bot who takes 2 wine in round 4: the feed step names it (R8 spoils its wine)."""
TAIL_SEED: Final = 25
"""Orders the cards no taught round uses (a fixed shuffle: every lesson is the same game)."""


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn of a taught round: the seat, its moves (two when a drawn dragon is placed or
    used, R7a) and, for a draw, the card it turns up."""

    seat: int
    moves: tuple[str, ...]
    drawn: str | None = None


@dataclass(frozen=True, slots=True)
class TaughtRound:
    table: tuple[str, ...]
    """The 2 × players cards the cook turns up (R4), dish by dish."""
    turns: tuple[Turn, ...]
    """In playing order from the cook (R5); the learner's turns are the steps' moves."""


def _cards(**counts: int) -> tuple[str, ...]:
    return tuple(card for card, count in counts.items() for _ in range(count))


ROUNDS: Final = (
    # round 1, the learner cooks: 3 cheese to take (R6); the 2 wine go to the king (R9)
    TaughtRound(
        _cards(cheese=3, ham=2, bread=1, wine=2),
        (
            Turn(0, ("take cheese",)),
            Turn(1, ("take ham",)),
            Turn(2, ("draw",), "fruit"),
            Turn(3, ("take bread",)),
        ),
    ),
    # round 2: the learner draws a fourth cheese (R7); cake, wine and cheese go to the king
    TaughtRound(
        _cards(ham=2, chicken=2, cake=2, wine=1, cheese=1),
        (
            Turn(1, ("take ham",)),
            Turn(2, ("take chicken",)),
            Turn(3, ("draw",), "cake"),
            Turn(0, ("draw",), "cheese"),
        ),
    ),
    # round 3: the king holds 1 cheese against the learner's 4, so the learner leaves the
    # 3 cheese on the table for him (R9, R11) and takes the fruit
    TaughtRound(
        _cards(cheese=3, ham=2, bread=2, fruit=1),
        (
            Turn(2, ("take bread",)),
            Turn(3, ("draw",), "fruit"),
            Turn(0, ("take fruit",)),
            Turn(1, ("take ham",)),
        ),
    ),
    # round 4: a dragon turns up with the table; Dee takes 2 wine, the king holds 3, and
    # the learner feeds the dragon two of the king's wine (R8)
    TaughtRound(
        (*_cards(wine=2, ham=2, chicken=2, fruit=1), "dragon"),
        (
            Turn(3, ("take wine",)),
            Turn(0, ("feed wine wine",)),
            Turn(1, ("take chicken",)),
            Turn(2, ("draw",), "bread"),
        ),
    ),
    # round 5, the learner cooks again and draws a dragon (R7a); from here on the bots play
    # plain_choice and the learner plays freely until the end (R10)
    TaughtRound(
        _cards(cake=2, bread=2, chicken=2, ham=1, cheese=1),
        (Turn(0, ("draw",), "dragon"),),
    ),
)


def _top_cards() -> list[str]:
    cards: list[str] = []
    for taught in ROUNDS:
        cards.extend(taught.table)
        cards.extend(turn.drawn for turn in taught.turns if turn.drawn is not None)
    return cards


def lesson_deck() -> tuple[str, ...]:
    """The whole deck, top first: the taught rounds' cards, then every other card of R1 in
    the order a shuffle seeded with :data:`TAIL_SEED` puts them."""
    top = _top_cards()
    left = Counter(top)
    tail: list[str] = []
    for card in shuffled_deck(random.Random(TAIL_SEED)):
        name = CARD_IDS[card]
        if left[name]:
            left[name] -= 1
        else:
            tail.append(name)
    return (*top, *tail)


def lesson_record(players: tuple[str, ...]) -> Record:
    """The lesson's deal as a game record with no moves yet (``players``: four names)."""
    deck = tuple(CARD_IDS.index(card) for card in lesson_deck())
    return Record(players=players, deck=deck, first_cook=FIRST_COOK)


def lesson_start(players: tuple[str, ...]) -> State:
    return lesson_record(players).start()


def scripted_moves() -> dict[tuple[int, int], tuple[Action, ...]]:
    """The bots' fixed moves of the taught rounds, by (round, seat)."""
    moves: dict[tuple[int, int], tuple[Action, ...]] = {}
    for number, taught in enumerate(ROUNDS, start=1):
        for turn in taught.turns:
            if turn.seat != LEARNER:
                moves[(number, turn.seat)] = tuple(Action.parse(m) for m in turn.moves)
    return moves


def plain_choice(view: View) -> Action:
    """A bot's move after the taught rounds, from its own view only: place a drawn dragon
    (R7a), draw while the deck has a card (R7), else take the biggest dish, else whatever is
    left (feeding, R8, or passing, R5b). Drawing empties the deck, so the lesson's game comes
    to its end (R10) in a few rounds."""
    legal = view.legal_actions()
    if view.pending_dragon:
        return Action(PLACE_DRAGON_ID)
    if Action(DRAW_ID) in legal:
        return Action(DRAW_ID)
    takes = [action for action in legal if action.kind == "take"]
    if takes:
        return max(takes, key=lambda action: view.table[action.dish or 0])
    return legal[0]
