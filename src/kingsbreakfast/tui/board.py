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

from rich.cells import cell_len
from rich.table import Table
from rich.text import Text

from kingsbreakfast.engine import DISHES, HandView, View
from kingsbreakfast.i18n.words import cards_phrase, dish_name

from . import strings
from .fit import crop, cut_header, fit_name, tell_apart

NAME_WIDTH = 12
"""At most this many cells for a name; a longer one is cut."""
MIN_HEADER = 3
"""A dish name is never cut below this many cells (plus the dot that marks the cut)."""
OVER = "!"
"""Marks a count of the viewer's that exceeds the king's: discarded if the game ended now
(R11). A symbol as well as a colour, so that it reads without colour."""
DEFAULT_WIDTH = 80


@dataclass(frozen=True, slots=True)
class BoardRow:
    marker: str
    """``>`` for the seat to move, else blank."""
    label: str
    counts: tuple[int, ...]
    extra: str
    kind: str
    """``king``, ``table``, ``taken``, ``drawn`` or ``hand`` (a hand shown whole)."""
    over: tuple[bool, ...] = ()
    """Per dish: the viewer holds more of it than the king has (only on the viewer's rows)."""
    name: str = ""
    """The player's name alone, when ``label`` adds a marker to it ("(you)") that must
    survive any shortening."""

    def fitted(self, cells: int) -> str:
        """The label in ``cells`` cells: the name shortened, the marker kept."""
        if self.name and self.label != self.name:
            return fit_name(self.name, cells, strings.you_label)
        return fit_name(self.label, cells)


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
        label = names[seat]
        if seat == view.seat and not view.finished:
            label = strings.you_label(names[seat])
        name = names[seat]
        if hand.draws is not None:
            over: tuple[bool, ...] = ()
            if seat == view.seat and not view.finished:
                over = tuple(
                    took + drew > king
                    for took, drew, king in zip(hand.takes, hand.draws, view.king, strict=True)
                )
            rows.append(
                BoardRow(marker, label, hand.takes, strings.taken_extra(), "taken", over, name)
            )
            rows.append(
                BoardRow(
                    "", strings.drawn(), hand.draws, strings.drawn_extra(hand.hidden), "drawn",
                    over,
                )
            )
        else:
            rows.append(
                BoardRow(marker, label, hand.takes, strings.hidden_extra(hand.hidden), "hand",
                         name=name)
            )
    return rows


@dataclass(frozen=True, slots=True)
class GridLayout:
    """Column widths fitted to the translated words and the width there is.

    Every width is measured in terminal cells (Vietnamese diacritics take none of their own,
    East Asian characters two), so columns line up in every language.
    """

    name_width: int
    headers: tuple[str, ...]
    """Each dish's column header: its name, or a cut form ending in ``.``."""
    dish_widths: tuple[int, ...]
    """Cells per dish column, one of them the gap on its left."""
    extra_width: int
    cut: tuple[int, ...]
    """The dishes whose names had to be cut (the legend spells them out)."""

    @property
    def width(self) -> int:
        return 2 + self.name_width + sum(self.dish_widths) + self.extra_width


def _cell(count: int, over: bool) -> str:
    return f"{count}{OVER}" if count and over else str(count)


def grid_layout(rows: Sequence[BoardRow], width: int = DEFAULT_WIDTH) -> GridLayout:
    """Fit the grid into ``width`` cells: names whole where they fit, the longest dish names
    cut first (never below :data:`MIN_HEADER` cells) when they do not."""
    names = [dish_name(dish) for dish in range(len(DISHES))]
    longest_cell = [
        max((cell_len(_cell(row.counts[dish], bool(row.over) and row.over[dish]))
             for row in rows), default=1)
        for dish in range(len(DISHES))
    ]
    name_width = min(NAME_WIDTH, max((cell_len(row.label) for row in rows), default=4))
    extra_width = max((cell_len(row.extra) for row in rows if row.extra), default=0)
    extra_width = extra_width + 1 if extra_width else 0
    headers = list(names)
    cut: set[int] = set()

    def dish_widths() -> list[int]:
        return [max(cell_len(h), c) + 1 for h, c in zip(headers, longest_cell, strict=True)]

    def total() -> int:
        return 2 + name_width + sum(dish_widths()) + extra_width

    def shorter(dish: int) -> str:
        return cut_header(names[dish], cell_len(headers[dish]) - 1)

    while total() > width:
        candidates = [
            dish for dish in range(len(DISHES))
            if cell_len(headers[dish]) > max(MIN_HEADER + 1, longest_cell[dish])
            and shorter(dish) not in headers  # two columns never read alike
        ]
        if not candidates:
            break
        widest = max(candidates, key=lambda dish: (cell_len(headers[dish]), -dish))
        size = cell_len(headers[widest]) - 1
        headers[widest] = crop(names[widest], size - 1).rstrip() + "."
        cut.add(widest)
    tell_apart(headers, names)
    while total() > width and name_width > 6:
        name_width -= 1
    return GridLayout(name_width, tuple(headers), tuple(dish_widths()), extra_width,
                      tuple(sorted(cut)))


def legend(layout: GridLayout) -> str:
    """The cut names spelt out (empty when nothing was cut)."""
    if not layout.cut:
        return ""
    return " · ".join(
        strings.abbreviation(layout.headers[dish], dish_name(dish)) for dish in layout.cut
    )


def has_over(rows: Sequence[BoardRow]) -> bool:
    return any(
        count and flag for row in rows for count, flag in zip(row.counts, row.over, strict=False)
    )


_ROW_STYLE = {"king": "bold", "table": "bold", "taken": "", "drawn": "italic", "hand": ""}


def board_table(rows: Sequence[BoardRow], width: int = DEFAULT_WIDTH) -> Table:
    """The grid as a Rich table: zeros dim, counts bold, the king and table rows stand out,
    a count above the king's in red with :data:`OVER`."""
    layout = grid_layout(rows, width)
    table = Table(
        box=None, padding=(0, 0), show_edge=False, expand=False, header_style="bold underline",
        collapse_padding=True, pad_edge=False,
    )
    table.add_column("", width=2, no_wrap=True)
    table.add_column("", width=layout.name_width, no_wrap=True, overflow="crop")
    for dish in range(len(DISHES)):
        table.add_column(
            Text(layout.headers[dish], justify="right"),
            width=layout.dish_widths[dish],
            justify="right",
            no_wrap=True,
        )
    if layout.extra_width:
        table.add_column("", width=layout.extra_width, justify="right", no_wrap=True)
    for row in rows:
        style = _ROW_STYLE[row.kind]
        cells = []
        for dish, count in enumerate(row.counts):
            over = bool(row.over) and row.over[dish]
            if count and over:
                cells.append(Text(_cell(count, True), style="bold red", justify="right"))
            elif count:
                cells.append(Text(str(count), style="bold", justify="right"))
            else:
                cells.append(Text("·", style="dim", justify="right"))
        extra = [Text(row.extra, style="italic", justify="right")] if layout.extra_width else []
        table.add_row(
            Text(row.marker, style="bold"),
            Text(row.fitted(layout.name_width), style=style),
            *cells,
            *extra,
        )
    return table


def board_notes(rows: Sequence[BoardRow], view: View, width: int = DEFAULT_WIDTH) -> list[str]:
    """The lines under the grid: the legend of cut names, what ``!`` means, and the warning
    that this round is the last."""
    notes = []
    spelled = legend(grid_layout(rows, width))
    if spelled:
        notes.append(spelled)
    if has_over(rows):
        notes.append(strings.over_note(OVER))
    if view.last_round:
        notes.append(strings.last_round())
    return notes


def board_text(rows: Sequence[BoardRow], width: int = DEFAULT_WIDTH) -> list[str]:
    """The grid as plain fixed-width lines (the ``--plain`` mode), zeros as ``.``."""
    layout = grid_layout(rows, width)

    def right(text: str, cells: int) -> str:
        return " " * max(0, cells - cell_len(text)) + text

    def left(row: BoardRow, cells: int) -> str:
        text = row.fitted(cells)
        return text + " " * (cells - cell_len(text))

    header = " " * (2 + layout.name_width) + "".join(
        right(layout.headers[dish], layout.dish_widths[dish]) for dish in range(len(DISHES))
    )
    lines = [header]
    for row in rows:
        cells = "".join(
            right(_cell(count, bool(row.over) and row.over[dish]) if count else ".",
                  layout.dish_widths[dish])
            for dish, count in enumerate(row.counts)
        )
        extra = right(row.extra, layout.extra_width) if layout.extra_width else ""
        lines.append(f"{row.marker:<2}{left(row, layout.name_width)}{cells}{extra}".rstrip())
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
        taken = cards_phrase(hand.takes) if any(hand.takes) else None
        if hand.draws is None:
            lines.append(strings.hand_sentence(name, taken, None, hand.hidden))
        else:
            drawn = cards_phrase(hand.draws) if any(hand.draws) else None
            lines.append(strings.hand_sentence(name, taken, drawn, None))
    return lines
