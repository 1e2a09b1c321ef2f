"""Why a move: one short reason per hint row, read from the rules facts of the move.

A reason is a key and a few parameters (dish ids, numbers), never a sentence: each front end
(the terminal, ``kingsbreakfast hint``, the browser) writes it in the player's language. The
facts come from the view alone and from what the move changes at once:

* ``deny_leader`` — a take (R6) of a dish the leading rival holds, which the king would
  otherwise be served at the end of the round (R9) and which that rival would score on
  (R11); chosen when it costs the rival more points than it brings the mover;
  ``deny_leader_discarded`` when the mover then holds more of it than the king (R11): the
  mover gives up its own cards of that dish to stop the rival scoring on them;
* ``discarded`` — after the take the mover holds more of the dish than the king has, so as
  things stand it is discarded at scoring (R11);
* ``scores`` — the take adds ``points`` to the mover's score if the game ended now (R11);
* ``draw`` — an unseen card from the deck (R7; it may be a dragon, R7a);
* ``feed_leader`` / ``feed`` — the dragon eats two of the king's dishes (R8, R7a); the first
  when one of them is a dish the leading rival scores on;
* ``place`` — a drawn dragon goes to the table, where anyone may feed it (R7a);
* ``pass`` — nothing else is allowed (R5b).

The *leading rival* is the other seat with the most points if the game ended now, counted
from what the view shows of its hand (R11, R12: fewer discards first on equal points, then
the lower seat). Reasons depend on dish counts only, so dish twins (:mod:`.features`) get the
same reason with the dish renamed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from kingsbreakfast.engine import DISHES, NUM_DISHES, Action, View, score_hand

KEYS: Final = (
    "deny_leader", "deny_leader_discarded", "discarded", "scores", "draw", "feed_leader",
    "feed", "place", "pass",
)
"""Every reason key, in the order the docstring explains them."""


@dataclass(frozen=True, slots=True)
class Reason:
    """A reason's key and its parameters: dish ids (``dish``, ``a``, ``b``) and numbers."""

    key: str
    params: dict[str, str | int] = field(default_factory=dict)


def _known(view: View, seat: int) -> list[int]:
    hand = view.hands[seat]
    if hand.draws is None:
        return list(hand.takes)
    return [t + d for t, d in zip(hand.takes, hand.draws, strict=True)]


def leading_rival(view: View, mover: int) -> int | None:
    """The other seat ahead if the game ended now (R11, R12), from what the view shows."""
    best: tuple[int, int, int] | None = None
    rival = None
    for seat in range(view.num_players):
        if seat == mover:
            continue
        points, discarded = score_hand(view.king, _known(view, seat))
        key = (points, -discarded, -seat)
        if best is None or key > best:
            best, rival = key, seat
    return rival


def reason(view: View, action: Action) -> Reason:
    """The reason for ``action`` by the player to move in ``view``."""
    mover = view.to_move
    kind = action.kind
    if kind == "draw":
        return Reason("draw")
    if kind == "place_dragon":
        return Reason("place")
    if kind == "pass" or mover is None or mover < 0:
        return Reason("pass")
    rival = leading_rival(view, mover)
    king = view.king
    if kind == "feed":
        first, second = action.dishes or (0, 0)
        if rival is not None:
            held = _known(view, rival)
            for eaten in (first, second):
                if 0 < held[eaten] <= king[eaten]:  # the rival scores on it now (R11)
                    return Reason("feed_leader", {"dish": DISHES[eaten]})
        return Reason("feed", {"a": DISHES[first], "b": DISHES[second]})
    taken = action.dish
    assert taken is not None and taken < NUM_DISHES
    dish: int = taken
    mine = _known(view, mover)
    served = view.table[dish]
    before, _ = score_hand(king, mine)
    mine[dish] += served
    after, _ = score_hand(king, mine)
    gain = after - before
    denied = 0
    if rival is not None:
        theirs = _known(view, rival)[dish]
        if theirs and theirs <= king[dish] + served:  # R9 would feed the rival's score
            denied = theirs * (king[dish] + served) - (theirs * king[dish]
                                                       if theirs <= king[dish] else 0)
    if denied > max(gain, 0):
        key = "deny_leader_discarded" if mine[dish] > king[dish] else "deny_leader"
        return Reason(key, {"dish": DISHES[dish]})
    if mine[dish] > king[dish]:
        return Reason("discarded", {"dish": DISHES[dish]})
    return Reason("scores", {"dish": DISHES[dish], "points": gain})


__all__ = ["KEYS", "Reason", "leading_rival", "reason"]
