"""The observation tensor: one fixed-length vector of a player's view, its layout and writer.

Learning code wants a fixed-length vector whose every entry means the same thing in every
game: so the length does not depend on the number of players (seats are padded to five),
seats are counted from the viewer (slot 0 is always "me", slot 1 the player to my left…),
and every entry is scaled into [0, 1] by the largest value it can take. The vector is made
from what the viewer may know only, so it cannot carry a card the viewer may not see
(docs/rules.md, *Who sees what*).

The layout is the table :data:`FIELDS` (name, size, scale, meaning), :data:`OBS_SIZE` long;
``docs/research.md`` prints it. :func:`write_observation` is the one writer: it reads plain
numbers and indexable rows only (no Python objects, no numpy), so the compiled simulator
(``compiled/rules.py``) compiles this very function with numba while :func:`encode`
runs it as ordinary Python over a :class:`~kingsbreakfast.engine.View`; both write the same
numbers by construction. An array back end that cannot run Python (JAX) reads
:data:`FIELDS` and :func:`offsets` for the layout and is held equal by its own test.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from kingsbreakfast.engine import (
    DECK_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MUST_DRAW,
    NUM_DISHES,
    State,
    View,
)

MAX_ROUNDS: Final = 18
"""110 // (2 × 3): no game has more rounds (R4, R10)."""
MAX_HIDDEN: Final = MAX_ROUNDS
"""A player draws at most one dish card per turn and has one turn a round (R5, R7)."""
CARDS_PER_DISH: Final = 15
DRAGONS: Final = 5


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
            Field(
                f"takes_{slot}", NUM_DISHES, CARDS_PER_DISH, f"cards taken from the table by {who}"
            )
        )
        fields.append(Field(f"hidden_{slot}", 1, MAX_HIDDEN, f"dish cards drawn (hidden) by {who}"))
    return fields


FIELDS: Final[tuple[Field, ...]] = (
    Field("players", 3, 1, "one-hot number of players: 3, 4, 5"),
    Field("variants", 2, 1, "empty_table is must_draw; dragon_min_on_table is 2"),
    Field(
        "to_move", MAX_PLAYERS, 1, "one-hot seat to move, counted from me (0 when no seat moves)"
    ),
    Field("cook", MAX_PLAYERS, 1, "one-hot cook, counted from me"),
    Field("pending_dragon", 1, 1, "the player to move drew a dragon and must use or place it"),
    Field("deck", 1, DECK_SIZE, "cards in the deck"),
    Field("round", 1, MAX_ROUNDS, "round number (1 = first)"),
    Field("turns_left", 1, MAX_PLAYERS, "turns left in this round, the current one included"),
    Field("table", NUM_DISHES, CARDS_PER_DISH, "dish cards on the table, by dish"),
    Field("table_dragons", 1, DRAGONS, "dragons on the table"),
    Field("king", NUM_DISHES, CARDS_PER_DISH, "the king's dishes"),
    Field(
        "removed_dishes", NUM_DISHES, CARDS_PER_DISH, "the king's dishes the dragon took, by dish"
    ),
    Field("removed_dragons", 1, DRAGONS, "dragons used"),
    Field("removed_unseen", 1, DECK_SIZE, "cards left in the deck at the end (R10)"),
    Field(
        "my_draws", NUM_DISHES, CARDS_PER_DISH, "my own drawn dish cards, by dish (0 if not known)"
    ),
    Field(
        "unseen", NUM_DISHES, CARDS_PER_DISH, "dish cards I cannot place: deck and others' draws"
    ),
    Field("unseen_dragons", 1, DRAGONS, "dragons still in the deck"),
    *_seat_fields(),
)
"""The layout, in order. Dishes are in R1 order (bread, cheese, ham, chicken, fruit, cake,
wine); seat slots beyond the number of players are 0."""

OBS_SIZE: Final = sum(field.size for field in FIELDS)
"""Length of the tensor (98, the same for every number of players)."""


def offsets() -> dict[str, tuple[int, int]]:
    """Field name → (start, stop) in the tensor."""
    out = {}
    start = 0
    for field in FIELDS:
        out[field.name] = (start, start + field.size)
        start += field.size
    return out


_AT: Final = {name: start for name, (start, _) in offsets().items()}
# The start of every field, as module constants: numba reads a module's integers as
# compile-time constants, so the compiled writer indexes as fast as literal offsets would.
_PLAYERS: Final = _AT["players"]
_VARIANTS: Final = _AT["variants"]
_TO_MOVE: Final = _AT["to_move"]
_COOK: Final = _AT["cook"]
_PENDING: Final = _AT["pending_dragon"]
_DECK: Final = _AT["deck"]
_ROUND: Final = _AT["round"]
_TURNS_LEFT: Final = _AT["turns_left"]
_TABLE: Final = _AT["table"]
_TABLE_DRAGONS: Final = _AT["table_dragons"]
_KING: Final = _AT["king"]
_REMOVED: Final = _AT["removed_dishes"]
_REMOVED_DRAGONS: Final = _AT["removed_dragons"]
_REMOVED_UNSEEN: Final = _AT["removed_unseen"]
_MY_DRAWS: Final = _AT["my_draws"]
_UNSEEN: Final = _AT["unseen"]
_UNSEEN_DRAGONS: Final = _AT["unseen_dragons"]
_SEATS: Final = _AT["takes_0"]
_SEAT_WIDTH: Final = NUM_DISHES + 1
_SCALE_TO_MOVE: Final = MAX_PLAYERS
_MAX_COUNT: Final = DECK_SIZE

SCALED: Final[tuple[tuple[float, ...], ...]] = tuple(
    tuple(0.0 if scale == 0 else count / scale for count in range(_MAX_COUNT + 1))
    for scale in range(_MAX_COUNT + 1)
)
"""``SCALED[scale][count]`` is ``count / scale`` in double precision: the writer looks its
quotients up (a division is a third of the compiled writer's time). The compiled simulator
passes the same table rounded to float32, the type of its observations."""


def write_observation(
    out: Any,
    by: Any,
    n: int,
    seat: int,
    must_draw: bool,
    dragon_min: int,
    to_move: int,
    cook: int,
    pending: bool,
    deck_left: int,
    round_number: int,
    turns_left: int,
    table: Any,
    king: Any,
    removed: Any,
    removed_dragons: int,
    removed_unseen: int,
    takes: Any,
    draws: Any,
    hidden: Any,
    known: bool,
    show_all: bool,
) -> None:
    """Write the tensor of the game as ``seat`` sees it into ``out`` (:data:`OBS_SIZE` long).

    ``by`` is :data:`SCALED`; seats are absolute (``to_move`` is -1 when no seat moves);
    ``table`` has eight entries (the dragons on the table last); ``takes[s][d]`` and
    ``draws[s][d]`` are by seat and dish, ``hidden[s]`` counts seat ``s``'s drawn cards.
    ``known``: ``seat`` is the viewer and its own draws are read (a spectator counting from
    ``seat`` has none); ``show_all``: the game is over and every hand is shown (R11), so no
    drawn card is unseen any more. Draws that are neither are never read.
    """
    by_dish = by[CARDS_PER_DISH]
    by_dragons = by[DRAGONS]
    by_deck = by[DECK_SIZE]
    for i in range(OBS_SIZE):
        out[i] = 0.0
    out[_PLAYERS + n - MIN_PLAYERS] = 1.0
    out[_VARIANTS] = 1.0 if must_draw else 0.0
    out[_VARIANTS + 1] = 1.0 if dragon_min == 2 else 0.0
    if to_move >= 0:
        slot = to_move - seat
        out[_TO_MOVE + (slot + n if slot < 0 else slot)] = 1.0
    slot = cook - seat
    out[_COOK + (slot + n if slot < 0 else slot)] = 1.0
    out[_PENDING] = 1.0 if pending else 0.0
    out[_DECK] = by_deck[deck_left]
    out[_ROUND] = by[MAX_ROUNDS][round_number]
    out[_TURNS_LEFT] = by[_SCALE_TO_MOVE][turns_left]
    for d in range(NUM_DISHES):
        out[_TABLE + d] = by_dish[table[d]]
        out[_KING + d] = by_dish[king[d]]
        out[_REMOVED + d] = by_dish[removed[d]]
        unseen = CARDS_PER_DISH - table[d] - king[d] - removed[d]
        for other in range(n):
            unseen -= takes[other][d]
        if show_all:
            for other in range(n):
                unseen -= draws[other][d]
        elif known:
            unseen -= draws[seat][d]
        if known:
            out[_MY_DRAWS + d] = by_dish[draws[seat][d]]
        out[_UNSEEN + d] = by_dish[unseen]
    out[_TABLE_DRAGONS] = by_dragons[table[NUM_DISHES]]
    out[_REMOVED_DRAGONS] = by_dragons[removed_dragons]
    out[_REMOVED_UNSEEN] = by_deck[removed_unseen]
    dragons = DRAGONS - table[NUM_DISHES] - removed_dragons - (1 if pending else 0)
    out[_UNSEEN_DRAGONS] = by_dragons[dragons]
    for slot in range(n):
        other = seat + slot
        if other >= n:
            other -= n
        base = _SEATS + slot * _SEAT_WIDTH
        for d in range(NUM_DISHES):
            out[base + d] = by_dish[takes[other][d]]
        out[base + NUM_DISHES] = by[MAX_HIDDEN][hidden[other]]


_NO_DRAWS: Final = (0,) * NUM_DISHES


def encode(view: View, perspective: int | None = None) -> list[float]:
    """The tensor of ``view``, counted from the viewer's seat.

    A spectator's view (seat None) needs a ``perspective`` seat to count from; it then holds
    no drawn card (OpenSpiel's public observation). Values are floats in [0, 1].
    """
    seat = view.seat if view.seat is not None else perspective
    n = view.num_players
    if seat is None or not 0 <= seat < n:
        raise ValueError(f"encode needs a seat of this {n}-player game to count from")
    out = [0.0] * OBS_SIZE
    hands = view.hands
    to_move = view.to_move
    write_observation(
        out,
        SCALED,
        n,
        seat,
        view.rules.empty_table == MUST_DRAW,
        view.rules.dragon_min_on_table,
        -1 if to_move is None or to_move < 0 else to_move,
        view.cook,
        view.pending_dragon,
        view.deck_size,
        view.round,
        view.turns_left,
        (*view.table, view.table_dragons),
        view.king,
        view.removed_dishes,
        view.removed_dragons,
        view.removed_unseen,
        [hand.takes for hand in hands],
        [_NO_DRAWS if hand.draws is None else hand.draws for hand in hands],
        [hand.hidden for hand in hands],
        view.seat == seat,
        to_move is None,
    )
    return out


STATE_FIELDS: Final[tuple[Field, ...]] = (
    Field("public", OBS_SIZE, 1, "the view tensor above, counted from seat 0, without draws"),
    *(
        Field(
            f"draws_{seat}", NUM_DISHES, CARDS_PER_DISH, f"dish cards drawn by seat {seat}, by dish"
        )
        for seat in range(MAX_PLAYERS)
    ),
    Field(
        "deck_dishes",
        NUM_DISHES,
        CARDS_PER_DISH,
        "dish cards in the deck, by dish, not their order "
        "(at the end: the cards put away unseen, R10)",
    ),
    Field("deck_dragons", 1, DRAGONS, "dragons in the deck (at the end: put away unseen)"),
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
    deck = [CARDS_PER_DISH] * NUM_DISHES
    for dish in range(NUM_DISHES):
        deck[dish] -= view.table[dish] + view.king[dish] + view.removed_dishes[dish]
    for seat in range(MAX_PLAYERS):
        if seat < n:
            draws = state.view(seat).hands[seat].draws
            assert draws is not None
            out += [count / CARDS_PER_DISH for count in draws]
            for dish in range(NUM_DISHES):
                deck[dish] -= view.hands[seat].takes[dish] + draws[dish]
        else:
            out += [0.0] * NUM_DISHES
    # what is still unseen by everyone is in the deck: dishes counted, dragons likewise
    out += [count / CARDS_PER_DISH for count in deck]
    dragons = DRAGONS - view.table_dragons - view.removed_dragons - int(view.pending_dragon)
    out.append(dragons / DRAGONS)
    return out
