"""Every way a game can still end, for the tests of what the hint calls settled.

A uniform random finish seldom draws a dragon and feeds it (R7a, R8), which is just what can
change the king's plate late in a game; these helpers search those finishes on purpose. The
deck of a world is made unknown through the position's text form (``State.to_text``), so
every card kind still in the deck is a chance outcome at a draw, a dragon included.
"""

from __future__ import annotations

import random

from kingsbreakfast.engine import State

HEX = "0123456789abcdef"
Outcome = tuple[int, int, str]
"""A seat's final points, discards and R12 result."""


def with_unknown_deck(world: State) -> State:
    """``world`` with its deck's order forgotten: each draw becomes a chance step over the
    cards the deck holds (R7), so a search can turn up any of them."""
    if world.is_over:
        return world.clone()
    parts = world.to_text().split(" ")
    deck = parts[7]
    counts = [0] * 8
    if deck[0] == "*":
        cards, _, top = deck[1:].partition("+")
        rest = cards[int(top):]
    else:
        rest = deck[1:]
    for card in rest:
        counts[int(card)] += 1
    parts[7] = "?" + "".join(HEX[c] for c in counts)
    return State.from_text(" ".join(parts))


def result_of(state: State, seat: int) -> Outcome:
    """The seat's final points, discards and R12 result (a shared win is ``shared``)."""
    scoring = state.score()
    if seat not in scoring.winners:
        result = "loss"
    else:
        result = "win" if len(scoring.winners) == 1 else "shared"
    return scoring.points[seat], scoring.discarded[seat], result


def every_finish(state: State, seat: int, cap: int = 40_000) -> set[Outcome] | None:
    """Every (points, discards, result) of ``seat`` over every finish of ``state`` (a state
    with an unknown deck: every card kind at every draw, every choice of every seat); None
    when the tree holds more than ``cap`` distinct positions."""
    seen: dict[str, frozenset[Outcome]] = {}

    def walk(node: State) -> frozenset[Outcome]:
        if node.is_over:
            return frozenset([result_of(node, seat)])
        key = node.to_text()
        key = key[: key.rindex(" ")]  # the history does not change the outcome
        if key in seen:
            return seen[key]
        if len(seen) >= cap:
            raise OverflowError
        found: set[Outcome] = set()
        if node.is_chance:
            for card, _ in node.chance_outcomes():
                child = node.clone()
                child.apply_chance(card)
                found |= walk(child)
        else:
            for action in node.legal_actions():
                child = node.clone()
                child.apply(action)
                found |= walk(child)
        seen[key] = frozenset(found)
        return seen[key]

    try:
        return set(walk(state))
    except OverflowError:
        return None


def dragon_finishes(
    state: State, seat: int, rng: random.Random, tries: int
) -> set[Outcome]:
    """Outcomes of ``tries`` random finishes of ``state`` (unknown deck) that draw a dragon
    whenever one can come (R7a) and feed or draw more often than not (R8)."""
    out = set()
    for _ in range(tries):
        node = state.clone()
        while not node.is_over:
            if node.is_chance:
                cards = [card for card, _ in node.chance_outcomes()]
                dragon = 7 in cards and rng.random() < 0.75
                node.apply_chance(7 if dragon else cards[rng.randrange(len(cards))])
                continue
            legal = node.legal_actions()
            bold = [a for a in legal if a.kind in ("feed", "draw")]
            pick = bold if bold and rng.random() < 0.8 else legal
            node.apply(pick[rng.randrange(len(pick))])
        out.add(result_of(node, seat))
    return out
