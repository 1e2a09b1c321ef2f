"""What a game state holds, and every question that can be asked of it without changing it.

:class:`~.state.State` is the only code that changes a game, and it is kept small because
search and simulation spend their time in it. Everything that merely reads a state — the
public facts, the view one seat may have, the audits of card conservation (R1), scores
(R11), equality and printing — lives here, in the base class that also declares the fields
and their encodings, so that both halves agree on one layout and ``State`` keeps its whole
public API.
"""

from __future__ import annotations

from operator import add
from typing import Any, Final

from .actions import ALL_ACTIONS, Action
from .cards import DECK_SIZE, DRAGON, NUM_DISHES
from .errors import SetupError
from .position import Position
from .rules import Rules
from .scoring import Scoring, score, score_hand
from .views import HandView, Turn, View

CHANCE: Final = -1
"""What ``to_move`` says at a chance step: no seat moves, a card is turned up (the number
OpenSpiel gives its chance player)."""

OVER: Final = -3
"""``_to_move`` once the game is over (R10): no seat moves. Internal, and unlike any public
value: :data:`CHANCE` (-1) is what ``to_move`` says at a chance step, None once over."""
TURNING_UP: Final = -2
"""``_to_move`` at a chance step: a card is turned up before anyone moves (R4, R7)."""
SEAT_SHIFT: Final = 6
"""A history entry is ``seat << SEAT_SHIFT | action id``: one small integer per turn, so that
the hot path appends an int and the Turn objects are made only when asked for."""
ACTION_MASK: Final = (1 << SEAT_SHIFT) - 1
_ALL = ALL_ACTIONS


class StateReading:
    """The fields of a game state and the read-only side of :class:`~.state.State` (R2–R12).

    Not used on its own: ``State`` is its only subclass, and adds nothing to its slots.
    """

    __slots__ = (
        "_cook",
        "_deck",
        "_drawer",
        "_draws",
        "_first_cook",
        "_full_deck",
        "_history",
        "_key",
        "_king",
        "_king_key",
        "_known",
        "_left",
        "_n",
        "_next",
        "_pending",
        "_removed_dishes",
        "_removed_dragons",
        "_removed_unseen",
        "_round",
        "_rules",
        "_table",
        "_takes",
        "_to_move",
        "_top",
        "_turning",
        "_turns",
        "_unseen",
    )

    _n: int
    _rules: Rules
    _known: bool
    """The deck source: True for a known order (``_deck`` from ``_top``), False when every
    card turned up is a chance step answered from ``_unseen``."""
    _deck: tuple[int, ...]
    _top: int
    _left: int
    """Cards in the deck (public, R4, R7), whatever the source."""
    _unseen: list[int]
    """Unknown order only: the deck's cards by kind (dishes, then dragons), the chance
    outcomes' weights; at the end, the cards that left unseen (R10)."""
    _turning: int
    """Cards still to turn up for the table at a chance step of the deal (R4)."""
    _drawer: int
    """The seat whose draw waits for its card at a chance step (R7), else -1."""
    _full_deck: bool
    _first_cook: int
    _next: tuple[int, ...]
    _table: list[int]
    """Dish counts on the table by dish, and at index DRAGON the dragons lying there."""
    _king: list[int]
    _king_key: int
    _key: int
    """Legality key: dishes on the table as bits | DECK_BIT | DRAGON_BIT | IDLE_BIT (see
    ``rules.LEGAL_BY_KEY``), kept up to date by every change that matters to it."""
    _takes: list[list[int]]
    _draws: list[list[int]]
    _removed_dishes: list[int]
    _removed_dragons: int
    _removed_unseen: int
    _to_move: int
    """The seat to move, or OVER once the game is over, or TURNING_UP at a chance step."""
    _cook: int
    _round: int
    _pending: bool
    _history: list[int]
    _turns: tuple[Turn, ...]
    """The history as Turn objects, built lazily; always a prefix of ``_history`` (which only
    grows), so clones may share it."""

    # -- chance steps (unknown deck only) ------------------------------------------------
    @property
    def is_chance(self) -> bool:
        """A card must be turned up before anyone acts (only with an unknown deck)."""
        return self._to_move == TURNING_UP

    @property
    def drawer(self) -> int | None:
        """At a chance step for a draw (R7), the seat that gets the card; None at a chance
        step for the table (R4) and whenever there is no chance step."""
        return self._drawer if self._to_move == TURNING_UP and self._drawer >= 0 else None

    def chance_outcomes(self) -> tuple[tuple[int, float], ...]:
        """The card kinds that can turn up now, each with its probability: its count among
        the cards still in the deck over the deck's size (R1). Empty when there is no
        chance step."""
        if self._to_move != TURNING_UP:
            return ()
        left = self._left
        return tuple(
            (card, count / left) for card, count in enumerate(self._unseen) if count
        )

    # -- reading the state ---------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self._n

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def first_cook(self) -> int:
        return self._first_cook

    @property
    def is_over(self) -> bool:
        return self._to_move == OVER

    @property
    def to_move(self) -> int | None:
        """The seat to move; :data:`CHANCE` at a chance step; None once the game is over."""
        move = self._to_move
        if move >= 0:
            return move
        return None if move == OVER else CHANCE

    @property
    def cook(self) -> int:
        return self._cook

    @property
    def round(self) -> int:
        """Rounds counted from 1: the round in progress, or the last one played."""
        return self._round

    @property
    def pending_dragon(self) -> bool:
        """The player to move drew a dragon and must now use or place it (R7a)."""
        return self._pending

    @property
    def deck_known(self) -> bool:
        """Whether the deck's order is known (no chance steps) or unknown (chance steps)."""
        return self._known

    @property
    def deck_size(self) -> int:
        """Cards in the deck (public)."""
        return self._left

    @property
    def table(self) -> tuple[int, ...]:
        """Dish cards on the table, by dish."""
        return tuple(self._table[:NUM_DISHES])

    @property
    def table_dragons(self) -> int:
        return self._table[DRAGON]

    @property
    def king(self) -> tuple[int, ...]:
        return tuple(self._king)

    def hand(self, seat: int) -> tuple[int, ...]:
        """All cards in ``seat``'s hand by dish, taken and drawn alike (full knowledge)."""
        return tuple(map(add, self._takes[seat], self._draws[seat]))

    @property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        return tuple(self.hand(seat) for seat in range(self._n))

    def takes(self, seat: int) -> tuple[int, ...]:
        """Cards ``seat`` took from the table (public)."""
        return tuple(self._takes[seat])

    def draws(self, seat: int) -> tuple[int, ...]:
        """Dish cards ``seat`` drew (hidden from the other seats until the end)."""
        return tuple(self._draws[seat])

    @property
    def removed_dishes(self) -> tuple[int, ...]:
        return tuple(self._removed_dishes)

    @property
    def removed_dragons(self) -> int:
        return self._removed_dragons

    @property
    def removed_unseen(self) -> int:
        return self._removed_unseen

    @property
    def removed(self) -> int:
        """Every card out of the game: fed dragons, the dishes they ate, the deck's leftovers."""
        return sum(self._removed_dishes) + self._removed_dragons + self._removed_unseen

    @property
    def remaining_deck(self) -> tuple[int, ...]:
        """The deck from its top card: secret from every player (never put it in a view).
        Only a known deck has an order to give."""
        if not self._known:
            raise SetupError("this deck's order is unknown: its cards are chance", "deck_unknown")
        return self._deck[self._top :]

    @property
    def history(self) -> tuple[Turn, ...]:
        """Who did what, in order (public). Views ask for it at every broadcast, so the
        Turn objects are made once and only the new entries are added."""
        turns = self._turns
        if len(turns) < len(self._history):
            turns = self._turns = turns + tuple(
                Turn(entry >> SEAT_SHIFT, _ALL[entry & ACTION_MASK])
                for entry in self._history[len(turns) :]
            )
        return turns

    @property
    def actions(self) -> list[Action]:
        """The actions so far, as a record lists them."""
        return [_ALL[entry & ACTION_MASK] for entry in self._history]

    @property
    def initial_deck(self) -> tuple[int, ...]:
        """The whole deck this game was dealt from (top first), for writing its record."""
        if not self._known:
            raise SetupError(
                "this game's deck order is unknown (its cards were chance steps)",
                "deck_unknown",
            )
        if not self._full_deck:
            raise SetupError(
                "this state was sampled from a player's view: its past deck is unknown",
                "deck_unknown",
            )
        return self._deck

    def card_counts(self) -> dict[str, int]:
        """Where the 110 cards are (card conservation): must always add up to 110."""
        hands = sum(sum(h) for h in self._takes) + sum(sum(h) for h in self._draws)
        return {
            "deck": self.deck_size,
            "table_dishes": sum(self._table[:NUM_DISHES]),
            "table_dragons": self._table[DRAGON],
            "drawn_dragon": int(self._pending),
            "king": sum(self._king),
            "hands": hands,
            "removed": self.removed,
            "unaccounted": DECK_SIZE - self.deck_size - hands - self.removed
            - sum(self._table) - int(self._pending) - sum(self._king),
        }

    def dish_totals(self) -> list[int]:
        """Cards of each kind (dishes, then dragons) in every place: always 15 of each dish and
        5 dragons (R1). Full knowledge; for tests and audits."""
        if self._known:
            totals = [0] * (NUM_DISHES + 1)
            # the deck, and once the game is over the leftovers removed unseen (R10)
            for card in self._deck[max(self._top - self._removed_unseen, 0) :]:
                totals[card] += 1
        else:
            totals = self._unseen[:]  # the deck, or the cards that left it unseen (R10)
        for dish in range(NUM_DISHES):
            totals[dish] += (
                self._table[dish]
                + self._king[dish]
                + self._removed_dishes[dish]
                + sum(h[dish] for h in self._takes)
                + sum(h[dish] for h in self._draws)
            )
        totals[DRAGON] += self._table[DRAGON] + self._removed_dragons + int(self._pending)
        return totals

    def position(self) -> Position:
        """Every field of the state as immutable values (secret: the deck and every drawn
        card), what ``State.from_position`` makes the same state from (:mod:`.text`)."""
        return Position(
            num_players=self._n, rules=self._rules, first_cook=self._first_cook,
            deck=self._deck, full_deck=self._full_deck, known=self._known, top=self._top,
            left=self._left, unseen=tuple(self._unseen), turning=self._turning,
            drawer=self._drawer, table=tuple(self._table), king=tuple(self._king),
            takes=tuple(map(tuple, self._takes)), draws=tuple(map(tuple, self._draws)),
            removed_dishes=tuple(self._removed_dishes), removed_dragons=self._removed_dragons,
            removed_unseen=self._removed_unseen, to_move=self._to_move, cook=self._cook,
            round=self._round, pending=self._pending, history=tuple(self._history),
            turns=self._turns,
        )

    def score(self) -> Scoring:
        """R11/R12 scoring of the hands as they are (final once the game is over)."""
        return score(self._king, self.hands)

    def provisional_points(self, seat: int) -> tuple[int, int]:
        """Points and discards of ``seat`` if the game ended now (for bots and hints)."""
        return score_hand(self._king, self.hand(seat))

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know now; None is a spectator, who sees no drawn card. At a
        chance step the view's ``to_move`` is :data:`CHANCE` and it offers no action."""
        if seat is not None and not (
            isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < self._n
        ):
            raise SetupError(
                f"there is no seat {seat!r} at a table of {self._n}", "bad_seat", seat=repr(seat)
            )
        over = self._to_move == OVER
        hands = tuple(
            HandView(
                tuple(self._takes[s]),
                sum(self._draws[s]),
                tuple(self._draws[s]) if over or s == seat else None,
            )
            for s in range(self._n)
        )
        return View(
            seat=seat,
            num_players=self._n,
            rules=self._rules,
            first_cook=self._first_cook,
            round=self._round,
            cook=self._cook,
            to_move=self.to_move,
            pending_dragon=self._pending,
            deck_size=self._left,
            table=self.table,
            table_dragons=self._table[DRAGON],
            king=tuple(self._king),
            removed_dishes=tuple(self._removed_dishes),
            removed_dragons=self._removed_dragons,
            removed_unseen=self._removed_unseen,
            hands=hands,
            history=self.history,
        )

    # -- equality and printing -----------------------------------------------------------
    def _key_fields(self) -> tuple[Any, ...]:
        return (
            self._n,
            self._rules,
            self._deck[self._top :] if self._known else None,
            self._unseen,
            self._turning,
            self._drawer,
            self._first_cook,
            self._table,
            self._king,
            self._takes,
            self._draws,
            self._removed_dishes,
            self._removed_dragons,
            self._removed_unseen,
            self._to_move,
            self._cook,
            self._round,
            self._pending,
            self._history,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, StateReading):
            return NotImplemented
        return self._key_fields() == other._key_fields()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        if self._to_move == OVER:
            status = "over"
        elif self._to_move == TURNING_UP:
            status = "a card to turn up"
        else:
            status = f"seat {self._to_move} to move"
        return (
            f"<State {self._n} players, round {self._round}, {status}, "
            f"deck {self.deck_size}, king {sum(self._king)} cards>"
        )

