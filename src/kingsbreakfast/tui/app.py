"""The full-screen game (Textual): play against bots, or hot-seat at one keyboard.

The game screen is redrawn from the view of the seat whose eyes it is for (see
:class:`~kingsbreakfast.tui.session.Watcher`), bots think off the screen's thread and move
after a short visible pause, and every human decision is checked by the engine before it is
made, with the reason shown when it is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
from pathlib import Path
from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static

from kingsbreakfast.engine import Action, HandView, IllegalActionError, Scoring
from kingsbreakfast.i18n import N_, current_language
from kingsbreakfast.i18n.errors import explain

from . import strings
from .language import next_language, translate_bindings
from .moves import (
    DISH_KEYS,
    DRAW_KEY,
    FEED,
    FEED_KEY,
    PASS_KEY,
    PLACE_KEY,
    Move,
    action_label,
    move_for_key,
)
from .saving import Autosaver, default_save_path, finished_dir, write_record
from .screens import (
    USE,
    DragonScreen,
    DrawnCardScreen,
    FeedScreen,
    HandoverScreen,
    HelpScreen,
    HintScreen,
    QuitScreen,
    ScoreScreen,
    place_action,
)
from .session import Game, Watcher
from .style import CSS, few_colours, sixteen_colour_variables
from .widgets import Board, GameLog, MoveList, StatusBar

SPEEDS = (0.0, 0.2, 0.5, 1.0, 2.0)
"""Pauses (seconds) a bot waits before moving, so that a human can follow the game."""
DEFAULT_SPEED = 0.5
LIGHT, DARK = "textual-light", "textual-dark"
"""The two colour schemes (key t switches): both keep every text readable."""


def no_color() -> bool | None:
    """``NO_COLOR`` set (https://no-color.org: any value, even empty): the screens keep
    their bold and underline but paint no colour, not even a background (Textual's own
    reading of the variable only greys the colours). For the app's ``ansi_color``."""
    return True if os.environ.get("NO_COLOR") is not None else None


def toggled(theme: str) -> str:
    return LIGHT if theme == DARK else DARK


class GameScreen(Screen[None]):
    """The board, the moves, the log: one game from start to the score screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(key, f"key_move('{key}')", show=False) for key in DISH_KEYS),
        Binding(DRAW_KEY, f"key_move('{DRAW_KEY}')", show=False),
        Binding(FEED_KEY, f"key_move('{FEED_KEY}')", show=False),
        Binding(PLACE_KEY, f"key_move('{PLACE_KEY}')", show=False),
        Binding(PASS_KEY, f"key_move('{PASS_KEY}')", show=False),
        Binding("h", "hint", N_("hint")),
        Binding("s", "app.save", N_("save")),
        # in the help (key ?), not the footer, which must fit 80 columns in every language
        Binding("plus", "speed(-1)", N_("faster"), show=False),
        Binding("minus", "speed(1)", N_("slower"), show=False),
        Binding("question_mark", "help", N_("keys")),
        Binding("q", "quit_game", N_("quit")),
    ]

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game
        self.watcher = Watcher(game)
        self.awaiting_human = False
        self._logged = 0
        self._log_viewer: int | None = -1
        self._hint_rng = random.Random(game.rng.random())

    @property
    def kb_app(self) -> PlayApp:
        app = self.app
        assert isinstance(app, PlayApp)
        return app

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        yield from self.above_board()
        yield Board(id="board")
        with Horizontal(id="bottom"):
            yield MoveList(id="moves")
            log = GameLog(id="log", wrap=True, markup=False, highlight=False, min_width=20)
            log.border_title = strings.log_title()
            yield log
        yield Static("", id="message").set_styles("display: none;")
        yield Footer()

    def above_board(self) -> ComposeResult:
        """What a screen built on this one shows between the status line and the board."""
        yield from ()

    def on_mount(self) -> None:
        translate_bindings(self)
        self.redraw()
        self.advance()

    # -- drawing -------------------------------------------------------------------------
    def redraw(self, full: bool = False) -> None:
        """Rebuild everything from the watcher's view (public view when nobody's); ``full``
        also rewrites the whole log (after a change of language)."""
        if full:
            self._log_viewer = -1
            self.query_one(GameLog).border_title = strings.log_title()
        view = self.game.view(self.watcher.seat)
        names = self.game.names
        self.query_one(StatusBar).show(view, names)
        self.query_one(Board).show(view, names)
        waiting = None
        if view.to_move is not None and view.to_move != view.seat:
            waiting = names[view.to_move]
        self.query_one(MoveList).show(view if self.awaiting_human else None, waiting)
        log = self.query_one(GameLog)
        lines = self.game.log_lines(self.watcher.seat)
        if self._log_viewer != self.watcher.seat:
            log.show_lines(lines)
            self._log_viewer = self.watcher.seat
        else:
            log.show_lines(lines, self._logged)
        self._logged = len(lines)

    def say(self, message: str) -> None:
        """A line under the moves; it takes no room while there is nothing to say."""
        line = self.query_one("#message", Static)
        line.update(Text(message))
        line.display = bool(message)

    # -- the flow of turns ---------------------------------------------------------------
    def advance(self) -> None:
        self.run_worker(self._advance(), exclusive=True, group="turns")

    async def _advance(self) -> None:
        """Let bots move (with a pause) until a human must decide or the game is over."""
        game = self.game
        while not game.is_over:
            if game.human_to_move():
                seat = self.watcher.handover_to()
                if seat is not None:
                    self.redraw()
                    self.app.push_screen(HandoverScreen(game.names[seat]), self._handed_over)
                    return
                self.awaiting_human = True
                self.redraw()
                self.query_one(MoveList).focus()
                view = game.view(self.watcher.seat)
                if view.pending_dragon:
                    self._ask_dragon()
                return
            self.redraw()
            pause = self.kb_app.speed
            if pause:
                await asyncio.sleep(pause)
            action = await asyncio.to_thread(game.bot_choice)
            game.play(action)
            self.kb_app.autosave()
            self.watcher.after_move()
        self.redraw()
        view = game.view(None)
        scoring = view.score()
        assert scoring is not None  # every hand is shown once the game is over (R11)
        self.app.push_screen(self.score_screen(scoring, view.king), self.kb_app.after_score)

    def score_screen(self, scoring: Scoring, king: tuple[int, ...]) -> ScoreScreen:
        """The screen the game ends on (the lesson's tells the scoring its own way)."""
        saver = self.kb_app.autosaver
        kept = str(saver.path) if saver.written and saver.path.parent == finished_dir() else None
        return ScoreScreen(scoring, king, self.game.names, kept)

    def _handed_over(self, _: None) -> None:
        seat = self.game.to_move
        assert seat is not None
        self.watcher.take_over(seat)
        self.advance()

    def play(self, action: Action) -> None:
        """The human's move, checked by the engine; a refusal is shown, nothing changes."""
        if not self.awaiting_human:
            return
        mover = self.watcher.seat
        before = None if mover is None else self.game.view(mover).my_hand
        try:
            self.game.play(action)
        except IllegalActionError as error:
            self.say(strings.refused(action_label(action), explain(error)))
            return
        self.say("")
        self.kb_app.saved = False
        self.kb_app.autosave()
        self.awaiting_human = False
        drawn = self._drawn_dish(mover, before) if self.watcher.hotseat else None
        self.watcher.after_move()
        if drawn is not None and self.game.to_move != mover:
            self.redraw()
            self.app.push_screen(DrawnCardScreen(drawn), lambda _: self.advance())
            return
        self.advance()

    def _drawn_dish(self, mover: int | None, before: HandView | None) -> int | None:
        """The dish the mover just drew, if the last action drew one (not a dragon)."""
        if mover is None or before is None or before.draws is None:
            return None
        after = self.game.view(mover).my_hand
        draws = () if after is None or after.draws is None else after.draws
        pairs = enumerate(zip(before.draws, draws, strict=False))  # () when nothing drawn
        grown = [dish for dish, (old, new) in pairs if new > old]
        return grown[0] if grown else None

    # -- human input ---------------------------------------------------------------------
    def action_key_move(self, key: str) -> None:
        if not self.awaiting_human:
            to_move = self.game.to_move
            if to_move is not None:
                self.say(strings.not_your_turn(self.game.names[to_move]))
            return
        view = self.game.view(self.watcher.seat)
        found = move_for_key(view, key)
        if isinstance(found, Move):
            self._choose(found)
        elif isinstance(found, str):
            self.say(found)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_id is not None:
            self.action_key_move(event.option_id)

    def _choose(self, move: Move) -> None:
        if move.action == FEED:
            view = self.game.view(self.watcher.seat)
            self.app.push_screen(FeedScreen(view), self._fed)
        else:
            assert isinstance(move.action, Action)
            self.play(move.action)

    def _fed(self, action: Action | None) -> None:
        if action is not None:
            self.play(action)

    def _ask_dragon(self) -> None:
        view = self.game.view(self.watcher.seat)
        can_use = any(action.kind == "feed" for action in view.legal_actions())
        self.app.push_screen(DragonScreen(can_use), self._dragon_answer)

    def _dragon_answer(self, answer: str | None) -> None:
        if answer is None:
            return  # the move list still offers feed and place
        if answer == USE:
            self.app.push_screen(FeedScreen(self.game.view(self.watcher.seat)), self._fed)
        else:
            self.play(place_action())

    def action_hint(self) -> None:
        if not self.awaiting_human:
            to_move = self.game.to_move
            if to_move is not None:
                self.say(strings.not_your_turn(self.game.names[to_move]))
            return
        view = self.game.view(self.watcher.seat)
        self.app.push_screen(
            HintScreen(view, self._hint_rng, self.kb_app.hint_seconds), self._fed
        )

    def action_speed(self, step: int) -> None:
        self.kb_app.change_speed(step)
        self.say(strings.speed_now(self.kb_app.speed))

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def action_quit_game(self) -> None:
        kept = self.kb_app.autosaver.worth_keeping(self.game)
        self.app.push_screen(QuitScreen(kept), self.kb_app.after_quit_question)


class PlayApp(App[None]):
    """``kingsbreakfast play``: one game after another with the same seats and settings."""

    CSS = CSS
    ENABLE_COMMAND_PALETTE = False
    """The framework's palette speaks only English and offers nothing the keys do not."""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t", "toggle_theme", N_("colours"), show=False),
        Binding("L", "switch_language", N_("language")),
        # both keys leave at once, and the game is saved: nothing is lost either way
        Binding("ctrl+q", "leave", N_("save and leave"), show=False, priority=True),
        Binding("ctrl+c", "leave", N_("save and leave"), show=False, priority=True),
    ]

    def __init__(
        self,
        game: Game,
        speed: float = DEFAULT_SPEED,
        save_path: Path | None = None,
        hint_seconds: float = 2.0,
        light: bool = False,
        autosaver: Autosaver | None = None,
    ) -> None:
        super().__init__(ansi_color=no_color())
        self.theme = LIGHT if light else DARK
        self.language_code = current_language()
        """The language the screens speak (see :func:`.language.app_language`)."""
        self.game = game
        self.speed = speed
        self.save_path = save_path
        self.hint_seconds = hint_seconds
        self.saved = False
        self.last_saved: Path | None = None
        self._saved_actions = -1
        self.autosaver = autosaver or Autosaver()
        self.farewell: str | None = None
        """The line to print once the screen is gone (where the game was saved)."""

    def get_css_variables(self) -> dict[str, str]:
        """The theme's colours; on a terminal of 16 colours with a primary that keeps the
        highlighted move and the status line readable there (:mod:`.style`)."""
        variables = super().get_css_variables()
        if few_colours(self.console.color_system):
            variables = {**variables, **sixteen_colour_variables(self.current_theme)}
            self.theme_variables = variables
        return variables

    def on_mount(self) -> None:
        self.title = strings.title()
        translate_bindings(self)
        self.autosave()
        # a closed terminal (SIGHUP): the game is saved already, leave cleanly; no such
        # signal or no handler outside the main thread (tests, Windows): go without
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError, AttributeError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, self.hung_up)
        self.push_screen(self.new_game_screen())

    def new_game_screen(self) -> GameScreen:
        """The screen a game is played on (the lesson's adds its panel)."""
        return GameScreen(self.game)

    def autosave(self) -> None:
        """After every action: the autosave file holds the game so far."""
        self.autosaver.save(self.game)

    def hung_up(self) -> None:
        """The terminal is gone (SIGHUP): save and end the process at once. A clean exit
        would restore a terminal that no longer exists, and while bots play at zero pause
        that can block for ever on the dead terminal, leaving the process behind. The
        handler runs on the event loop, between two actions, so the save is whole."""
        if not self.autosaver.worth_keeping(self.game):
            self.autosaver.discard()
        else:
            self.autosave()
        os._exit(128 + signal.SIGHUP)

    def action_leave(self) -> None:
        """Ctrl-C, Ctrl-Q or a closed terminal: save and leave, saying how to come back."""
        self.autosave()
        self.exit()

    def exit(
        self, result: None = None, return_code: int = 0, message: RenderableType | None = None
    ) -> None:
        """Every way out passes here: an unfinished game leaves a line on how to resume."""
        if not self.game.is_over:
            # the player's file if no action came after it (bots move on), else the autosave
            current = self.saved and self._saved_actions == len(self.game.state.history)
            if not self.autosaver.worth_keeping(self.game):  # no human has moved in it
                self.autosaver.discard()
                self.farewell = strings.saved_to(str(self.last_saved)) if current else (
                    strings.not_kept())
            else:
                self.farewell = self.autosaver.farewell(self.last_saved if current else None)
        super().exit(result, return_code, message)

    def action_switch_language(self) -> None:
        """``L``: the next language; the game goes on where it was, told in the new one."""
        self.language_code = next_language()
        self.title = strings.title()
        for screen in self.screen_stack:
            translate_bindings(screen)
        translate_bindings(self)
        game_screen = self.game_screen
        if game_screen is not None:
            game_screen.redraw(full=True)
        for screen in self.screen_stack:
            if isinstance(screen, ScoreScreen):
                screen.retranslate()  # the scoring, told anew in the new language
        self.refresh_bindings()

    @property
    def game_screen(self) -> GameScreen | None:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, GameScreen):
                return screen
        return None

    def change_speed(self, step: int) -> None:
        """Step through :data:`SPEEDS` (``-1`` faster, ``+1`` slower)."""
        nearest = min(range(len(SPEEDS)), key=lambda i: abs(SPEEDS[i] - self.speed))
        self.speed = SPEEDS[max(0, min(len(SPEEDS) - 1, nearest + step))]

    def action_toggle_theme(self) -> None:
        self.theme = toggled(self.theme)

    def action_save(self) -> None:
        path = self.save_path or default_save_path()
        try:
            write_record(self.game, path)
        except OSError as error:
            self.notify(strings.save_failed(str(path), error.strerror or str(error)),
                        severity="error")
            return
        self.saved = True
        self.last_saved = path
        self._saved_actions = len(self.game.state.history)
        message = strings.saved_to(str(path))
        screen = self.game_screen
        if screen is not None and self.screen is screen:
            screen.say(message)
        else:
            self.notify(message)

    def after_quit_question(self, answer: str | None) -> None:
        if answer == "save":
            self.action_save()
            if self.saved:
                self.exit()
        elif answer == "quit":
            self.exit()

    def after_score(self, answer: str | None) -> None:
        if answer == "again":
            self.game = self.game.rematch()
            self.saved = False
            self.autosaver = self.autosaver.next_game()
            self.autosave()
            self.switch_screen(self.new_game_screen())
        elif answer == "quit":
            self.exit()

