"""Renaming the dishes (R1 numbers them only to name them): an action under a permutation of
the dish ids, for tests that play a game and the same game with its dishes renamed."""

from __future__ import annotations

from kingsbreakfast.engine import Action


def relabel(action: int, perm: list[int]) -> int:
    """The action under renamed dishes: a take and a feed's pair follow their dishes."""
    named = Action(action)
    if named.dish is not None:
        return int(Action.take(perm[named.dish]))
    if named.dishes is not None:
        first, second = named.dishes
        return int(Action.feed(perm[first], perm[second]))
    return action
