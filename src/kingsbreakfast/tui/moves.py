"""The moves a human may pick now, their keys, and why a refused key is refused.

Legality comes from the engine alone (``View.legal_actions``, ``explain_illegal``): this
module only groups the 38 actions into what a player thinks of as moves. Feeding is one
move ("feed…") whose two dishes are picked afterwards (R8), because listing all 28 dish pairs
would swamp a small screen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from kingsbreakfast.engine import (
    DISHES,
    DRAW_ID,
    PASS_ID,
    PLACE_DRAGON_ID,
    Action,
    View,
    explain_illegal,
)
from kingsbreakfast.i18n.errors import explain

from . import strings

FEED: Final = "feed"
"""The ``action`` of a move that still needs its two dishes picked."""

DISH_KEYS: Final = tuple(str(dish + 1) for dish in range(len(DISHES)))
DRAW_KEY, FEED_KEY, PLACE_KEY, PASS_KEY = "d", "f", "p", "x"


@dataclass(frozen=True, slots=True)
class Move:
    key: str
    label: str
    action: Action | str
    """The action, or :data:`FEED` when two dishes must still be picked."""


def feed_actions(view: View) -> list[Action]:
    return [action for action in view.legal_actions() if action.kind == "feed"]


def moves(view: View) -> list[Move]:
    """The legal moves of the player to move, in a stable order: takes (R6), draw (R7),
    feed (R7a/R8), place (R7a), pass (R5b)."""
    legal = view.legal_actions()
    out: list[Move] = []
    for action in legal:
        if action.kind == "take":
            dish = int(action)
            out.append(Move(DISH_KEYS[dish], strings.take_label(dish, view.table[dish]), action))
    if Action(DRAW_ID) in legal:
        out.append(Move(DRAW_KEY, strings.draw_label(), Action(DRAW_ID)))
    if feed_actions(view):
        label = strings.feed_drawn_label() if view.pending_dragon else strings.feed_table_label()
        out.append(Move(FEED_KEY, label, FEED))
    if Action(PLACE_DRAGON_ID) in legal:
        out.append(Move(PLACE_KEY, strings.place_label(), Action(PLACE_DRAGON_ID)))
    if Action(PASS_ID) in legal:
        out.append(Move(PASS_KEY, strings.pass_label(), Action(PASS_ID)))
    return out


def move_for_key(view: View, key: str) -> Move | str | None:
    """The move a key stands for, or the reason it is refused now (a sentence), or None
    when the key is not a move key at all."""
    for move in moves(view):
        if move.key == key:
            return move
    if view.to_move is None:
        return None
    if key in DISH_KEYS:
        dish = DISH_KEYS.index(key)
        return _refusal(view, Action.take(dish), strings.take_what(dish))
    if key == DRAW_KEY:
        return _refusal(view, Action(DRAW_ID), strings.draw_label())
    if key == PLACE_KEY:
        return _refusal(view, Action(PLACE_DRAGON_ID), strings.place_label())
    if key == PASS_KEY:
        return _refusal(view, Action(PASS_ID), strings.pass_what())
    if key == FEED_KEY:
        return _refusal(view, _likeliest_feed(view), strings.feed_what_any())
    return None


def refusal(view: View, action: Action) -> str | None:
    """None when ``action`` is legal now, else the sentence that says why not."""
    if view.to_move is None or action in view.legal_actions():
        return None
    return _refusal(view, action, str(action))


def _refusal(view: View, action: Action, what: str) -> str:
    """The engine's reason (R-numbered), in the player's language."""
    error = explain_illegal(
        action, view.table, view.table_dragons, view.king, view.deck_size,
        view.pending_dragon, view.rules,
    )
    return strings.refused(what, explain(error))


def _likeliest_feed(view: View) -> Action:
    """The feed the king's plate comes closest to allowing, so that its refusal names the
    rule that really stands in the way (no dragon, too few dishes...)."""
    order = sorted(range(len(DISHES)), key=lambda dish: -view.king[dish])
    first = order[0]
    second = first if view.king[first] >= 2 else order[1]
    return Action.feed(first, second)


def first_dishes(view: View) -> list[int]:
    """Dishes that can be the first of a legal feed (the king holds them, R8)."""
    return sorted({pair[0] for pair in _pairs(view)} | {pair[1] for pair in _pairs(view)})


def second_dishes(view: View, first: int) -> list[int]:
    """Dishes that complete a legal feed with ``first``."""
    out = set()
    for a, b in _pairs(view):
        if a == first:
            out.add(b)
        if b == first:
            out.add(a)
    return sorted(out)


def _pairs(view: View) -> list[tuple[int, int]]:
    pairs = []
    for action in feed_actions(view):
        dishes = action.dishes
        assert dishes is not None
        pairs.append(dishes)
    return pairs


def action_label(action: Action) -> str:
    """An action in the screen's words (the hint lists actions this way)."""
    kind = action.kind
    if kind == "take":
        return strings.take_what(int(action))
    dishes = action.dishes
    if dishes is not None:
        return strings.feed_what(*dishes)
    return {
        "draw": strings.draw_label(),
        "place_dragon": strings.place_label(),
        "pass": strings.pass_what(),
    }[kind]
