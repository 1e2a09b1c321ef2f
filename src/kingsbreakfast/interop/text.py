"""Short, stable text forms of a view, for observation strings and ``render()``.

Research tools key tables by these strings (OpenSpiel's tabular algorithms, ISMCTS nodes),
so they are plain ASCII, do not depend on the interface language, and say only what the
view says: another seat's drawn cards appear as a count.
"""

from __future__ import annotations

from kingsbreakfast.engine import DISHES, View

_SHORT = ("Br", "Ch", "Ha", "Ck", "Fr", "Ca", "Wi")
"""Two-letter dish names in R1 order."""


def dish_list(counts: tuple[int, ...] | list[int]) -> str:
    """``Ch2 Wi1`` for 2 cheese and 1 wine; ``-`` when empty."""
    parts = [f"{_SHORT[d]}{c}" for d, c in enumerate(counts) if c]
    return " ".join(parts) or "-"


def describe(view: View) -> str:
    """Everything in ``view`` on a few lines (one per hand)."""
    if view.to_move is None:
        status = "game over"
    else:
        dragon = " (drew a dragon)" if view.pending_dragon else ""
        status = f"seat {view.to_move} to move{dragon}"
    lines = [
        f"round {view.round}, cook {view.cook}, {status}; deck {view.deck_size}",
        f"table {dish_list(view.table)} dragons {view.table_dragons}",
        f"king {dish_list(view.king)}",
        f"removed {dish_list(view.removed_dishes)} dragons {view.removed_dragons}"
        f" unseen {view.removed_unseen}",
    ]
    for seat, hand in enumerate(view.hands):
        me = "*" if seat == view.seat else " "
        drawn = dish_list(hand.draws) if hand.draws is not None else f"{hand.hidden} hidden"
        lines.append(f"{me}seat {seat}: took {dish_list(hand.takes)}; drew {drawn}")
    return "\n".join(lines)


def legend() -> str:
    return ", ".join(f"{short}={name}" for short, name in zip(_SHORT, DISHES, strict=True))
