"""One tensor of a player's view, shared by the OpenSpiel, PettingZoo and Gymnasium adapters.

Learning code wants a fixed-length vector whose every entry means the same thing in every
game: so the length does not depend on the number of players (seats are padded to five),
seats are counted from the viewer (slot 0 is always "me", slot 1 the player to my left…),
and every entry is scaled into [0, 1] by the largest value it can take. The vector is made
from a :class:`~kingsbreakfast.engine.View` only, so it cannot carry a card the viewer may
not know (docs/rules.md, *Who sees what*).

The layout is the table :data:`FIELDS` (name, size, divisor, meaning); ``docs/research.md``
prints it. Standard library only, so any adapter (or a user's own code) may import it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from kingsbreakfast.engine import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    MUST_DRAW,
    NUM_DISHES,
    State,
    View,
    unseen_cards,
)

MAX_ROUNDS: Final = 18
"""110 // (2 × 3): no game has more rounds (R4, R10)."""
MAX_HIDDEN: Final = MAX_ROUNDS
"""A player draws at most one dish card per turn and has one turn a round (R5, R7)."""


@dataclass(frozen=True, slots=True)
class Field:
    """A run of entries of the tensor: ``size`` numbers, each raw value / ``scale``."""

    name: str
    size: int
    scale: int
    meaning: str


def _seat_fields() -> list[Field]:
    fields = []
    for slot in range(MAX_PLAYERS):
        who = "me" if slot == 0 else f"the player {slot} seat{'s' * (slot > 1)} to my left"
        fields.append(
            Field(f"takes_{slot}", NUM_DISHES, 15, f"cards taken from the table by {who}")
        )
        fields.append(
            Field(f"hidden_{slot}", 1, MAX_HIDDEN, f"dish cards drawn (hidden) by {who}")
        )
    return fields


FIELDS: Final[tuple[Field, ...]] = (
    Field("players", 3, 1, "one-hot number of players: 3, 4, 5"),
    Field("variants", 2, 1, "empty_table is must_draw; dragon_min_on_table is 2"),
    Field("to_move", MAX_PLAYERS, 1, "one-hot seat to move, counted from me (0 when over)"),
    Field("cook", MAX_PLAYERS, 1, "one-hot cook, counted from me"),
    Field("pending_dragon", 1, 1, "the player to move drew a dragon and must use or place it"),
    Field("deck", 1, 110, "cards in the deck"),
    Field("round", 1, MAX_ROUNDS, "round number (1 = first)"),
    Field("turns_left", 1, MAX_PLAYERS, "turns left in this round, the current one included"),
    Field("table", NUM_DISHES, 15, "dish cards on the table, by dish"),
    Field("table_dragons", 1, 5, "dragons on the table"),
    Field("king", NUM_DISHES, 15, "the king's dishes"),
    Field("removed_dishes", NUM_DISHES, 15, "the king's dishes the dragon took, by dish"),
    Field("removed_dragons", 1, 5, "dragons used"),
    Field("removed_unseen", 1, 110, "cards left in the deck at the end (R10)"),
    Field("my_draws", NUM_DISHES, 15, "my own drawn dish cards, by dish (0 if not known)"),
    Field("unseen", NUM_DISHES, 15, "dish cards I cannot place: deck and others' draws"),
    Field("unseen_dragons", 1, 5, "dragons still in the deck"),
    *_seat_fields(),
)
"""The layout, in order. Dishes are in R1 order (bread, cheese, ham, chicken, fruit, cake,
wine); seat slots beyond the number of players are 0."""

SIZE: Final = sum(field.size for field in FIELDS)
"""Length of the tensor (the same for every number of players)."""


def offsets() -> dict[str, tuple[int, int]]:
    """Field name → (start, stop) in the tensor."""
    out = {}
    start = 0
    for field in FIELDS:
        out[field.name] = (start, start + field.size)
        start += field.size
    return out


def encode(view: View, perspective: int | None = None) -> list[float]:
    """The tensor of ``view``, counted from the viewer's seat.

    A spectator's view (seat None) needs a ``perspective`` seat to count from; it then holds
    no drawn card (OpenSpiel's public observation). Values are floats in [0, 1].
    """
    seat = view.seat if view.seat is not None else perspective
    n = view.num_players
    if seat is None or not 0 <= seat < n:
        raise ValueError(f"encode needs a seat of this {n}-player game to count from")
    out: list[float] = []
    players = [0.0] * 3
    players[n - MIN_PLAYERS] = 1.0
    out += players
    out += [
        float(view.rules.empty_table == MUST_DRAW),
        float(view.rules.dragon_min_on_table == 2),
    ]
    out += _one_hot(None if view.to_move is None else (view.to_move - seat) % n)
    out += _one_hot((view.cook - seat) % n)
    out.append(float(view.pending_dragon))
    out.append(view.deck_size / 110)
    out.append(view.round / MAX_ROUNDS)
    out.append(view.turns_left / MAX_PLAYERS)
    out += [count / 15 for count in view.table]
    out.append(view.table_dragons / 5)
    out += [count / 15 for count in view.king]
    out += [count / 15 for count in view.removed_dishes]
    out.append(view.removed_dragons / 5)
    out.append(view.removed_unseen / 110)
    own = view.hands[seat].draws if view.seat == seat else None
    out += [count / 15 for count in own] if own is not None else [0.0] * NUM_DISHES
    dishes, dragons = unseen_cards(view)
    out += [count / 15 for count in dishes]
    out.append(dragons / 5)
    for slot in range(MAX_PLAYERS):
        if slot < n:
            hand = view.hands[(seat + slot) % n]
            out += [count / 15 for count in hand.takes]
            out.append(hand.hidden / MAX_HIDDEN)
        else:
            out += [0.0] * (NUM_DISHES + 1)
    return out


STATE_FIELDS: Final[tuple[Field, ...]] = (
    Field("public", SIZE, 1, "the view tensor above, counted from seat 0, without draws"),
    *(
        Field(f"draws_{seat}", NUM_DISHES, 15, f"dish cards drawn by seat {seat}, by dish")
        for seat in range(MAX_PLAYERS)
    ),
    Field("deck_dishes", NUM_DISHES, 15, "dish cards in the deck, by dish, not their order "
          "(at the end: the cards put away unseen, R10)"),
    Field("deck_dragons", 1, 5, "dragons in the deck (at the end: put away unseen)"),
)
"""The global state for centralised critics (PettingZoo's ``state()``): everything but the
deck's order. Seats are absolute here (slot k is seat k), since no one is "me"."""

STATE_SIZE: Final = sum(field.size for field in STATE_FIELDS)


def encode_state(state: State) -> list[float]:
    """The global state tensor (:data:`STATE_FIELDS`): the spectator's view counted from
    seat 0, every hidden draw, and what the deck holds. It shows every hidden card: for
    training critics, never for a policy that plays."""
    view = state.view(None)
    out = encode(view, 0)
    n = view.num_players
    deck = [CARDS_PER_DISH_F] * NUM_DISHES
    for dish in range(NUM_DISHES):
        deck[dish] -= view.table[dish] + view.king[dish] + view.removed_dishes[dish]
    for seat in range(MAX_PLAYERS):
        if seat < n:
            draws = state.view(seat).hands[seat].draws
            assert draws is not None
            out += [count / 15 for count in draws]
            for dish in range(NUM_DISHES):
                deck[dish] -= view.hands[seat].takes[dish] + draws[dish]
        else:
            out += [0.0] * NUM_DISHES
    # what is still unseen by everyone is in the deck: dishes counted, dragons likewise
    out += [count / 15 for count in deck]
    dragons = 5 - view.table_dragons - view.removed_dragons - int(view.pending_dragon)
    out.append(dragons / 5)
    return out


CARDS_PER_DISH_F: Final = 15


def _one_hot(slot: int | None) -> list[float]:
    values = [0.0] * MAX_PLAYERS
    if slot is not None:
        values[slot] = 1.0
    return values
