"""A fast estimate of every seat's final points in a concrete (determinized) world.

ISMCTS can stop a simulation early and score the position with this instead of playing to
the end: each hand is valued against the king's likely final plate, which is the king's
cards now, plus the part of the table the rest of this round will probably leave him (R9),
plus his share of the dish cards still in the deck (R4). It reads only what the search's
own sampled world holds, so it leaks nothing the view did not already allow.
"""

from __future__ import annotations

import math

from kingsbreakfast.engine import NUM_DISHES, State

from .knowledge import DRAW_SHARE, REACH_KING, quantize, tail_values

_PER_DISH = 15
SOFT_WIN_POINTS = 6.0
"""Scale of the soft win chance: a lead of this many points is worth e times the odds."""


def expected_points(state: State) -> list[float]:
    """Each seat's expected final points (R11) if play went on in the usual way."""
    n = state.num_players
    king = state.king
    table = state.table
    hands = state.hands
    removed = state.removed_dishes
    left_in_deck = [
        _PER_DISH - king[d] - table[d] - removed[d] - sum(h[d] for h in hands)
        for d in range(NUM_DISHES)
    ]
    deck = state.deck_size
    deck_dishes = sum(left_in_deck)
    if state.is_over:
        turns_left = 0
        future_rounds = 0.0
    else:
        turns_left = n - (state.to_move - state.cook) % n  # type: ignore[operator]
        after = deck - DRAW_SHARE * turns_left
        future_rounds = min(max(0.0, after) / (2 * n + DRAW_SHARE * n), float(deck // (2 * n)))
    future_cards = future_rounds * 2 * n * REACH_KING
    on_table = sum(1 for t in table if t)
    if on_table and turns_left:
        chance = max(0.05, 1.0 - turns_left * (1.0 - DRAW_SHARE) / on_table)
    else:
        chance = 1.0 if not state.is_over else 0.0
    tails = []
    for d in range(NUM_DISHES):
        mean = chance * table[d]
        if deck_dishes:
            mean += future_cards * left_in_deck[d] / max(1, deck)
        tails.append(tail_values(king[d], quantize(mean)))
    out = []
    for hand in hands:
        total = 0.0
        for d in range(NUM_DISHES):
            held = hand[d]
            if held:
                total += held * tails[d][held if held < 16 else 15]
        out.append(total)
    return out


def soft_wins(points: list[float]) -> list[float]:
    """A smooth win chance from expected points (R12), summing to 1."""
    best = max(points)
    weights = [math.exp((p - best) / SOFT_WIN_POINTS) for p in points]
    total = sum(weights)
    return [w / total for w in weights]
