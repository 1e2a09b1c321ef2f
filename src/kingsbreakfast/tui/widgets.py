"""The pieces of the full-screen game: status line, board, move list and log.

Each widget is redrawn from a :class:`View` (and the names at the table), never from the
game state, so what a widget can show is what that view's seat may know.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import OptionList, RichLog, Static
from textual.widgets.option_list import Option

from kingsbreakfast.engine import HandView, View, score_hand

from . import strings
from .board import board_rows, board_table
from .moves import moves


class StatusBar(Static):
    """One line: round, cook, deck, who moves, whose eyes the screen is for."""

    def show(
        self, view: View, names: Sequence[str], prefix: str = "", with_viewer: bool = True
    ) -> None:
        to_move = None if view.to_move is None else names[view.to_move]
        viewer = None if view.seat is None else names[view.seat]
        line = strings.status_line(
            view.round, names[view.cook], view.deck_size, to_move, viewer, with_viewer
        )
        self.update(Text(prefix + line, style="bold", no_wrap=True, overflow="ellipsis"))


class Board(Static):
    """The king's plate, the table and every hand, by dish (see :mod:`.board`)."""

    def show(
        self, view: View, names: Sequence[str], hands: Sequence[HandView] | None = None
    ) -> None:
        self.update(board_table(board_rows(view, names, hands)))


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
        for move in moves(view):
            self.add_option(Option(Text(f"[{move.key}] {move.label}"), id=move.key))
        self.highlighted = 0
        hand = view.my_hand
        if hand is not None and hand.cards is not None:
            self.border_subtitle = strings.provisional_short(*score_hand(view.king, hand.cards))


class GameLog(RichLog):
    """What happened, in words (from :mod:`kingsbreakfast.narrate`), newest at the bottom."""

    def show_lines(self, lines: Sequence[str], start: int = 0) -> None:
        """Write ``lines[start:]``; with ``start`` 0 the log is rebuilt from scratch."""
        self._write_lines(lines, start)

    def _write_lines(self, lines: Sequence[str], start: int) -> None:
        if start == 0:
            self.clear()
        for line in lines[start:]:
            style = "bold" if line.startswith("Round") else ""
            self.write(Text(line, style=style))
