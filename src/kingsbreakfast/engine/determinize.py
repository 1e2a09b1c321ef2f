"""Determinization: a full game state drawn at random from what one seat knows.

Information-set search (ISMCTS, our bots and OpenSpiel's) needs concrete worlds that agree
with a player's view. The cards a seat cannot see are the deck and the other players' drawn
dish cards; all of them are exchangeable from its point of view, so dealing them uniformly
at random gives a world consistent with everything it observed. Drawn dragons are always
shown (R7b), so a hidden card is never a dragon: dragons only go back into the deck.

A world could leave its deck order unknown and let chance steps turn the cards up as they
are needed; it gets a shuffled deck instead, so that search code plays it with no chance step
in its inner loops (the known-deck path of the engine, its fastest), and the view the world is
dealt from may come from a state with either kind of deck.
"""

from __future__ import annotations

import random

from .cards import CARDS_PER_DISH, DRAGON, NUM_DISHES, NUM_DRAGONS
from .errors import SetupError
from .position import Position
from .reading import OVER, SEAT_SHIFT
from .state import State
from .views import View


def unseen_cards(view: View) -> tuple[list[int], int]:
    """Dish cards (by dish) and dragons that ``view`` cannot place: deck plus hidden draws."""
    dishes = [CARDS_PER_DISH] * NUM_DISHES
    for dish in range(NUM_DISHES):
        dishes[dish] -= view.table[dish] + view.king[dish] + view.removed_dishes[dish]
        for hand in view.hands:
            dishes[dish] -= hand.takes[dish]
            if hand.draws is not None:
                dishes[dish] -= hand.draws[dish]
    dragons = NUM_DRAGONS - view.table_dragons - view.removed_dragons - int(view.pending_dragon)
    return dishes, dragons


def sample_world(view: View, rng: random.Random) -> State:
    """A full state consistent with ``view``: hidden hands and deck dealt at random.

    Public facts and the viewer's own cards are kept; the result can be played on like
    any state (but has no record of its past deck). To deal many worlds for one view, use
    :class:`WorldSampler`, which does the counting once.
    """
    return WorldSampler(view).sample(rng)


class WorldSampler:
    """Deals worlds for one view, again and again.

    A search deals thousands of worlds from the same view; what they share (the unseen
    cards, who holds hidden draws, the public state itself) is worked out and checked once
    here, so that each world costs a shuffle and a copy.
    """

    __slots__ = (
        "_dragons",
        "_finished",
        "_hidden",
        "_hidden_total",
        "_pool",
        "_template",
    )

    def __init__(self, view: View) -> None:
        if view.to_move is not None and view.to_move < 0:
            raise SetupError(
                "a world is dealt where a player is to move, not while a card is turned up",
                "chance_step",
            )
        dishes, dragons = unseen_cards(view)
        if min(dishes) < 0 or dragons < 0:
            raise SetupError("the view is inconsistent: more cards are seen than exist", "bad_view")
        self._pool = [dish for dish in range(NUM_DISHES) for _ in range(dishes[dish])]
        self._dragons = [DRAGON] * dragons
        self._hidden = tuple(
            (seat, hand.hidden)
            for seat, hand in enumerate(view.hands)
            if hand.draws is None and hand.hidden
        )
        hidden = sum(count for _, count in self._hidden)
        self._hidden_total = hidden
        if hidden > len(self._pool):
            raise SetupError("the view is inconsistent: too many hidden cards", "bad_view")
        rest = len(self._pool) - hidden + dragons
        self._finished = view.finished
        if self._finished:
            if rest != view.removed_unseen:
                raise SetupError("the view is inconsistent: cards unaccounted for", "bad_view")
        elif rest != view.deck_size:
            raise SetupError(
                f"the view is inconsistent: {rest} unseen cards for a deck of {view.deck_size}",
                "bad_view",
            )
        known = [
            list(hand.draws) if hand.draws is not None else [0] * NUM_DISHES
            for hand in view.hands
        ]
        self._template = _assemble(view, (), known)

    def sample(self, rng: random.Random) -> State:
        """One world, dealt uniformly among those that agree with the view.

        The hidden draws are a random subset of the unseen dish cards (a partial
        Fisher–Yates: only as many swaps as there are hidden cards), and the deck a full
        shuffle of the rest with the dragons. Both are driven by ``rng.random()``, like the
        engine's deck shuffle: uneven only by the float's 2**-53 granularity.
        """
        pool = self._pool[:]
        uniform = rng.random
        size = len(pool)
        first_hidden = size - self._hidden_total
        for last in range(size - 1, first_hidden - 1, -1):
            other = int(uniform() * (last + 1))
            pool[last], pool[other] = pool[other], pool[last]
        drawn = []
        used = first_hidden
        for seat, count in self._hidden:
            drawn.append((seat, pool[used : used + count]))
            used += count
        if self._finished:
            return self._template.dealt_again((), drawn)
        rest = pool[:first_hidden] + self._dragons
        for last in range(len(rest) - 1, 0, -1):
            other = int(uniform() * (last + 1))
            rest[last], rest[other] = rest[other], rest[last]
        return self._template.dealt_again(tuple(rest), drawn)


def _assemble(view: View, deck: tuple[int, ...], draws: list[list[int]]) -> State:
    """A state that agrees with ``view`` in every public fact, with the given remaining deck
    and drawn cards: the template a :class:`WorldSampler` copies for each world. It is made
    from its fields (``State.from_position``), because no sequence of actions from a deal
    leads to a state known only through a view."""
    return State.from_position(Position(
        num_players=view.num_players, rules=view.rules, first_cook=view.first_cook,
        deck=deck, full_deck=False, known=True, top=0, left=view.deck_size, unseen=(),
        turning=0, drawer=-1, table=(*view.table, view.table_dragons), king=view.king,
        takes=tuple(hand.takes for hand in view.hands), draws=tuple(map(tuple, draws)),
        removed_dishes=view.removed_dishes, removed_dragons=view.removed_dragons,
        removed_unseen=view.removed_unseen,
        to_move=OVER if view.to_move is None else view.to_move,
        cook=view.cook, round=view.round, pending=view.pending_dragon,
        history=tuple(turn.seat << SEAT_SHIFT | turn.action for turn in view.history),
        turns=view.history,
    ))
