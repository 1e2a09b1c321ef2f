"""``replay FILE --step``: a record stepped through forwards and backwards on the game's own
board (status line, board, log)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer

from kingsbreakfast.engine import Record
from kingsbreakfast.i18n import N_, current_language

from . import strings
from .app import DARK, LIGHT, no_color, toggled
from .language import TranslatedBindings
from .replay_model import Replay
from .screens import HelpScreen, score_table
from .style import CSS, few_colours, sixteen_colour_variables
from .widgets import Board, GameLog, StatusBar


class ReplayApp(TranslatedBindings, App[None]):
    """Step 0 is the first deal; each step is one action, narrated in the log."""

    CSS = CSS + "#log { height: 1fr; }"
    ENABLE_COMMAND_PALETTE = False  # as in the game: the framework's palette is English only
    BINDINGS: ClassVar[list[BindingType]] = [
        # Ctrl-C leaves at once, as Ctrl-Q does (nothing to save when only watching)
        Binding("ctrl+c", "quit", N_("quit"), show=False, priority=True),
        Binding("right", "step(1)", N_("next"), priority=True),
        Binding("n", "step(1)", N_("next"), show=False),
        Binding("left", "step(-1)", N_("back"), priority=True),
        Binding("b", "step(-1)", N_("back"), show=False),
        Binding("pagedown", "step(10)", N_("+10"), show=False, priority=True),
        Binding("pageup", "step(-10)", N_("-10"), show=False, priority=True),
        Binding("home", "jump(0)", N_("first"), priority=True),
        Binding("end", "jump(-1)", N_("last"), priority=True),
        Binding("question_mark", "help", N_("keys")),
        Binding("t", "toggle_theme", N_("colours"), show=False),
        Binding("q", "quit", N_("quit")),
    ]

    def get_css_variables(self) -> dict[str, str]:
        """As the game's (:meth:`.app.PlayApp.get_css_variables`): readable at 16 colours."""
        variables = super().get_css_variables()
        if few_colours(self.console.color_system):
            variables = {**variables, **sixteen_colour_variables(self.current_theme)}
            self.theme_variables = variables
        return variables

    def __init__(self, record: Record, light: bool = False) -> None:
        super().__init__(ansi_color=no_color())
        self.theme = LIGHT if light else DARK
        self.language_code = current_language()
        self.replay = Replay(record)
        self.step = 0

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        yield Board(id="board")
        log = GameLog(id="log", wrap=True, markup=False, highlight=False, min_width=20)
        log.border_title = strings.log_title()
        yield log
        yield Footer()

    def on_mount(self) -> None:
        self.title = strings.title()
        self.show()

    def show(self) -> None:
        replay, step = self.replay, self.step
        view = replay.view(step)
        self.query_one(StatusBar).show(
            view, replay.names, strings.replay_status(step, replay.steps) + " · ",
            with_viewer=False,
        )
        self.query_one(Board).show(view, replay.names, replay.hands(step))
        log = self.query_one(GameLog)
        log.show_lines(replay.log(step))
        scoring = view.score() if step == replay.steps and view.finished else None
        if scoring is not None:  # the final scoring (R11, R12), as the score screen has it
            winners = [replay.names[seat] for seat in scoring.winners]
            log.write(Text(strings.score_title(), style="bold underline"))
            log.write(score_table(scoring, view.king, replay.names,
                                  max(log.scrollable_content_region.width, 40)))
            log.write(Text(strings.winner_line(winners, scoring.tie_break), style="bold"))

    def action_step(self, delta: int) -> None:
        self.step = max(0, min(self.replay.steps, self.step + delta))
        self.show()

    def action_jump(self, step: int) -> None:
        self.step = self.replay.steps if step < 0 else step
        self.show()

    def action_toggle_theme(self) -> None:
        self.theme = toggled(self.theme)

    def action_help(self) -> None:
        self.push_screen(HelpScreen(strings.replay_help_keys()))
