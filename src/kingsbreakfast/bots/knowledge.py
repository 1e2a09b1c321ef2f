"""Card counting from one seat's view: what is still unseen, and what the king may end with.

Every non-random bot reasons about the same public facts: the dish cards nobody can place
(the deck and the other players' drawn cards, all exchangeable from the viewer's side), how
many rounds are left (R4, R10), and how many cards of each dish will reach the king (R9).
Keeping that arithmetic here lets greedy, heuristic and the hint share one reading of a view.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import exp

from kingsbreakfast.engine import NUM_DISHES, View, unseen_cards

REACH_KING = 0.45
"""Share of the dish cards turned up in a later round that end with the king: roughly what
self-play shows for tables of 3-5 (the rest is taken by players)."""

DRAW_SHARE = 0.35
"""Share of turns spent drawing, used to guess how fast the deck shrinks between deals."""

MAX_EXTRA = 40


@dataclass(frozen=True, slots=True)
class Counting:
    """What one seat can infer about the unseen cards and the rounds left."""

    unseen: tuple[int, ...]
    """Unseen dish cards by dish (deck plus the other players' drawn cards)."""
    unseen_dragons: int
    draw_odds: tuple[float, ...]
    """Chance that a drawn card is each dish (a dragon is the remainder)."""
    dragon_odds: float
    future_rounds: float
    """Rounds expected to be dealt after this one (R4: each deal needs 2 x players cards)."""


def count(view: View) -> Counting:
    """Read the unseen cards and the rounds left from ``view``."""
    dishes, dragons = unseen_cards(view)
    total = sum(dishes) + dragons
    # The deck holds the unseen cards not in other players' hands; all are exchangeable,
    # so a draw is distributed like the whole unseen pool.
    if total:
        odds = tuple(d / total for d in dishes)
        dragon_odds = dragons / total
    else:
        odds = (0.0,) * NUM_DISHES
        dragon_odds = 0.0
    n = view.num_players
    deck_after_round = view.deck_size - DRAW_SHARE * max(0, view.turns_left)
    future = max(0.0, deck_after_round) / (2 * n + DRAW_SHARE * n)
    future = min(future, float(int(max(0.0, view.deck_size) // (2 * n))))
    return Counting(tuple(dishes), dragons, odds, dragon_odds, future)


def future_king_gain(view: View, counting: Counting) -> list[float]:
    """Dish cards of each kind expected to reach the king in the rounds after this one."""
    cards = counting.future_rounds * 2 * view.num_players * REACH_KING
    return [cards * p for p in counting.draw_odds]


def leftover_chance(view: View, dishes_on_table_after: int) -> float:
    """Chance that a dish still on the table after this turn is served to the king (R9).

    The players after this one each take at most one dish (R6), and about a third of them
    draw instead (R7), so a dish survives unless they get to it.
    """
    others = max(0, view.turns_left - 1)
    if dishes_on_table_after <= 0:
        return 1.0
    takers = others * (1.0 - DRAW_SHARE)
    return max(0.05, 1.0 - takers / dishes_on_table_after)


@lru_cache(maxsize=65536)
def tail_values(base: int, mean: float) -> tuple[float, ...]:
    """``E[K * 1{K >= h}]`` for h = 0..15, where K = base + Poisson(mean) is the king's final
    count of a dish: the points one card of that dish is worth when holding h of them (R11).

    Callers round ``mean`` (see :func:`quantize`) so that the cache serves most calls.
    """
    terms = []
    p = exp(-mean)
    for k in range(MAX_EXTRA):
        terms.append((base + k) * p)
        p *= mean / (k + 1)
    suffix = [0.0] * (MAX_EXTRA + 1)
    for k in range(MAX_EXTRA - 1, -1, -1):
        suffix[k] = suffix[k + 1] + terms[k]
    return tuple(suffix[min(MAX_EXTRA, max(0, held - base))] for held in range(16))


def quantize(mean: float) -> float:
    """The king's expected extra cards rounded to a twentieth: finer than the estimate is."""
    return round(max(0.0, mean) * 20.0) / 20.0


def hand_value(hand: list[float] | tuple[float, ...], base: list[int], mean: list[float]) -> float:
    """Expected final points of ``hand`` when the king ends with base + Poisson(mean) per dish.

    A fractional count (an opponent's guessed hidden draws) is rounded for the discard test
    (R11: more cards than the king means none score) and used as is for the points.
    """
    total = 0.0
    for dish in range(NUM_DISHES):
        held = hand[dish]
        if held <= 0:
            continue
        threshold = min(15, int(held + 0.5))
        b = max(0, base[dish])
        m = quantize(mean[dish])
        total += held * tail_values(b, m)[threshold]
    return total
