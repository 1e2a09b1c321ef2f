"""Screens over the board: the drawn dragon's question, picking the dragon's two dishes, the
hint, the hot-seat hand-over, help, quitting and the final scoring."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from rich.cells import cell_len
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from kingsbreakfast.bots.hint import ActionEstimate
from kingsbreakfast.engine import DISHES, PLACE_DRAGON_ID, Action, Scoring, View
from kingsbreakfast.i18n import N_, current_language, language
from kingsbreakfast.i18n.words import dish_name

from . import strings
from .fit import fit_columns, fit_name
from .hint_table import hint_columns, hint_reason, hint_row
from .language import TranslatedBindings, app_language
from .moves import DISH_KEYS, action_label, first_dishes, second_dishes
from .opponents import rank_moves

PLACE, USE = "place", "use"


class DragonScreen(TranslatedBindings, ModalScreen[str | None]):
    """R7a, asked at once: use the drawn dragon (then pick two dishes) or place it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f", "choose('use')", N_("use it")),
        Binding("p", "choose('place')", N_("place it")),
        Binding("escape", "dismiss_none", N_("back")),
    ]

    def __init__(self, can_use: bool) -> None:
        super().__init__()
        self.can_use = can_use

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            question = strings.dragon_drawn() if self.can_use else strings.dragon_drawn_only_place()
            yield Static(question)
            options = [Option(Text(f"[p] {strings.place_label()}"), id=PLACE)]
            if self.can_use:
                options.insert(0, Option(Text(f"[f] {strings.use_dragon()}"), id=USE))
            yield OptionList(*options)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option_id)

    def action_choose(self, choice: str) -> None:
        if choice == USE and not self.can_use:
            self.notify(strings.dragon_drawn_only_place(), severity="warning")
            return
        self.dismiss(choice)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)


class FeedScreen(TranslatedBindings, ModalScreen[Action | None]):
    """Pick the two of the king's dishes the dragon eats (R8): first one, then the other;
    only dishes that make a legal pair are offered."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(key, f"dish({dish})", show=False) for dish, key in enumerate(DISH_KEYS)),
        Binding("escape", "back", N_("back")),
    ]

    def __init__(self, view: View) -> None:
        super().__init__()
        self.view = view
        self.first: int | None = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(strings.feed_first(), id="feed-question")
            yield OptionList(id="feed-dishes")
            yield Static(strings.cancel_hint(), classes="hint")

    def on_mount(self) -> None:
        self._offer(first_dishes(self.view))

    def _offer(self, dishes: Sequence[int]) -> None:
        options = self.query_one("#feed-dishes", OptionList)
        options.clear_options()
        for dish in dishes:
            label = strings.king_dish_option(dish, self.view.king[dish])
            options.add_option(Option(Text(f"[{DISH_KEYS[dish]}] {label}"), id=DISHES[dish]))
        options.highlighted = 0
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        assert event.option_id is not None
        self.action_dish(DISHES.index(event.option_id))

    def action_dish(self, dish: int) -> None:
        if self.first is None:
            if dish not in first_dishes(self.view):
                self.notify(strings.king_lacks(dish), severity="warning")
                return
            self.first = dish
            self.query_one("#feed-question", Static).update(strings.feed_second(dish))
            self._offer(second_dishes(self.view, dish))
            return
        if dish not in second_dishes(self.view, self.first):
            self.notify(strings.king_lacks(dish), severity="warning")
            return
        self.dismiss(Action.feed(self.first, dish))

    def action_back(self) -> None:
        if self.first is None:
            self.dismiss(None)
            return
        self.first = None
        self.query_one("#feed-question", Static).update(strings.feed_first())
        self._offer(first_dishes(self.view))


class HintScreen(TranslatedBindings, ModalScreen[Action | None]):
    """The hint: the bots' ranking of the human's moves from the human's own view."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss_none", N_("close"))]

    def __init__(self, view: View, rng: random.Random, seconds: float) -> None:
        super().__init__()
        self.view = view
        self.rng = rng
        self.seconds = seconds
        self.language = current_language()
        """The language is a context variable, which a callback sent from the search's
        thread does not carry: the ranking is written in this one explicitly."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="hint-dialog"):
            yield Static(strings.hint_title(), classes="title")
            yield Static(strings.hint_thinking(), id="hint-status")
            yield OptionList(id="hint-moves")
            yield Static(id="hint-why")
            yield Static(id="hint-legend", classes="hint")
            yield Static(strings.hint_explained(), classes="hint", id="hint-explained")
            yield Static(strings.hint_footer(), classes="hint")

    def on_mount(self) -> None:
        self._ranked: list[ActionEstimate] | None = None
        self._think()

    @work(thread=True, exclusive=True)
    def _think(self) -> None:
        ranked = rank_moves(self.view, self.rng, seconds=self.seconds)
        self.app.call_from_thread(self._show, ranked)

    def _show(self, ranked: list[ActionEstimate]) -> None:
        if not self.is_mounted:
            return  # closed before the search finished
        self._ranked = ranked
        with language(self.language):
            self._list(ranked)

    def on_resize(self) -> None:
        if self._ranked is not None:
            self.call_after_refresh(self._show, self._ranked)

    def _list(self, ranked: list[ActionEstimate]) -> None:
        """The ranking fitted to the list's width (its scroll bar's room always kept, so
        the header stays over its figures whether the list scrolls or not) and height."""
        options = self.query_one("#hint-moves", OptionList)
        width = options.scrollable_content_region.width or 40
        columns = hint_columns(width)
        self.query_one("#hint-status", Static).update(
            Text(columns.header_line(), style="bold", no_wrap=True))
        legend = columns.legend()
        self.query_one("#hint-legend", Static).update(legend)
        self.query_one("#hint-legend", Static).display = bool(legend)
        explained = strings.hint_explained()
        if any(line.exact for line in ranked):
            explained += " " + strings.hint_exact_note()
        self.query_one("#hint-explained", Static).update(explained)
        highlighted = options.highlighted or 0
        options.clear_options()
        for line in ranked:
            options.add_option(
                Option(Text("\n".join(hint_row(columns, line, why=False)), no_wrap=True),
                       id=str(int(line.action)))
            )
        options.highlighted = min(highlighted, len(ranked) - 1) if ranked else None
        options.focus()
        self.call_after_refresh(self._fit_height)

    def _fit_height(self) -> None:
        fit_height(self, self.query_one("#hint-dialog", Vertical),
                   self.query_one("#hint-moves", OptionList), 14)

    def on_option_list_option_highlighted(
        self, event: OptionList.OptionHighlighted
    ) -> None:
        """The highlighted move's reason, under the list (bots/reasons.py)."""
        ranked = self._ranked or []
        index = event.option_index
        why = hint_reason(ranked[index]) if 0 <= index < len(ranked) else ""
        with language(self.language):
            self.query_one("#hint-why", Static).update(
                Text(f"{action_label(ranked[index].action)}: {why}" if why else ""))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        assert event.option_id is not None
        self.dismiss(Action(int(event.option_id)))

    def action_dismiss_none(self) -> None:
        self.dismiss(None)


class HandoverScreen(TranslatedBindings, Screen[None]):
    """Hot-seat: a blank screen between two humans, so no drawn card is seen by the wrong
    player; it covers the board completely (an opaque screen, not a dialog)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "ready", N_("ready"))]

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player = name

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(strings.handover(self.player), style="bold"))
            yield Static(strings.handover_detail())
            yield Static(strings.handover_ready(self.player))

    def action_ready(self) -> None:
        self.dismiss(None)


class DrawnCardScreen(TranslatedBindings, ModalScreen[None]):
    """Hot-seat: the card a player just drew, shown to them alone before the screen goes
    to the next player (R7b); otherwise they would never see it until their next turn."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "ready", N_("ready"))]

    def __init__(self, dish: int) -> None:
        super().__init__()
        self.dish = dish

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(strings.you_drew(self.dish), style="bold"))
            yield Static(strings.you_drew_ready())

    def action_ready(self) -> None:
        self.dismiss(None)


class HelpScreen(TranslatedBindings, ModalScreen[None]):
    """The keys (``?``): a table of key and meaning that scrolls when the screen is short,
    with the line saying how to close it always in sight below."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", N_("back")),
        Binding("question_mark", "close", ""),
    ]

    def __init__(self, keys: list[tuple[str, str]] | None = None) -> None:
        super().__init__()
        self.keys = keys
        """The keys to list (the game's by default; the replay has its own)."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="help-dialog"):
            yield Static(Text(strings.help_title(), style="bold"), classes="title")
            with VerticalScroll(id="help-keys"):
                yield Static(help_table(self.keys or strings.help_keys()))
                yield Static(strings.help_board())
            yield Static(Text(strings.help_close(), style="bold"), classes="hint")

    def on_mount(self) -> None:
        self.query_one("#help-keys", VerticalScroll).focus()
        self.call_after_refresh(self._fit_height)

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit_height)

    def _fit_height(self) -> None:
        fit_height(self, self.query_one("#help-dialog", Vertical),
                   self.query_one("#help-keys", VerticalScroll), 100)

    def action_close(self) -> None:
        self.dismiss(None)


def fit_height(screen: Widget, dialog: Widget, scroller: Widget, most: int) -> None:
    """Let ``scroller`` (a list, a scrolling text) take the rows the screen has left once
    the rest of ``dialog`` is shown, so that nothing below it is pushed off the screen."""
    others = sum(child.outer_size.height for child in dialog.children
                 if child is not scroller and child.display)
    frame = dialog.outer_size.height - dialog.size.height
    room = screen.size.height - frame - others
    scroller.styles.max_height = max(3, min(most, room))


def help_table(keys: list[tuple[str, str]]) -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(no_wrap=True, style="bold")
    table.add_column(ratio=1, overflow="fold")
    for key, meaning in keys:
        table.add_row(Text(key), Text(meaning))
    table.add_row("", "")
    return table


class QuitScreen(TranslatedBindings, ModalScreen[str | None]):
    """Quit, offering to save first."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "answer('save')", N_("save and quit")),
        Binding("q", "answer('quit')", N_("quit")),
        Binding("escape", "answer('stay')", N_("stay")),
    ]

    def __init__(self, kept: bool = True) -> None:
        super().__init__()
        self.kept = kept
        """Whether quitting keeps the game among the saved games (not a new game that no
        human has moved in yet), which the question says."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(strings.quit_question() if self.kept else strings.quit_untouched())

    def action_answer(self, answer: str) -> None:
        self.dismiss(answer)


class ScoreScreen(TranslatedBindings, Screen[str]):
    """The final scoring (R11) dish by dish, discards and the tie-break (R12); play again."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "answer('again')", N_("play again")),
        Binding("s", "app.save", N_("save")),
        Binding("q", "answer('quit')", N_("quit")),
    ]

    def __init__(
        self, scoring: Scoring, king: Sequence[int], names: Sequence[str],
        kept: str | None = None,
    ) -> None:
        super().__init__()
        self.scoring = scoring
        self.king = tuple(king)
        self.names = list(names)
        self.kept = kept
        """Where the finished game's autosave is kept for replay (None: nowhere)."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="score"):
            yield Static(id="score-title")
            yield Static(id="score-table")
            yield Static(id="score-winner")
            yield Static(id="score-explain")
            yield Static(id="score-kept", classes="hint")
        yield Static(id="score-keys")

    def on_mount(self) -> None:
        self.retranslate()

    def on_resize(self) -> None:
        with app_language(self):
            self.retranslate()

    def retranslate(self) -> None:
        """Draw every line in the current language, the table fitted to the width."""
        width = max(self.size.width or self.app.size.width, 20) - 4
        winners = [self.names[seat] for seat in self.scoring.winners]
        self.query_one("#score-title", Static).update(
            Text(strings.score_title(), style="bold underline"))
        self.query_one("#score-table", Static).update(
            score_table(self.scoring, self.king, self.names, width))
        self.query_one("#score-winner", Static).update(
            Text(strings.winner_line(winners, self.scoring.tie_break), style="bold"))
        self.query_one("#score-explain", Static).update(strings.score_explain())
        kept = self.query_one("#score-kept", Static)
        kept.display = self.kept is not None
        if self.kept is not None:
            kept.update(strings.finished_game_kept(self.kept))
        self.query_one("#score-keys", Static).update(Text(strings.play_again(), style="bold"))

    def action_answer(self, answer: str) -> None:
        self.dismiss(answer)


def score_table(
    scoring: Scoring, king: Sequence[int], names: Sequence[str], width: int = 78
) -> Group:
    """Rows: the king's plate, then each player: per dish ``held×king``'s points or the
    discarded cards (``x``), the total and the cards discarded; headers cut to fit ``width``
    cells are spelt out in a legend under the table."""
    titles = ["", *(dish_name(dish) for dish in range(len(DISHES))),
              strings.points_header(), strings.discarded_header()]
    for compact in (False, True):  # narrow: each dish's points alone, not held×king=points
        rows = _score_rows(scoring, king, names, compact)
        needs = [
            min(NAME_CELLS, max(cell_len(row[0].plain) for row in rows)),
            *(max(cell_len(row[1][dish].plain) for row in rows) for dish in range(len(DISHES))),
            max(cell_len(row[2].plain) for row in rows),
            max(cell_len(row[3].plain) for row in rows),
        ]
        columns = fit_columns(titles, needs, width)
        if columns.width <= width:
            break
    table = Table(box=None, padding=(0, 0), header_style="bold underline", show_edge=False,
                  collapse_padding=True, pad_edge=False)
    for index, (header, cells_wide) in enumerate(
        zip(columns.headers, columns.widths, strict=True)
    ):
        table.add_column(
            Text(header, justify="left" if index == 0 else "right"), width=cells_wide,
            justify="left" if index == 0 else "right", no_wrap=True, overflow="crop",
        )
    for name, cells, points, discarded in rows:
        name.plain = fit_name(name.plain, columns.widths[0])
        table.add_row(name, *cells, points, discarded)
    legend = columns.legend()
    return Group(table, *([Text(legend, style="italic")] if legend else []))


def _score_rows(
    scoring: Scoring, king: Sequence[int], names: Sequence[str], compact: bool
) -> list[tuple[Text, list[Text], Text, Text]]:
    winners = set(scoring.winners)
    rows: list[tuple[Text, list[Text], Text, Text]] = [
        (Text(strings.king(), style="bold"), [Text(str(count)) for count in king],
         Text(""), Text(""))
    ]
    for player in scoring.players:
        cells: list[Text] = []
        for result in player.dishes:
            if result.discarded:
                cells.append(Text(strings.discarded_cell(result.held), style="bold red"))
            elif result.held:
                cells.append(Text(str(result.points) if compact else
                                  strings.points_cell(result.held, result.king, result.points)))
            else:
                cells.append(Text("·", style="dim"))
        style = "bold" if player.seat in winners else ""
        rows.append((Text(names[player.seat], style=style), cells,
                     Text(str(player.points), style="bold"), Text(str(player.discarded))))
    return rows


NAME_CELLS = 12
"""At most this many cells for a name in the score table; a longer one is shortened."""


def place_action() -> Action:
    return Action(PLACE_DRAGON_ID)
