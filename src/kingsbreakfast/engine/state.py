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

What only reads a state (its public facts, views, audits, scores, equality) is in
:mod:`.reading`, and the checks a new game passes are in :mod:`.setup`. This module still
runs a little past 400 lines, on purpose: every change to a game, the fast path and the
chance steps included, stays a method of this one class, read in one place, with no call
between a playout and its work.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from operator import add
from typing import Any

from .actions import (
    DRAW_ID,
    FEED_PAIRS,
    FIRST_FEED_ID,
    PASS_ID,
    PLACE_DRAGON_ID,
    Action,
    as_action,
)
from .cards import CARDS_PER_DISH, DECK_SIZE, DRAGON, NUM_DISHES, NUM_DRAGONS
from .errors import IllegalActionError
from .position import Position
from .reading import OVER, SEAT_SHIFT, TURNING_UP, StateReading
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
from .setup import check_first_cook, check_player_count, check_rules, deck_numbers, shuffled_deck

_DISH_BITS = (1 << NUM_DISHES) - 1
_NO_DISHES = (0,) * NUM_DISHES
_FULL_COUNTS = (CARDS_PER_DISH,) * NUM_DISHES + (NUM_DRAGONS,)
_TAKEN = tuple(~(1 << dish) for dish in range(NUM_DISHES))  # key bits left after a take
_NO_DECK = ~DECK_BIT
_NO_DRAGON = ~DRAGON_BIT


class State(StateReading):
    """A game in progress or over: deck, table, king, hands, whose turn (R2–R12).

    The fields, and every method that only reads them, are in :class:`~.reading.StateReading`;
    what is here changes a game.
    """

    __slots__ = ()

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
        check_rules(rules)
        cards = deck_numbers(deck)
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
        check_rules(rules)
        state = cls.__new__(cls)
        state._setup(n, rules, (), False, first_cook)
        state._known = False
        state._left = DECK_SIZE
        state._unseen = list(_FULL_COUNTS)
        state._deal()
        return state

    @classmethod
    def from_position(cls, position: Position) -> State:
        """The state holding ``position``'s fields: a game known only by its facts (a line of
        text, :mod:`.text`; a world dealt from a view, :mod:`.determinize`), which no
        sequence of actions from a deal need reach. The caller has checked the cards (R1)."""
        p = position
        state = cls.__new__(cls)
        state._setup(p.num_players, p.rules, p.deck, p.full_deck, p.first_cook)
        state._known = p.known
        state._top = p.top
        state._left = p.left
        state._unseen = list(p.unseen)
        state._turning = p.turning
        state._drawer = p.drawer
        state._table = list(p.table)
        state._king = list(p.king)
        state._takes = [list(hand) for hand in p.takes]
        state._draws = [list(hand) for hand in p.draws]
        state._removed_dishes = list(p.removed_dishes)
        state._removed_dragons = p.removed_dragons
        state._removed_unseen = p.removed_unseen
        state._to_move = p.to_move
        state._cook = p.cook
        state._round = p.round
        state._pending = p.pending
        state._history = list(p.history)
        state._turns = p.turns
        state._rekey()
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
            self._to_move = OVER
            self._key = IDLE_BIT
            return
        self._round += 1
        if not self._known:
            self._turning = need
            self._to_move = TURNING_UP
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
        if self._to_move == OVER:
            raise IllegalActionError("the game is over (R10)", "game_over")
        if self._to_move == TURNING_UP:
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
            self._history.append(seat << SEAT_SHIFT | DRAW_ID)
            if not self._known:  # a chance step decides the card
                self._drawer = seat
                self._to_move = TURNING_UP
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
        self._history.append(seat << SEAT_SHIFT | action)
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
    def apply_chance(self, card: int) -> None:
        """Turn up ``card`` (a card number, 7 for a dragon) at a chance step: onto the table
        while the table is being set (R4), else into the drawing seat's hand (R7; a dragon
        is shown and must be used or placed, R7a)."""
        if self._to_move != TURNING_UP:
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

    def dealt_again(
        self, deck: tuple[int, ...], drawn: Sequence[tuple[int, Sequence[int]]]
    ) -> State:
        """A copy whose deck is ``deck`` (top first) and where each ``(seat, cards)`` of
        ``drawn`` adds those cards to the seat's drawn cards: one template, assembled from a
        view, deals many worlds (:class:`~.determinize.WorldSampler`)."""
        other = self.clone()
        other._deck = deck
        other._top = 0
        draws = other._draws
        for seat, cards in drawn:
            row = draws[seat]
            for card in cards:
                row[card] += 1
        return other

    def to_text(self) -> str:
        """The whole state as one line (:mod:`.text`): secret, since it holds the deck and
        every drawn card; for tests and the server's own records, never for a player."""
        from .text import state_text

        return state_text(self)

    @classmethod
    def from_text(cls, text: str) -> State:
        """The state :meth:`to_text` wrote; a malformed line raises :class:`SetupError`
        (code ``bad_state_text``) naming the field at fault."""
        from .text import state_from_text

        return state_from_text(text)

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        """``copy.deepcopy`` (how OpenSpiel copies a Python game's state) is ``clone``: the
        immutable parts are shared, and it is several times faster than copying field by
        field."""
        return self.clone()



__all__ = ["State"]
