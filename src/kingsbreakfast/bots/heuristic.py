"""The heuristic bot: card counting, keeping under the king, spoiling the leader."""

from __future__ import annotations

import random
from collections.abc import Sequence

from kingsbreakfast.engine import NUM_DISHES, Action, View

from .base import legal_choices
from .knowledge import count, future_king_gain, hand_value, leftover_chance

DESCRIPTION = (
    "Heuristic counts cards. From the unseen cards and the rounds left it estimates how many "
    "of each dish the king will end with (what is on his plate, what this round will probably "
    "leave on the table, and his share of the cards still to be turned up), and values every "
    "hand by its expected final points under that estimate, so it avoids holding more of a "
    "dish than the king is likely to get (R11). It guesses the other players' hidden draws "
    "from the same counts. Each action is judged by its own expected points minus most of the "
    "leader's, which makes it feed the dragon the dishes that the leading player is "
    "collecting. It plays instantly and makes no mistakes of arithmetic, but it does not look "
    "ahead at what the others will do."
)

LEADER_WEIGHT = 0.7
"""How much of the best opponent's expected points counts against an action (R12: only the
most points wins, so a point taken from the leader is worth almost one's own)."""


class HeuristicBot:
    """Card counter with a one-step look at the king's likely final plate."""

    name = "heuristic"
    description = DESCRIPTION

    def __init__(self, leader_weight: float = LEADER_WEIGHT, mistakes: float = 0.0) -> None:
        if not 0.0 <= mistakes <= 1.0:
            raise ValueError(f"mistakes is a probability from 0 to 1, not {mistakes}")
        self.leader_weight = leader_weight
        self.mistakes = mistakes

    def act(self, view: View, rng: random.Random) -> Action:
        legal = legal_choices(view)
        if len(legal) == 1:
            return legal[0]
        if self.mistakes and rng.random() < self.mistakes:  # a difficulty level's slip
            return legal[rng.randrange(len(legal))]
        return best_valued(evaluate(view, self.leader_weight), legal, rng)


def best_valued(
    values: dict[Action, float], legal: Sequence[Action], rng: random.Random
) -> Action:
    """The action of the highest value, a tie broken at random (``rng`` is asked only when
    there is one, so a bot's games stay the same whatever it ties)."""
    best = max(values[a] for a in legal)
    choices = [a for a in legal if values[a] >= best - 1e-9]
    return choices[rng.randrange(len(choices))] if len(choices) > 1 else choices[0]


def evaluate(view: View, leader_weight: float = LEADER_WEIGHT) -> dict[Action, float]:
    """The heuristic's utility of each legal action for the player to move."""
    mover = view.to_move
    if mover is None:
        return {}
    counting = count(view)
    future = future_king_gain(view, counting)
    dish_odds_total = sum(counting.draw_odds)
    hidden_odds = (
        [p / dish_odds_total for p in counting.draw_odds]
        if dish_odds_total
        else [0.0] * NUM_DISHES
    )
    hands: list[list[float]] = []
    for seat, hand in enumerate(view.hands):
        cards = hand.cards
        if cards is not None and (seat == mover or seat == view.seat):
            hands.append([float(c) for c in cards])
        else:  # another seat's hidden draws: spread over the unseen dishes
            hands.append([hand.takes[d] + hand.hidden * hidden_odds[d] for d in range(NUM_DISHES)])
    table = list(view.table)
    king = list(view.king)

    def utility(my_hand: list[float], base: list[int], table_after: list[int]) -> float:
        on_table = sum(1 for t in table_after if t)
        chance = leftover_chance(view, on_table)
        mean = [chance * table_after[d] + future[d] for d in range(NUM_DISHES)]
        mine = hand_value(my_hand, base, mean)
        others = [
            hand_value(hands[s], base, mean) for s in range(view.num_players) if s != mover
        ]
        return mine - leader_weight * max(others)

    values: dict[Action, float] = {}
    me = hands[mover]
    for action in view.legal_actions():
        kind = action.kind
        if kind == "take":  # R6: all of one dish
            dish = action.dish
            assert dish is not None
            mine = me[:]
            mine[dish] += table[dish]
            after = table[:]
            after[dish] = 0
            values[action] = utility(mine, king, after)
        elif kind == "draw":  # R7: a card distributed like the unseen pool
            total = 0.0
            for dish in range(NUM_DISHES):
                p = counting.draw_odds[dish]
                if p:
                    mine = me[:]
                    mine[dish] += 1
                    total += p * utility(mine, king, table)
            # a drawn dragon (R7a) leaves the hand as it is
            total += counting.dragon_odds * utility(me, king, table)
            values[action] = total
        elif kind == "feed":  # R8: two of the king's dishes leave the game
            pair = action.dishes
            assert pair is not None
            base = king[:]
            base[pair[0]] -= 1
            base[pair[1]] -= 1
            values[action] = utility(me, base, table)
        else:  # place the dragon (R7a) or pass (R5b)
            values[action] = utility(me, king, table)
    return values
