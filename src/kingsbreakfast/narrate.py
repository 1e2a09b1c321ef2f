"""A game told in words: what each action did, read off two views (before and after).

Working from views rather than states means a narration can never say more than its
reader may know: narrate with a spectator's views and draws stay secret; with the mover's
own views (or once the game is over) the drawn card is named. All English sentences of
the log live here, in one place, ready for the translation layer.
"""

from __future__ import annotations

from collections.abc import Sequence

from kingsbreakfast.engine import DISHES, Action, View
from kingsbreakfast.engine.scoring import Scoring


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def cards_phrase(counts: Sequence[int], dragons: int = 0) -> str:
    """``2 bread, 1 ham and 1 dragon`` (or ``nothing``)."""
    parts = [f"{count} {DISHES[dish]}" for dish, count in enumerate(counts) if count]
    if dragons:
        parts.append(plural(dragons, "dragon"))
    if not parts:
        return "nothing"
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def round_opening(view: View, names: Sequence[str], new_dragons: int | None = None) -> str:
    """The sentence that opens a round: cook and the cards turned up (R4).

    ``new_dragons`` is how many of the turned-up cards were dragons (all the dragons on the
    table when not given, as in round 1).
    """
    dealt = view.table_dragons if new_dragons is None else new_dragons
    return (
        f"Round {view.round}: {names[view.cook]} is the cook and turns up "
        f"{cards_phrase(view.table, dealt)}; {plural(view.table_dragons, 'dragon')} "
        f"on the table, {plural(view.deck_size, 'card')} left in the deck."
    )


def narrate(before: View, action: Action, after: View, names: Sequence[str]) -> list[str]:
    """Sentences for one action, and for the serving, dealing or ending it caused."""
    seat = before.to_move
    assert seat is not None, "no action is taken once the game is over"
    who = names[seat]
    lines: list[str] = []
    kind = action.kind
    dragons_after_action = before.table_dragons
    if kind == "take":
        dish = DISHES[action]
        lines.append(f"{who} takes {before.table[action]} {dish}.")
    elif kind == "draw":
        if after.pending_dragon and after.to_move == seat:
            lines.append(f"{who} draws a dragon and must use it or place it on the table.")
        else:
            lines.append(f"{who} draws a card{_drawn_card(before, after, seat)}.")
    elif kind == "place_dragon":
        dragons_after_action += 1
        lines.append(f"{who} places the dragon on the table.")
    elif kind == "feed":
        pair = action.dishes
        assert pair is not None
        eaten = f"{DISHES[pair[0]]} and {DISHES[pair[1]]}"
        if before.pending_dragon:
            lines.append(f"{who} feeds the drawn dragon: the king loses {eaten}.")
        else:
            dragons_after_action -= 1
            lines.append(f"{who} feeds a dragon from the table: the king loses {eaten}.")
    else:
        lines.append(f"{who} passes: nothing else is possible.")

    round_over = after.round != before.round or (after.finished and not before.finished)
    if round_over:
        served = [
            after.king[d] - before.king[d] + after.removed_dishes[d] - before.removed_dishes[d]
            for d in range(len(DISHES))
        ]
        lines.append(f"The king is served {cards_phrase(served)}.")
        if after.finished:
            lines.append(
                f"The deck holds too few cards for another round: the game ends and "
                f"{plural(after.removed_unseen, 'card')} leave the game unseen."
            )
        else:
            new_dragons = after.table_dragons - dragons_after_action
            lines.append(round_opening(after, names, new_dragons))
    return lines


def _drawn_card(before: View, after: View, seat: int) -> str:
    old, new = before.hands[seat].draws, after.hands[seat].draws
    if old is None or new is None:
        return ""
    for dish in range(len(DISHES)):
        if new[dish] > old[dish]:
            return f" ({DISHES[dish]})"
    return ""


def score_lines(scoring: Scoring, king: Sequence[int], names: Sequence[str]) -> list[str]:
    """The final scoring (R11) dish by dish, and who wins (R12)."""
    width = max(len(name) for name in [*names, "king"])
    header = " " * width + "  " + " ".join(f"{dish[:7]:>7}" for dish in DISHES)
    lines = [
        "Final scoring: each card scores the king's count of its dish; holding more of a dish "
        "than the king discards all of it (x).",
        header + "   points  discarded",
        f"{'king':<{width}}  " + " ".join(f"{count:>7}" for count in king),
    ]
    for player in scoring.players:
        cells = []
        for dish in player.dishes:
            if dish.discarded:
                cells.append(f"{str(dish.held) + 'x':>7}")
            elif dish.held:
                cells.append(f"{dish.points:>7}")
            else:
                cells.append(f"{'-':>7}")
        lines.append(
            f"{names[player.seat]:<{width}}  " + " ".join(cells)
            + f"   {player.points:>6}  {player.discarded:>9}"
        )
    winners = " and ".join(names[seat] for seat in scoring.winners)
    if scoring.tie_break == "none":
        lines.append(f"{winners} wins.")
    elif scoring.tie_break == "discards":
        lines.append(f"{winners} wins on equal points by discarding fewer cards (R12).")
    else:
        lines.append(f"{winners} share the win: equal points and equal discards (R12).")
    return lines
