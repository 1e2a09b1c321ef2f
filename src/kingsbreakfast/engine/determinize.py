"""Determinization: a full game state drawn at random from what one seat knows.

Information-set search (ISMCTS, our bots and OpenSpiel's) needs concrete worlds that agree
with a player's view. The cards a seat cannot see are the deck and the other players' drawn
dish cards; all of them are exchangeable from its point of view, so dealing them uniformly
at random gives a world consistent with everything it observed. Drawn dragons are always
shown (R7b), so a hidden card is never a dragon: dragons only go back into the deck.
"""

from __future__ import annotations

import random

from .cards import CARDS_PER_DISH, DRAGON, NUM_DISHES, NUM_DRAGONS
from .errors import SetupError
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
    here, so that each world costs two shuffles and a copy.
    """

    __slots__ = ("_deck_size", "_dragons", "_draws", "_finished", "_hidden", "_pool", "_template")

    def __init__(self, view: View) -> None:
        dishes, dragons = unseen_cards(view)
        if min(dishes) < 0 or dragons < 0:
            raise SetupError("the view is inconsistent: more cards are seen than exist", "bad_view")
        self._pool = [dish for dish in range(NUM_DISHES) for _ in range(dishes[dish])]
        self._dragons = [DRAGON] * dragons
        self._draws = [
            list(hand.draws) if hand.draws is not None else [0] * NUM_DISHES
            for hand in view.hands
        ]
        self._hidden = tuple(
            (seat, hand.hidden)
            for seat, hand in enumerate(view.hands)
            if hand.draws is None and hand.hidden
        )
        hidden = sum(count for _, count in self._hidden)
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
        self._template = State._assemble(view, (), [row[:] for row in self._draws])

    def sample(self, rng: random.Random) -> State:
        """One world, dealt uniformly among those that agree with the view."""
        pool = self._pool[:]
        rng.shuffle(pool)
        draws = [row[:] for row in self._draws]
        used = 0
        for seat, count in self._hidden:
            row = draws[seat]
            for card in pool[used : used + count]:
                row[card] += 1
            used += count
        if self._finished:
            return self._template._with_hidden((), draws)
        rest = pool[used:] + self._dragons
        rng.shuffle(rest)
        return self._template._with_hidden(tuple(rest), draws)
