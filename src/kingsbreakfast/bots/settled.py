"""Settled outcomes: when a move's final points, and perhaps its result, are already certain.

A move's outcome is *settled* from the mover's view when no card the mover cannot see and no
later chance or choice can change it. That is so when the move is the mover's last action of
the game and nothing after it can change the king's plate for a dish the mover holds:

1. the move is not a draw (R7: the card drawn is unseen until it is drawn, and may be a
   dragon, R7a), and the view shows the mover's whole hand (the mover's own view does);
2. after it, the game is over (R10: the move ends the round and the deck cannot set another
   table, R4), or it is the last round, the mover has had its turn, and:

   * the deck holds fewer than 2 × players cards, so no table is set after this round
     (R4, R10; draws only make the deck smaller);
   * no dragon can be fed in the rest of the round (R8, R7a): none lies on the table, and
     none can be drawn (the deck is empty or every dragon is accounted for);
   * for every dish the mover holds, nothing lies on the table (so R9 cannot add to the
     king's plate), or the mover holds more of it than the king can have even if everything
     is served (discarded whatever happens, R11).

Then the king's final count of each dish the mover holds is fixed, and so are the mover's
points and discards (R11), worked out by the engine (:func:`~kingsbreakfast.engine.score_hand`
on the position the engine reaches by playing the move).

The *result* (R12) also needs the others' final points, which depend on their hidden draws
and, in case 2, on their remaining turns. For each other seat the points are bounded over
every way its hidden cards can be dealt from the cards the mover has not seen (any part of
them: the others share that pool, but each alone can hold any of it) and over every turn it
may still take (take a dish that lies on the table, draw one more hidden card, or pass), with
the king's plate between what it has and what it has plus the whole table. Points rise with
the king's count (R11), so the bounds hold. The result is settled

* as a **win** when every other seat's most is below the mover's points;
* as a **loss** when some other seat's least is above them;
* by the engine's R12 when every other hand is known and can no longer change (ties broken by
  discards, R12);

and otherwise only the points are settled (``result`` None). This is sound, not complete: a
result the bounds cannot prove stays an estimate.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from kingsbreakfast.engine import (
    DRAW_ID,
    NUM_DISHES,
    Action,
    View,
    pick_winners,
    sample_world,
    score_hand,
    unseen_cards,
)

Result = Literal["win", "shared", "loss"]
WORLD_SEED: Final = 27
"""The world the move is played in to read its public consequences (any world gives the
same public position after a move that is not a draw)."""


@dataclass(frozen=True, slots=True)
class Settled:
    """What is certain after the move, from the mover's view."""

    points: int
    """The mover's final points (R11)."""
    discarded: int
    """The mover's discarded cards (R11, the R12 tie-break)."""
    result: Result | None
    """The mover's R12 result when it is certain, else None."""
    share: float = 0.0
    """The mover's share of the win when ``result`` is ``shared`` (R12)."""


def _dish_points(held: int, king: int) -> int:
    return held * king if held <= king else 0  # R11


def _extreme(
    known: Sequence[int], unseen: int, pool: Sequence[int], king: Sequence[int], most: bool
) -> int:
    """The most (or least) points of a hand of ``known`` cards and ``unseen`` more dealt from
    ``pool`` (by dish) against the plate ``king`` (R11): a small knapsack over the dishes."""
    none = -1 if most else 1 << 30
    best = [0] + [none] * unseen  # best[c]: with c unseen cards placed so far
    for dish in range(NUM_DISHES):
        nxt = [none] * (unseen + 1)
        for used, value in enumerate(best):
            if value == none:
                continue
            for extra in range(min(pool[dish], unseen - used) + 1):
                total = value + _dish_points(known[dish] + extra, king[dish])
                slot = used + extra
                if (most and total > nxt[slot]) or (not most and total < nxt[slot]):
                    nxt[slot] = total
        best = nxt
    return best[unseen]


def settle(view: View, action: Action) -> Settled | None:
    """The settled outcome of ``action`` for the player to move, or None when it is open."""
    mover = view.to_move
    if mover is None or mover < 0 or int(action) == DRAW_ID:
        return None
    if not view.last_round:
        # not the last round (R4, R10): the mover may play again. In the last round the deck
        # holds fewer than 2 x players cards and only shrinks, so no table follows it
        return None
    hand = view.hands[mover]
    if hand.draws is None and hand.hidden:
        return None  # the view does not show the mover's drawn cards
    world = sample_world(view, random.Random(WORLD_SEED))
    world.apply(int(action))
    after = world.view(None)  # public facts only: no world's hidden card is read
    drawn = hand.draws or (0,) * NUM_DISHES
    mine = [t + d for t, d in zip(after.hands[mover].takes, drawn, strict=True)]
    king = list(after.king)
    pool, dragons = unseen_cards(view)  # not a draw: what the mover cannot see is unchanged
    n = view.num_players
    if after.finished:
        low_king = high_king = king
        turns_left: list[int] = []
    else:
        if after.round != view.round or after.pending_dragon:
            return None
        if after.table_dragons or (after.deck_size and dragons):
            return None  # a dragon may still eat from the king (R8, R7a)
        for dish in range(NUM_DISHES):
            if mine[dish] and after.table[dish] and mine[dish] <= king[dish] + after.table[dish]:
                return None  # R9 may still add to the king's plate of this dish
        low_king = king
        high_king = [k + t for k, t in zip(king, after.table, strict=True)]
        turns_left = [(after.cook - 1 - i) % n for i in range(after.turns_left)]
    points, discarded = score_hand(high_king, mine)
    # the others: known cards, how many unseen, and whether they still take a turn
    lows: list[int] = []
    highs: list[int] = []
    fixed = True
    others_points: list[int] = []
    others_discards: list[int] = []
    for seat, other in enumerate(view.hands):
        if seat == mover:
            continue
        known = list(other.takes) if other.draws is None else list(other.cards or other.takes)
        unseen = other.hidden if other.draws is None else 0
        options: list[tuple[list[int], int, list[int]]] = [(known, unseen, high_king)]
        if seat in turns_left:
            fixed = False
            options = []
            for dish in range(NUM_DISHES):
                if after.table[dish]:
                    taken = known[:]
                    taken[dish] += after.table[dish]
                    plate = high_king[:]
                    plate[dish] = king[dish]
                    options.append((taken, unseen, plate))
            if after.deck_size:
                options.append((known, unseen + 1, high_king))
            options.append((known, unseen, high_king))  # pass (R5b), or the bound of any move
        if unseen:
            fixed = False
        highs.append(max(_extreme(k, u, pool, plate, True) for k, u, plate in options))
        lows.append(min(_extreme(k, u, pool, low_king, False) for k, u, _ in options))
        if not fixed:
            continue
        p, d = score_hand(high_king, known)
        others_points.append(p)
        others_discards.append(d)
    result: Result | None = None
    if all(high < points for high in highs):
        result = "win"
    elif any(low > points for low in lows):
        result = "loss"
    elif fixed and high_king == low_king:
        everyone_points = others_points[:]
        everyone_discards = others_discards[:]
        everyone_points.insert(mover, points)
        everyone_discards.insert(mover, discarded)
        winners, _ = pick_winners(everyone_points, everyone_discards)
        result = ("win" if len(winners) == 1 else "shared") if mover in winners else "loss"
        return Settled(points, discarded, result, 1.0 / len(winners) if mover in winners else 0.0)
    return Settled(points, discarded, result)


__all__ = ["Result", "Settled", "settle"]
