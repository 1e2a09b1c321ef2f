"""What one seat may know (docs/rules.md, *Who sees what*).

A :class:`View` is built from the full state by copying only what its seat may see: every
hand's public takes and hidden-card count, its own drawn cards, and the public facts. It
holds no reference to the state, the deck or a random generator, so nothing reachable from
it (attributes, repr, ``to_dict``) can leak another seat's draws or the deck order.
A spectator's view (seat None) hides every drawn card. When the game is over every hand is
shown (R11: "every player shows their hand"), never the leftover deck.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, NotRequired, TypedDict

from .actions import Action, ActionDict
from .cards import DISHES, dish_counts
from .rules import Rules, RulesDict, explain_illegal, legal_actions
from .scoring import Scoring, score


class Turn(NamedTuple):
    """One entry of the public history: who did what. A ``draw`` followed by the same seat's
    ``place_dragon`` or ``feed`` turned up a dragon (drawn dragons are public, R7b)."""

    seat: int
    action: Action


class HandDict(TypedDict):
    """A hand as a client is sent it: ``draws`` only where the viewer may see them."""

    takes: dict[str, int]
    hidden: int
    draws: NotRequired[dict[str, int]]


class RemovedDict(TypedDict):
    dishes: dict[str, int]
    dragons: int
    unseen: int


class TurnDict(ActionDict):
    """One entry of a view's history: who acted, and the record format's action object."""

    seat: int


class ViewDict(TypedDict):
    """A view in JSON, dish ids as keys: the shape every client (browser, bots over the
    wire) reads, so it is declared once here."""

    seat: int | None
    num_players: int
    rules: RulesDict
    first_cook: int
    round: int
    cook: int
    to_move: int | None
    pending_dragon: bool
    deck: int
    table: dict[str, int]
    table_dragons: int
    king: dict[str, int]
    removed: RemovedDict
    hands: list[HandDict]
    history: list[TurnDict]
    legal: list[str]


@dataclass(frozen=True, slots=True)
class HandView:
    """A hand as one seat sees it: public takes, and drawn cards only where allowed."""

    takes: tuple[int, ...]
    """Cards taken from the table, by dish (public, R6)."""
    hidden: int
    """How many drawn cards the hand holds (the count is public, the cards are not)."""
    draws: tuple[int, ...] | None
    """The drawn cards by dish: the owner's own hand, or every hand once the game is over;
    None where the viewer may not see them."""

    @property
    def size(self) -> int:
        return sum(self.takes) + self.hidden

    @property
    def cards(self) -> tuple[int, ...] | None:
        """The whole hand by dish when it is known to the viewer."""
        if self.draws is None:
            return None
        return tuple(t + d for t, d in zip(self.takes, self.draws, strict=True))

    def to_dict(self) -> HandDict:
        out: HandDict = {"takes": dish_counts(self.takes), "hidden": self.hidden}
        if self.draws is not None:
            out["draws"] = dish_counts(self.draws)
        return out


@dataclass(frozen=True, slots=True)
class View:
    """Everything ``seat`` may know at this moment (None: a spectator)."""

    seat: int | None
    num_players: int
    rules: Rules
    first_cook: int
    round: int
    cook: int
    to_move: int | None
    """The seat to move; -1 while a card is turned up by chance (only for a state whose deck
    order is unknown); None once the game is over."""
    pending_dragon: bool
    """The player to move has just drawn a dragon and must use or place it (R7a)."""
    deck_size: int
    table: tuple[int, ...]
    table_dragons: int
    king: tuple[int, ...]
    removed_dishes: tuple[int, ...]
    """King's cards eaten by dragons, by dish (public)."""
    removed_dragons: int
    removed_unseen: int
    """Cards left in the deck at the end and removed unseen (R10)."""
    hands: tuple[HandView, ...]
    history: tuple[Turn, ...]

    @property
    def finished(self) -> bool:
        return self.to_move is None

    @property
    def removed(self) -> int:
        return sum(self.removed_dishes) + self.removed_dragons + self.removed_unseen

    @property
    def last_round(self) -> bool:
        """No cook can set another table after this round (R4, R10): the deck already holds
        fewer than two cards a player, and it only shrinks."""
        return not self.finished and self.deck_size < 2 * self.num_players

    @property
    def turns_left(self) -> int:
        """Turns still to be taken this round, the current one included."""
        if self.to_move is None:
            return 0
        return self.num_players - (self.to_move - self.cook) % self.num_players

    @property
    def my_hand(self) -> HandView | None:
        return None if self.seat is None else self.hands[self.seat]

    def legal_actions(self) -> tuple[Action, ...]:
        """The actions open to the player to move; legality is public knowledge. None while
        a card is turned up (``to_move`` is the chance value, -1) or once the game is over."""
        if self.to_move is None or self.to_move < 0:
            return ()
        return legal_actions(
            self.table, self.table_dragons, self.king, self.deck_size, self.pending_dragon,
            self.rules,
        )

    def why_illegal(self, action: Action) -> str | None:
        """None when ``action`` is legal, else the player-readable reason."""
        if self.to_move is None:
            return "the game is over"
        if action in self.legal_actions():
            return None
        return str(
            explain_illegal(
                action, self.table, self.table_dragons, self.king, self.deck_size,
                self.pending_dragon, self.rules,
            )
        )

    def score(self) -> Scoring | None:
        """The final scoring once every hand is shown, else None."""
        cards = [hand.cards for hand in self.hands]
        if any(c is None for c in cards):
            return None
        return score(self.king, [c for c in cards if c is not None])

    def to_text(self) -> str:
        """What this view shows as one line (:func:`.text.view_text`): the deck by its size
        and others' drawn cards by their count, so a player may be shown it."""
        from .text import view_text

        return view_text(self)

    def to_dict(self) -> ViewDict:
        """A JSON-ready form with dish ids as keys (what a client is sent)."""
        return {
            "seat": self.seat,
            "num_players": self.num_players,
            "rules": self.rules.to_dict(),
            "first_cook": self.first_cook,
            "round": self.round,
            "cook": self.cook,
            "to_move": self.to_move,
            "pending_dragon": self.pending_dragon,
            "deck": self.deck_size,
            "table": dish_counts(self.table),
            "table_dragons": self.table_dragons,
            "king": dish_counts(self.king),
            "removed": {
                "dishes": dish_counts(self.removed_dishes),
                "dragons": self.removed_dragons,
                "unseen": self.removed_unseen,
            },
            "hands": [hand.to_dict() for hand in self.hands],
            "history": [turn_dict(turn) for turn in self.history],
            "legal": [str(a) for a in self.legal_actions()],
        }


def turn_dict(turn: Turn) -> TurnDict:
    """One history entry as a client is sent it (a broadcast encodes each turn once)."""
    entry: TurnDict = {"seat": turn.seat, **turn.action.to_record()}
    return entry


__all__ = [
    "DISHES", "HandDict", "HandView", "Turn", "TurnDict", "View", "ViewDict", "turn_dict",
]
