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
    any state (but has no record of its past deck).
    """
    dishes, dragons = unseen_cards(view)
    if min(dishes) < 0 or dragons < 0:
        raise SetupError("the view is inconsistent: more cards are seen than exist", "bad_view")
    pool = [dish for dish in range(NUM_DISHES) for _ in range(dishes[dish])]
    rng.shuffle(pool)
    draws: list[list[int]] = []
    used = 0
    for hand in view.hands:
        if hand.draws is not None:
            draws.append(list(hand.draws))
            continue
        drawn = [0] * NUM_DISHES
        for card in pool[used : used + hand.hidden]:
            drawn[card] += 1
        used += hand.hidden
        draws.append(drawn)
    if used > len(pool):
        raise SetupError("the view is inconsistent: too many hidden cards", "bad_view")
    rest = pool[used:] + [DRAGON] * dragons
    if view.finished:
        if len(rest) != view.removed_unseen:
            raise SetupError("the view is inconsistent: cards unaccounted for", "bad_view")
        deck: tuple[int, ...] = ()
    else:
        if len(rest) != view.deck_size:
            raise SetupError(
                f"the view is inconsistent: {len(rest)} unseen cards for a deck of "
                f"{view.deck_size}",
                "bad_view",
            )
        rng.shuffle(rest)
        deck = tuple(rest)
    return State._assemble(view, deck, draws)
