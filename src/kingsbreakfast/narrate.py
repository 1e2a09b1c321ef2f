"""A game told in words: what each action did, read off two views (before and after).

Working from views rather than states means a narration can never say more than its
reader may know: narrate with a spectator's views and draws stay secret; with the mover's
own views (or once the game is over) the drawn card is named. Every sentence goes through
the translation layer, in the current language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.cells import cell_len

from kingsbreakfast.engine import DISHES, Action, DishScore, Scoring, View
from kingsbreakfast.i18n import _, ngettext
from kingsbreakfast.i18n.words import (
    card_count,
    cards_phrase,
    dish_count,
    dish_name,
    dragon_count,
    join_words,
)

DEFAULT_NAMES: Final = ("Ann", "Bob", "Cid", "Dee", "Eve")
"""The names seats get when nobody names them, seat 0 first: the same in every mode (the
terminal game, hot-seat, the demo), so a seat is called the same everywhere."""


def round_opening(view: View, names: Sequence[str], new_dragons: int | None = None) -> str:
    """The sentence that opens a round: cook and the cards turned up (R4).

    ``new_dragons`` is how many of the turned-up cards were dragons (all the dragons on the
    table when not given, as in round 1).
    """
    dealt = view.table_dragons if new_dragons is None else new_dragons
    return _(
        "Round {round}: {cook} is the cook and turns up {cards}; {dragons} on the table, "
        "{deck} left in the deck."
    ).format(
        round=view.round,
        cook=names[view.cook],
        cards=cards_phrase(view.table, dealt),
        dragons=dragon_count(view.table_dragons),
        deck=card_count(view.deck_size),
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
        lines.append(
            _("{player} takes {cards}.").format(
                player=who, cards=cards_phrase([before.table[d] if d == action else 0
                                                for d in range(len(DISHES))])
            )
        )
    elif kind == "draw":
        if after.pending_dragon and after.to_move == seat:
            lines.append(
                _("{player} draws a dragon and must use it or place it on the table.").format(
                    player=who
                )
            )
        else:
            drawn = _drawn_card(before, after, seat)
            if drawn is None:
                lines.append(_("{player} draws a card.").format(player=who))
            else:
                lines.append(
                    _("{player} draws a card ({dish}).").format(player=who, dish=dish_name(drawn))
                )
    elif kind == "place_dragon":
        dragons_after_action += 1
        lines.append(_("{player} places the dragon on the table.").format(player=who))
    elif kind == "feed":
        pair = action.dishes
        assert pair is not None
        if pair[0] == pair[1]:  # two of one dish (R8): counted, not named twice
            eaten = dish_count(pair[0], 2)
        else:
            eaten = join_words([dish_count(pair[0], 1), dish_count(pair[1], 1)])
        if before.pending_dragon:
            lines.append(
                _("{player} feeds the drawn dragon: the king loses {dishes}.").format(
                    player=who, dishes=eaten
                )
            )
        else:
            dragons_after_action -= 1
            lines.append(
                _("{player} feeds a dragon from the table: the king loses {dishes}.").format(
                    player=who, dishes=eaten
                )
            )
    else:
        lines.append(_("{player} passes: nothing else is possible.").format(player=who))

    round_over = after.round != before.round or (after.finished and not before.finished)
    if round_over:
        served = [
            after.king[d] - before.king[d] + after.removed_dishes[d] - before.removed_dishes[d]
            for d in range(len(DISHES))
        ]
        if any(served):
            lines.append(_("The king is served {cards}.").format(cards=cards_phrase(served)))
        else:  # a sentence of its own: "nothing" takes a negation in most of our languages
            lines.append(_("The king is served nothing this round."))
        if after.finished:
            lines.append(
                ngettext(
                    "The deck holds too few cards for another round: the game ends and "
                    "{count} card leaves the game unseen.",
                    "The deck holds too few cards for another round: the game ends and "
                    "{count} cards leave the game unseen.",
                    after.removed_unseen,
                ).format(count=after.removed_unseen)
            )
        else:
            new_dragons = after.table_dragons - dragons_after_action
            lines.append(round_opening(after, names, new_dragons))
    return lines


def _drawn_card(before: View, after: View, seat: int) -> int | None:
    old, new = before.hands[seat].draws, after.hands[seat].draws
    if old is None or new is None:
        return None
    for dish in range(len(DISHES)):
        if new[dish] > old[dish]:
            return dish
    return None


def _score_cell(dish: DishScore) -> str:
    """A hand's cell for one dish: its points, ``Nx`` when discarded (R11), ``-`` if none."""
    if dish.discarded:
        return f"{dish.held}x"
    return str(dish.points) if dish.held else "-"


def score_lines(scoring: Scoring, king: Sequence[int], names: Sequence[str]) -> list[str]:
    """The final scoring (R11) dish by dish, and who wins (R12)."""
    king_label = _("king")
    points_label = _("points")
    discarded_label = _("discarded")
    width = max(cell_len(name) for name in [*names, king_label])
    cells = [
        [str(count) for count in king],
        *([_score_cell(dish) for dish in player.dishes] for player in scoring.players),
    ]
    # each column as wide as its own name or figures (German dish names are long: one
    # common width made the table 91 columns wide)
    columns = [
        max(cell_len(dish_name(d)), *(len(row[d]) for row in cells)) for d in range(len(DISHES))
    ]
    points_width = max(cell_len(points_label), 3)
    discarded_width = cell_len(discarded_label)

    def right(text: str, size: int) -> str:
        return " " * max(0, size - cell_len(text)) + text

    def row(label: str, values: Sequence[str], tail: str = "") -> str:
        left = label + " " * (width - cell_len(label))
        return (left + " " + "".join(" " + right(v, c) for v, c in zip(values, columns,
                                                                        strict=True)) + tail)

    lines = [
        _(
            "Final scoring: each card scores the king's count of its dish; holding more of a "
            "dish than the king discards all of it (x)."
        ),
        row("", [dish_name(d) for d in range(len(DISHES))],
            f"  {right(points_label, points_width)} {right(discarded_label, discarded_width)}"),
        row(king_label, cells[0]),
    ]
    for player, values in zip(scoring.players, cells[1:], strict=True):
        lines.append(row(
            names[player.seat], values,
            f"  {right(str(player.points), points_width)} "
            f"{right(str(player.discarded), discarded_width)}",
        ))
    winners = join_words([names[seat] for seat in scoring.winners])
    if scoring.tie_break == "none":
        lines.append(_("{winners} wins.").format(winners=winners))
    elif scoring.tie_break == "discards":
        lines.append(
            _("{winners} wins on equal points by discarding fewer cards (R12).").format(
                winners=winners
            )
        )
    else:
        lines.append(
            _("{winners} share the win: equal points and equal discards (R12).").format(
                winners=winners
            )
        )
    return lines
