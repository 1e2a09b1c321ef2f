"""The greedy bot: the best score if the game ended once this round is served."""

from __future__ import annotations

import random

from kingsbreakfast.engine import NUM_DISHES, Action, View, score_hand

from .base import legal_choices
from .knowledge import count

DESCRIPTION = (
    "Greedy looks only at the present. For each legal action it imagines that the game ends "
    "as soon as this round is over (the dishes left on the table go to the king, R9) and "
    "scores its own hand by R11; it picks the action with the most points, then the fewest "
    "discarded cards, and chooses at random among equals. A draw counts as the average of "
    "the cards it could turn up. It never plans ahead and ignores the other players, so it "
    "is easy to beat once you see the king's plate grow."
)


class GreedyBot:
    """Maximises its own immediate score; a friendly opponent for beginners."""

    name = "greedy"
    description = DESCRIPTION

    def act(self, view: View, rng: random.Random) -> Action:
        legal = legal_choices(view)
        scored = immediate_scores(view)
        best = max(scored[a] for a in legal)
        choices = [a for a in legal if scored[a] == best]
        return choices[rng.randrange(len(choices))] if len(choices) > 1 else choices[0]


def immediate_scores(view: View) -> dict[Action, tuple[float, float]]:
    """(points, -discards) of the mover's own hand, for each legal action, if the game ended
    once the current round is served."""
    mover = view.to_move
    if mover is None:
        return {}
    hand_view = view.hands[mover]
    cards = hand_view.cards
    if cards is None:  # another seat's view: its hidden draws are unknown, count takes only
        cards = hand_view.takes
    hand = list(cards)
    table = list(view.table)
    king_after_round = [k + t for k, t in zip(view.king, table, strict=True)]
    odds = count(view).draw_odds
    out: dict[Action, tuple[float, float]] = {}
    for action in view.legal_actions():
        kind = action.kind
        if kind == "take":
            dish = action.dish
            assert dish is not None
            king = king_after_round[:]
            king[dish] -= table[dish]
            mine = hand[:]
            mine[dish] += table[dish]
            points, discarded = score_hand(king, mine)
            out[action] = (float(points), -float(discarded))
        elif kind == "draw":
            exp_points = exp_discard = 0.0
            for dish in range(NUM_DISHES):
                if odds[dish]:
                    mine = hand[:]
                    mine[dish] += 1
                    points, discarded = score_hand(king_after_round, mine)
                    exp_points += odds[dish] * points
                    exp_discard += odds[dish] * discarded
            rest = 1.0 - sum(odds)  # a dragon: nothing joins the hand
            points, discarded = score_hand(king_after_round, hand)
            out[action] = (exp_points + rest * points, -(exp_discard + rest * discarded))
        elif kind == "feed":
            pair = action.dishes
            assert pair is not None
            king = king_after_round[:]
            king[pair[0]] -= 1
            king[pair[1]] -= 1
            points, discarded = score_hand(king, hand)
            out[action] = (float(points), -float(discarded))
        else:  # place the dragon or pass: the hand and the king stay as they are
            points, discarded = score_hand(king_after_round, hand)
            out[action] = (float(points), -float(discarded))
    return out
