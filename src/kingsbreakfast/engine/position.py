"""Every field of a game state, as plain immutable values: what a state is made from when no
sequence of actions from a deal leads to it.

Two engine modules need a state known only by its facts: :mod:`.text` reads a state back
from the line it was written as, and :mod:`.determinize` deals a world that agrees with one
seat's view. Neither may write a :class:`~.state.State`'s private fields itself; each builds a
:class:`Position` and asks ``State.from_position`` for the state, and :mod:`.text` writes a
state's line from ``State.position()``. The fields keep the state's own encodings (the turn
as a seat or :data:`~.reading.OVER` / :data:`~.reading.TURNING_UP`, a turn of the history as
``seat << SEAT_SHIFT | action id``), so nothing is converted twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import Rules
from .views import Turn


@dataclass(frozen=True, slots=True, kw_only=True)
class Position:
    """A game state's fields (R1-R12). ``State.from_position`` trusts them: the caller has
    checked that every card is somewhere once (R1), as :mod:`.text` and :mod:`.determinize`
    do."""

    num_players: int
    rules: Rules
    first_cook: int
    deck: tuple[int, ...]
    """The deck's cards, top first: the whole deck (``full_deck``), or only what is left."""
    full_deck: bool
    known: bool
    """False when the deck's order is unknown and each card turned up is a chance step."""
    top: int
    """Cards of ``deck`` already turned up or drawn."""
    left: int
    """Cards in the deck (public, R4, R7)."""
    unseen: tuple[int, ...]
    """Unknown order only: the deck's cards by kind (dishes, then dragons)."""
    turning: int
    """Cards still to turn up for the table at a chance step (R4)."""
    drawer: int
    """The seat whose draw waits for its card at a chance step (R7), else -1."""
    table: tuple[int, ...]
    """Dish counts on the table, then the dragons lying there."""
    king: tuple[int, ...]
    takes: tuple[tuple[int, ...], ...]
    draws: tuple[tuple[int, ...], ...]
    removed_dishes: tuple[int, ...]
    removed_dragons: int
    removed_unseen: int
    to_move: int
    """The seat to move, or OVER once the game is over, or TURNING_UP at a chance step."""
    cook: int
    round: int
    pending: bool
    """The seat to move drew a dragon and must use or place it (R7a)."""
    history: tuple[int, ...]
    """Each turn as ``seat << SEAT_SHIFT | action id``."""
    turns: tuple[Turn, ...] = ()
    """The history as Turn objects where the caller has them already (a view's), else ()."""


__all__ = ["Position"]
