"""The pieces of the full-screen game: status line, board, move list and log.

Each widget is redrawn from a :class:`View` (and the names at the table), never from the
game state, so what a widget can show is what that view's seat may know.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.events import Resize
from textual.widgets import OptionList, RichLog, Static
from textual.widgets.option_list import Option

from kingsbreakfast.engine import HandView, View, score_hand

from . import strings
from .board import board_notes, board_rows, board_table
from .language import app_language
from .moves import DISH_KEYS, Move, moves


class StatusBar(Static):
    """One line: round, cook, deck, who moves, whose eyes the screen is for."""

    def show(
        self, view: View, names: Sequence[str], prefix: str = "", with_viewer: bool = True
    ) -> None:
        to_move = None if view.to_move is None else names[view.to_move]
        viewer = None if view.seat is None else names[view.seat]
        width = (self.content_size.width or self.app.size.width - 2) - cell_len(prefix)
        line = strings.status_line(
            view.round, names[view.cook], view.deck_size, to_move, viewer, with_viewer
        )
        if with_viewer and cell_len(line) > width:  # narrow: the viewer is on the board
            line = strings.status_line(
                view.round, names[view.cook], view.deck_size, to_move, viewer, False
            )
        self.update(Text(prefix + line, style="bold", no_wrap=True, overflow="ellipsis"))
        self._shown = (view, names, prefix, with_viewer)

    _shown: tuple[View, Sequence[str], str, bool] | None = None

    def on_resize(self) -> None:
        if self._shown is not None:
            with app_language(self):
                self.show(*self._shown)


class Board(Static):
    """The king's plate, the table and every hand, by dish (see :mod:`.board`), with the
    notes under it: cut names spelt out, counts above the king's, the last round."""

    _shown: tuple[View, Sequence[str], Sequence[HandView] | None] | None = None

    def show(
        self, view: View, names: Sequence[str], hands: Sequence[HandView] | None = None
    ) -> None:
        self._shown = (view, names, hands)
        width = self.content_size.width or max(self.app.size.width - 2, 20)
        rows = board_rows(view, names, hands)
        notes = [
            Text(note, style="bold yellow" if note == strings.last_round() else "italic",
                 overflow="fold")
            for note in board_notes(rows, view, width)
        ]
        self.update(Group(board_table(rows, width), *notes))

    def on_resize(self) -> None:
        """Fit the columns to the new width (names are cut or spelt out again)."""
        if self._shown is not None:
            with app_language(self):
                self.show(*self._shown)


class MoveList(OptionList):
    """The legal moves of the human to move, each with its key; empty while others move."""

    def show(self, view: View | None, waiting_for: str | None = None) -> None:
        self.clear_options()
        if view is None or view.to_move is None or view.to_move != view.seat:
            self.border_title = strings.waiting_title()
            if waiting_for is not None:
                self.add_option(Option(Text(strings.waiting_for(waiting_for)), disabled=True))
            self.border_subtitle = ""
            return
        self.border_title = strings.actions_title()
        for move in screen_order(moves(view)):
            self.add_option(Option(_key_and_label(move.key, move.label), id=move.key))
        self.highlighted = 0
        hand = view.my_hand
        self._points = None
        if hand is not None and hand.cards is not None:
            self._points = score_hand(view.king, hand.cards)
        self._fit_points()

    _points: tuple[int, int] | None = None

    def _fit_points(self) -> None:
        """The hand's points on the frame's bottom line, shortened to the points alone
        where the whole line would be cut (the board marks the discarded dishes with !)."""
        if self._points is None:
            self.border_subtitle = ""
            return
        points, discarded = self._points
        line = strings.provisional_short(points, discarded)
        room = self.size.width - 4  # the corners and a cell of frame on each side
        if room > 0 and cell_len(line) > room:
            line = strings.provisional_short(points, 0)
        self.border_subtitle = line

    def on_resize(self) -> None:
        with app_language(self):
            self._fit_points()


def screen_order(listed: Sequence[Move]) -> list[Move]:
    """Draw, feed, place and pass before the dishes: on a short screen the list scrolls,
    and the dishes one may take are on the board's table row, under their keys' numbers,
    while nothing else on the screen shows the other moves."""
    return [*(m for m in listed if m.key not in DISH_KEYS),
            *(m for m in listed if m.key in DISH_KEYS)]


def _key_and_label(key: str, label: str) -> Table:
    """``[k] label``, a long label wrapping under itself rather than under the key."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column(ratio=1, overflow="fold")
    grid.add_row(Text(f"[{key}]"), Text(label))
    return grid


class GameLog(RichLog):
    """What happened, in words (from :mod:`kingsbreakfast.narrate`), newest at the bottom.

    The lines are kept, so that a change of width wraps them anew (a log wraps when it
    writes) and the newest line stays in sight.
    """

    _kept: list[str]
    _wrapped_at = 0

    def show_lines(self, lines: Sequence[str], start: int = 0) -> None:
        """Write ``lines[start:]``; with ``start`` 0 the log is rebuilt from scratch."""
        if start == 0:
            self._kept = []
        self._kept = [*self._kept, *lines[start:]]
        self._write_lines(lines, start)

    def _write_lines(self, lines: Sequence[str], start: int) -> None:
        if start == 0:
            self.clear()
            # rebuilt (a hand-over, a new language): once laid out, the newest line shows
            self.call_after_refresh(self.scroll_end, animate=False)
        for line in lines[start:]:
            style = "bold" if line.startswith("Round") else ""
            self.write(Text(line, style=style), scroll_end=True)

    def on_resize(self, event: Resize) -> None:
        super().on_resize(event)
        width = event.size.width
        if not width or width == self._wrapped_at:
            return
        first = not self._wrapped_at
        self._wrapped_at = width
        if not first and getattr(self, "_kept", None):
            self._write_lines(self._kept, 0)
            self.scroll_end(animate=False)
