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

from .knowledge import DRAW_SHARE, REACH_KING, tail_values

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
    held_by_players = [sum(column) for column in zip(*hands, strict=True)]
    deck = state.deck_size
    to_move = state.to_move
    if to_move is None:
        turns_left = 0
        future_rounds = 0.0
    else:
        turns_left = n - (to_move - state.cook) % n
        after = deck - DRAW_SHARE * turns_left
        future_rounds = min(max(0.0, after) / (2 * n + DRAW_SHARE * n), float(deck // (2 * n)))
    future_share = future_rounds * 2 * n * REACH_KING / max(1, deck)
    on_table = sum(1 for t in table if t)
    if on_table and turns_left:
        chance = max(0.05, 1.0 - turns_left * (1.0 - DRAW_SHARE) / on_table)
    else:
        chance = 0.0 if to_move is None else 1.0
    tails = []
    for d in range(NUM_DISHES):
        king_d = king[d]
        table_d = table[d]
        in_deck = _PER_DISH - king_d - table_d - removed[d] - held_by_players[d]
        mean = chance * table_d + future_share * in_deck
        tails.append(tail_values(king_d, round(max(0.0, mean) * 20.0) / 20.0))
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
