"""The full state of a game, and the only place where the rules change it.

What is public (how many cards the deck holds) is kept apart from the deck's order, which
comes from a *deck source*:

- a **known order** (``State(deck, ...)`` from a record, or ``State.new`` with a seeded
  shuffle): every card turned up is simply the next one, so the game is fully determined by
  its deck and its actions and can be replayed, cloned for search or written as a record;
- an **unknown order** (``State.with_unknown_deck``): each card turned up for the table
  (R4) or drawn (R7) is a *chance step*. The state stops there (``is_chance``; ``to_move``
  is :data:`CHANCE` and no player has a legal action), offers the card kinds still in the
  deck with their probabilities (``chance_outcomes``) and waits for ``apply_chance(card)``.
  Setting a table of 2 × players cards is that many single steps; the end of the game (R10)
  needs none, since the last cards leave unseen. This is the game tree with chance as a
  player, as OpenSpiel and other research code expect it.

Both sources run the same rules: a known deck answers each chance step at once with its
next card, so a game with an unknown deck whose chance steps are answered with the cards of
a deck is the game that deck deals (a property test plays both side by side).

Two ways to act:
- :meth:`State.play` checks the action and raises :class:`IllegalActionError` with a
  player-readable reason, leaving the state untouched;
- :meth:`State.apply` trusts its caller (an action taken from :meth:`legal_actions`) and is
  the fast path for search and simulation.

The state is mutable and kept in plain lists of small integers (cards are the numbers of
:mod:`.cards`) because random playouts and tree search spend their time here; ``clone`` is a
handful of list copies.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from operator import add
from typing import Any, Final

from .actions import DRAW_ID, FEED_PAIRS, FIRST_FEED_ID, PASS_ID, PLACE_DRAGON_ID, Action
from .cards import (
    CARD_IDS,
    CARDS_PER_DISH,
    DECK_SIZE,
    DISHES,
    DRAGON,
    NUM_DISHES,
    NUM_DRAGONS,
    UNSHUFFLED_DECK,
    is_full_deck,
)
from .errors import ActionFormatError, IllegalActionError, SetupError
from .rules import (
    DECK_BIT,
    DEFAULT_RULES,
    DRAGON_BIT,
    IDLE_BIT,
    LEGAL_BY_KEY,
    Rules,
    explain_illegal,
    king_key,
    legal_from_masks,
)
from .scoring import Scoring, score, score_hand
from .views import HandView, Turn, View

MIN_PLAYERS = 3
MAX_PLAYERS = 5

CHANCE: Final = -1
"""What ``to_move`` says at a chance step: no seat moves, a card is turned up (the number
OpenSpiel gives its chance player)."""

_OVER = -1  # internal values of _to_move when no seat moves
_TURNING_UP = -2
_SEAT_SHIFT = 6  # history entries are seat << 6 | action id
_ACTION_MASK = (1 << _SEAT_SHIFT) - 1
_ALL = Action._all
_DISH_BITS = (1 << NUM_DISHES) - 1
_NO_DISHES = (0,) * NUM_DISHES
_FULL_COUNTS = (CARDS_PER_DISH,) * NUM_DISHES + (NUM_DRAGONS,)
_TAKEN = tuple(~(1 << dish) for dish in range(NUM_DISHES))  # key bits left after a take
_NO_DECK = ~DECK_BIT
_NO_DRAGON = ~DRAGON_BIT
_SHUFFLE_STEPS = tuple((last, float(last + 1)) for last in range(DECK_SIZE - 1, 0, -1))


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


class State:
    """A game in progress or over: deck, table, king, hands, whose turn (R2–R12)."""

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
    _cook: int
    _round: int
    _pending: bool
    _history: list[int]
    _turns: tuple[Turn, ...]
    """The history as Turn objects, built lazily; always a prefix of ``_history`` (which only
    grows), so clones may share it."""

    # -- starting a game -----------------------------------------------------------------
    def __init__(
        self,
        deck: Sequence[int] | Sequence[str],
        num_players: int,
        first_cook: int = 0,
        rules: Rules = DEFAULT_RULES,
    ) -> None:
        """A new game dealt from ``deck`` (top card first; card numbers or card ids)."""
        n = check_player_count(num_players)
        check_first_cook(first_cook, n)
        if not isinstance(rules, Rules):
            raise SetupError("rules must be a Rules object", "bad_rules")
        cards = _deck_numbers(deck)
        self._setup(n, rules, cards, True, first_cook)
        self._deal()

    @classmethod
    def new(
        cls,
        num_players: int,
        rng: random.Random | int | None = None,
        first_cook: int = 0,
        rules: Rules = DEFAULT_RULES,
    ) -> State:
        """A new game with a deck shuffled by ``rng`` (a ``random.Random`` or a seed).

        With no ``rng`` a fresh one is seeded from the system; the engine never touches the
        global random generator.
        """
        check_player_count(num_players)
        if not isinstance(rng, random.Random):
            rng = random.Random(rng)
        check_first_cook(first_cook, num_players)
        state = cls.__new__(cls)
        state._setup(num_players, rules, shuffled_deck(rng), True, first_cook)
        state._deal()
        return state

    @classmethod
    def with_unknown_deck(
        cls,
        num_players: int,
        first_cook: int = 0,
        rules: Rules = DEFAULT_RULES,
    ) -> State:
        """A new game whose deck order nobody knows: it starts at the chance step of the
        first table's first card (R4), and every card turned up later is a chance step too."""
        n = check_player_count(num_players)
        check_first_cook(first_cook, n)
        if not isinstance(rules, Rules):
            raise SetupError("rules must be a Rules object", "bad_rules")
        state = cls.__new__(cls)
        state._setup(n, rules, (), False, first_cook)
        state._known = False
        state._left = DECK_SIZE
        state._unseen = list(_FULL_COUNTS)
        state._deal()
        return state

    def _setup(
        self, n: int, rules: Rules, deck: tuple[int, ...], full: bool, first_cook: int
    ) -> None:
        self._n = n
        self._rules = rules
        self._known = True
        self._deck = deck
        self._top = 0
        self._left = len(deck)
        self._unseen = []
        self._turning = 0
        self._drawer = -1
        self._full_deck = full
        self._first_cook = first_cook
        self._next = tuple((seat + 1) % n for seat in range(n))
        self._table = [0] * (NUM_DISHES + 1)
        self._king = [0] * NUM_DISHES
        self._king_key = -1
        self._key = 0
        self._takes = [[0] * NUM_DISHES for _ in range(n)]
        self._draws = [[0] * NUM_DISHES for _ in range(n)]
        self._removed_dishes = [0] * NUM_DISHES
        self._removed_dragons = 0
        self._removed_unseen = 0
        self._cook = first_cook
        self._to_move = first_cook
        self._round = 0
        self._pending = False
        self._history = []
        self._turns = ()

    def _deal(self) -> None:
        """R4: turn up 2 × players cards, or end the game when the deck has too few (R10).

        A known deck turns them all up here; an unknown one starts a chance step per card.
        """
        need = 2 * self._n
        left = self._left
        if left < need:
            self._removed_unseen = left  # R10: the rest of the deck leaves the game unseen
            self._left = 0
            self._top = len(self._deck)
            self._to_move = _OVER
            self._key = IDLE_BIT
            return
        self._round += 1
        if not self._known:
            self._turning = need
            self._to_move = _TURNING_UP
            self._key = IDLE_BIT
            return
        table = self._table
        mask = 0
        top = self._top
        for card in self._deck[top : top + need]:
            table[card] += 1  # a dragon lands in the dragons' slot, beside the dishes (R4)
            mask |= 1 << card
        self._top = top + need
        left -= need
        self._left = left
        # a turned-up dragon sets bit 7 of the mask: move it to the dragon bit
        key = mask & _DISH_BITS
        if left:
            key |= DECK_BIT
        if table[DRAGON]:
            key |= DRAGON_BIT
        self._key = key
        self._to_move = self._cook

    def _rekey(self) -> None:
        """The legality key from scratch (after a chance step or an assembled state)."""
        if self._to_move < 0:
            self._key = IDLE_BIT
            return
        table = self._table
        key = sum(1 << dish for dish in range(NUM_DISHES) if table[dish])
        if self._left:
            key |= DECK_BIT
        if table[DRAGON] or self._pending:
            key |= DRAGON_BIT
        self._key = key

    # -- the rules in motion -------------------------------------------------------------
    def legal_actions(self) -> tuple[Action, ...]:
        """The actions open to the player to move, sorted by id; empty once the game is over
        and at a chance step."""
        legal = LEGAL_BY_KEY[self._key]
        if legal is not None:
            return legal
        key = self._king_key  # a dragon is in play: the king's plate decides the feeds
        if key < 0:
            key = self._king_key = king_key(self._king)
        return legal_from_masks(
            self._key & _DISH_BITS,
            self._left,
            self._table[DRAGON],
            key,
            self._pending,
            self._rules,
        )

    def is_legal(self, action: Action | int) -> bool:
        return action in self.legal_actions()

    def play(self, action: Action | int | str, seat: int | None = None) -> None:
        """Check ``action`` (an Action, its id, or its text such as ``"take ham"``) and do it.

        When ``seat`` is given, it must be the seat to move. Raises
        :class:`IllegalActionError` (state unchanged) naming the rule that forbids it.
        """
        if self._to_move == _OVER:
            raise IllegalActionError("the game is over (R10)", "game_over")
        if self._to_move == _TURNING_UP:
            raise IllegalActionError(
                "a card is being turned up: no player acts until it is known (R4, R7)",
                "chance_step",
            )
        if seat is not None and seat != self._to_move:
            raise IllegalActionError(
                f"it is seat {self._to_move}'s turn, not seat {seat}'s (R5)",
                "not_your_turn",
                seat=seat,
                to_move=self._to_move,
            )
        resolved = as_action(action)
        if resolved not in self.legal_actions():
            raise explain_illegal(
                resolved,
                self._table[:NUM_DISHES],
                self._table[DRAGON],
                self._king,
                self._left,
                self._pending,
                self._rules,
            )
        self.apply(resolved)

    def apply(self, action: int) -> None:
        """Do a legal action without checking it (the fast path for search).

        The caller guarantees ``action`` is in :meth:`legal_actions`; anything else leaves
        the state undefined.
        """
        seat = self._to_move
        if action < NUM_DISHES:  # R6: take all of one dish
            table = self._table
            self._takes[seat][action] += table[action]
            table[action] = 0
            self._key &= _TAKEN[action]
        elif action == DRAW_ID:  # R7: top card, unseen by the others
            self._history.append(seat << _SEAT_SHIFT | DRAW_ID)
            if not self._known:  # a chance step decides the card
                self._drawer = seat
                self._to_move = _TURNING_UP
                self._key = IDLE_BIT
                return
            card = self._deck[self._top]
            self._top += 1
            self._left -= 1
            if not self._left:
                self._key &= _NO_DECK
            if card == DRAGON:  # R7a: shown at once; the same player must now use or place it
                self._pending = True
                self._key |= DRAGON_BIT
                return
            self._draws[seat][card] += 1
            following = self._next[seat]
            if following != self._cook:  # R5: the round goes once around, from the cook
                self._to_move = following
                return
            self._serve_and_deal()
            return
        elif action == PLACE_DRAGON_ID:  # R7a: the drawn dragon goes to the table
            self._pending = False
            self._table[DRAGON] += 1
        elif action != PASS_ID:  # R7a/R8: a dragon and two of the king's dishes leave the game
            first, second = FEED_PAIRS[action - FIRST_FEED_ID]
            king = self._king
            king[first] -= 1
            king[second] -= 1
            removed = self._removed_dishes
            removed[first] += 1
            removed[second] += 1
            self._removed_dragons += 1
            if self._pending:
                self._pending = False
            else:
                self._table[DRAGON] -= 1
            if not self._table[DRAGON]:
                self._key &= _NO_DRAGON
            self._king_key = -1  # recomputed when next needed
        self._history.append(seat << _SEAT_SHIFT | action)
        following = self._next[seat]
        if following != self._cook:  # R5: the round goes once around, from the cook
            self._to_move = following
            return
        self._serve_and_deal()

    def _serve_and_deal(self) -> None:
        """Every seat has had its turn: R9, then R3 and the next table (R4)."""
        if self._key & _DISH_BITS:  # R9: serve the king what is left; dragons stay
            table = self._table
            self._king = list(map(add, self._king, table))  # 7 dishes: the dragons' slot
            table[:NUM_DISHES] = _NO_DISHES  # is beyond the king's list
            self._king_key = -1  # recomputed only when a dragon could be fed
        self._cook = self._next[self._cook]  # R3: the deck passes to the left
        self._deal()

    # -- chance steps (unknown deck only) ------------------------------------------------
    @property
    def is_chance(self) -> bool:
        """A card must be turned up before anyone acts (only with an unknown deck)."""
        return self._to_move == _TURNING_UP

    @property
    def drawer(self) -> int | None:
        """At a chance step for a draw (R7), the seat that gets the card; None at a chance
        step for the table (R4) and whenever there is no chance step."""
        return self._drawer if self._to_move == _TURNING_UP and self._drawer >= 0 else None

    def chance_outcomes(self) -> tuple[tuple[int, float], ...]:
        """The card kinds that can turn up now, each with its probability: its count among
        the cards still in the deck over the deck's size (R1). Empty when there is no
        chance step."""
        if self._to_move != _TURNING_UP:
            return ()
        left = self._left
        return tuple(
            (card, count / left) for card, count in enumerate(self._unseen) if count
        )

    def apply_chance(self, card: int) -> None:
        """Turn up ``card`` (a card number, 7 for a dragon) at a chance step: onto the table
        while the table is being set (R4), else into the drawing seat's hand (R7; a dragon
        is shown and must be used or placed, R7a)."""
        if self._to_move != _TURNING_UP:
            raise IllegalActionError("no card is being turned up now", "not_chance_step")
        if not (isinstance(card, int) and 0 <= card <= DRAGON and self._unseen[card] > 0):
            raise IllegalActionError(
                f"{card!r} is not a card still in the deck", "card_not_in_deck", card=repr(card)
            )
        self._unseen[card] -= 1
        self._left -= 1
        if self._turning:  # R4: one more card for the table
            self._table[card] += 1
            self._turning -= 1
            if not self._turning:
                self._to_move = self._cook
                self._rekey()
            return
        seat = self._drawer
        self._drawer = -1
        self._to_move = seat
        if card == DRAGON:  # R7a: the same player must now use or place it
            self._pending = True
            self._rekey()
            return
        self._draws[seat][card] += 1
        following = self._next[seat]
        if following != self._cook:  # R5
            self._to_move = following
            self._rekey()
            return
        self._rekey()
        self._serve_and_deal()

    def clone(self) -> State:
        """An independent copy (lists copied, immutable parts shared)."""
        other = State.__new__(State)
        other._n = self._n
        other._rules = self._rules
        other._known = self._known
        other._deck = self._deck
        other._top = self._top
        other._left = self._left
        other._unseen = self._unseen[:]
        other._turning = self._turning
        other._drawer = self._drawer
        other._full_deck = self._full_deck
        other._first_cook = self._first_cook
        other._next = self._next
        other._table = self._table[:]
        other._king = self._king[:]
        other._king_key = self._king_key
        other._key = self._key
        other._takes = [hand[:] for hand in self._takes]
        other._draws = [hand[:] for hand in self._draws]
        other._removed_dishes = self._removed_dishes[:]
        other._removed_dragons = self._removed_dragons
        other._removed_unseen = self._removed_unseen
        other._to_move = self._to_move
        other._cook = self._cook
        other._round = self._round
        other._pending = self._pending
        other._history = self._history[:]
        other._turns = self._turns
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        """``copy.deepcopy`` (how OpenSpiel copies a Python game's state) is ``clone``: the
        immutable parts are shared, and it is several times faster than copying field by
        field."""
        return self.clone()

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
        return self._to_move == _OVER

    @property
    def to_move(self) -> int | None:
        """The seat to move; :data:`CHANCE` at a chance step; None once the game is over."""
        move = self._to_move
        if move >= 0:
            return move
        return None if move == _OVER else CHANCE

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
                Turn(entry >> _SEAT_SHIFT, _ALL[entry & _ACTION_MASK])
                for entry in self._history[len(turns) :]
            )
        return turns

    @property
    def actions(self) -> list[Action]:
        """The actions so far, as a record lists them."""
        return [_ALL[entry & _ACTION_MASK] for entry in self._history]

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
        over = self._to_move == _OVER
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
        if not isinstance(other, State):
            return NotImplemented
        return self._key_fields() == other._key_fields()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        if self._to_move == _OVER:
            status = "over"
        elif self._to_move == _TURNING_UP:
            status = "a card to turn up"
        else:
            status = f"seat {self._to_move} to move"
        return (
            f"<State {self._n} players, round {self._round}, {status}, "
            f"deck {self.deck_size}, king {sum(self._king)} cards>"
        )

    # -- for the engine's own modules (determinization) ----------------------------------
    @classmethod
    def _assemble(
        cls,
        view: View,
        deck: tuple[int, ...],
        draws: list[list[int]],
    ) -> State:
        """A state that agrees with ``view`` in every public fact, with the given remaining
        deck and drawn cards (used by ``sample_world``)."""
        state = cls.__new__(cls)
        state._setup(view.num_players, view.rules, deck, False, view.first_cook)
        state._left = view.deck_size
        state._table = [*view.table, view.table_dragons]
        state._king = list(view.king)
        state._king_key = -1
        state._takes = [list(hand.takes) for hand in view.hands]
        state._draws = draws
        state._removed_dishes = list(view.removed_dishes)
        state._removed_dragons = view.removed_dragons
        state._removed_unseen = view.removed_unseen
        state._to_move = _OVER if view.to_move is None else view.to_move
        state._cook = view.cook
        state._round = view.round
        state._pending = view.pending_dragon
        state._history = [turn.seat << _SEAT_SHIFT | turn.action for turn in view.history]
        state._turns = view.history
        state._rekey()
        return state

    def _with_hidden(
        self, deck: tuple[int, ...], drawn: Sequence[tuple[int, Sequence[int]]]
    ) -> State:
        """A copy with another remaining deck and, for each ``(seat, cards)`` in ``drawn``,
        those cards added to the seat's drawn cards: one assembled template serves many
        determinizations."""
        other = self.clone()
        other._deck = deck
        other._top = 0
        draws = other._draws
        for seat, cards in drawn:
            row = draws[seat]
            for card in cards:
                row[card] += 1
        return other


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


def as_action(action: Action | int | str) -> Action:
    """Accept an Action, an action id or the text notation."""
    if isinstance(action, Action):
        return action
    if isinstance(action, str):
        return Action.parse(action)
    if isinstance(action, int) and not isinstance(action, bool):
        return Action(action)
    raise ActionFormatError(f"{action!r} is not an action", "unknown_action", action=repr(action))


def _deck_numbers(deck: Sequence[int] | Sequence[str]) -> tuple[int, ...]:
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


__all__ = [
    "CHANCE",
    "DISHES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "State",
    "as_action",
    "shuffled_deck",
]
