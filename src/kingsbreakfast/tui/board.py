"""The board at a glance, as one seat may see it: a grid of counts by dish.

Rows: the king's plate, the table (with its dragons), then every hand in seat order: what it
took from the table (public, R6) and how many drawn cards it hides (R7); the viewer's own row
is followed by the viewer's drawn cards. The grid is built from a :class:`View` alone, so it
cannot show what the viewer may not know, and it is drawn two ways: a Rich table for the
full-screen game and fixed-width text for the plain mode.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.table import Table
from rich.text import Text

from kingsbreakfast.engine import DISHES, HandView, View
from kingsbreakfast.i18n.words import cards_phrase, dish_name

from . import strings

NAME_WIDTH = 10
DISH_WIDTH = 8
EXTRA_WIDTH = 10


@dataclass(frozen=True, slots=True)
class BoardRow:
    marker: str
    """``>`` for the seat to move, else blank."""
    label: str
    counts: tuple[int, ...]
    extra: str
    kind: str
    """``king``, ``table``, ``taken``, ``drawn`` or ``hand`` (a hand shown whole)."""


def board_rows(
    view: View, names: Sequence[str], hands: Sequence[HandView] | None = None
) -> list[BoardRow]:
    """The grid's rows for ``view``; ``hands`` may replace the view's hands (a replay of a
    finished game, where every hand is shown)."""
    shown = view.hands if hands is None else hands
    eaten = sum(view.removed_dishes)
    rows = [
        BoardRow(
            "", strings.king(), view.king, strings.eaten_extra(eaten) if eaten else "", "king"
        ),
        BoardRow(
            "",
            strings.table(),
            view.table,
            strings.dragons_on_table(view.table_dragons) if view.table_dragons else "",
            "table",
        ),
    ]
    for seat, hand in enumerate(shown):
        marker = ">" if seat == view.to_move else ""
        label = names[seat][:NAME_WIDTH]
        mine = strings.you_label(names[seat])
        if seat == view.seat and not view.finished and len(mine) <= NAME_WIDTH:
            label = mine
        if hand.draws is not None:
            rows.append(BoardRow(marker, label, hand.takes, strings.taken_extra(), "taken"))
            rows.append(
                BoardRow("", strings.drawn(), hand.draws, strings.drawn_extra(hand.hidden), "drawn")
            )
        else:
            rows.append(
                BoardRow(marker, label, hand.takes, strings.hidden_extra(hand.hidden), "hand")
            )
    return rows


_ROW_STYLE = {"king": "bold", "table": "bold", "taken": "", "drawn": "italic", "hand": ""}


def board_table(rows: Sequence[BoardRow]) -> Table:
    """The grid as a Rich table: zeros dim, counts bold, the king and table rows stand out."""
    table = Table(
        box=None, padding=(0, 0), show_edge=False, expand=False, header_style="bold underline"
    )
    table.add_column("", width=2, no_wrap=True)
    table.add_column("", width=NAME_WIDTH, no_wrap=True)
    for dish in range(len(DISHES)):
        table.add_column(
            Text(dish_name(dish), justify="right", overflow="ellipsis"),
            width=DISH_WIDTH,
            justify="right",
            no_wrap=True,
        )
    table.add_column("", width=EXTRA_WIDTH, justify="right", no_wrap=True)
    for row in rows:
        style = _ROW_STYLE[row.kind]
        cells = [
            Text(str(count), style="bold", justify="right")
            if count
            else Text("·", style="dim", justify="right")
            for count in row.counts
        ]
        table.add_row(
            Text(row.marker, style="bold"),
            Text(row.label, style=style),
            *cells,
            Text(row.extra, style="italic", justify="right"),
        )
    return table


def board_text(rows: Sequence[BoardRow]) -> list[str]:
    """The grid as plain fixed-width lines (the ``--plain`` mode), zeros as ``.``."""
    header = " " * (2 + NAME_WIDTH) + "".join(
        f"{dish_name(dish)[: DISH_WIDTH - 1]:>{DISH_WIDTH}}" for dish in range(len(DISHES))
    )
    lines = [header]
    for row in rows:
        cells = "".join(f"{count if count else '.':>{DISH_WIDTH}}" for count in row.counts)
        lines.append(
            f"{row.marker:<2}{row.label:<{NAME_WIDTH}}{cells}  {row.extra}".rstrip()
        )
    return lines


def board_sentences(
    view: View, names: Sequence[str], hands: Sequence[HandView] | None = None
) -> list[str]:
    """The same facts as the grid, one sentence a line: what a screen reader reads best."""
    shown = view.hands if hands is None else hands
    lines = [
        strings.king_sentence(cards_phrase(view.king), sum(view.removed_dishes)),
        strings.table_sentence(cards_phrase(view.table), view.table_dragons),
    ]
    for seat, hand in enumerate(shown):
        name = names[seat]
        if seat == view.seat and not view.finished:
            name = strings.you_label(name)
        drawn = None if hand.draws is None else cards_phrase(hand.draws)
        lines.append(strings.hand_sentence(name, cards_phrase(hand.takes), drawn, hand.hidden))
    return lines
