"""``kingsbreakfast learn``: the lesson (:mod:`kingsbreakfast.lesson`) in the game's screen.

It is the terminal game itself — board, moves, log, keys — with the lesson's panel above the
board saying what the step teaches and which move it waits for. A move the step does not
ask for is answered kindly under the moves and nothing changes; ``q`` leaves at once. The
game ends on the score screen with the lesson's own account of the scoring, and ``n`` there
starts a real game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.css.scalar import Scalar
from textual.widgets import Footer, Static

from kingsbreakfast.engine import Action, IllegalActionError, Scoring, View
from kingsbreakfast.i18n import N_, _
from kingsbreakfast.lesson import LEARNER, Lesson, lesson_names, lesson_record, scoring_lines
from kingsbreakfast.narrate import DEFAULT_NAMES

from .app import DEFAULT_SPEED, GameScreen, PlayApp
from .moves import FEED, moves
from .saving import Autosaver
from .screens import ScoreScreen
from .session import Game, LogEntry, Seat
from .widgets import Board, MoveList, StatusBar, screen_order

BOTTOM_ROWS = 5
"""The move list never gets fewer lines than this (three moves and its border); the lesson's
text gives up its lines first, and scrolls (PgUp/PgDn)."""

LESSON_BOT = "lesson"
"""The bots' kind in a lesson: they play the lesson's script, not a level."""


@dataclass
class LessonSession(Game):
    """The lesson's game: the learner at seat 0, the bots playing the lesson's moves."""

    lesson: Lesson = field(init=False)

    def __post_init__(self) -> None:
        self.lesson = Lesson(tuple(self.names))
        if not self.log:
            self.log.append(self._opening())

    @classmethod
    def start(cls, learner: str) -> LessonSession:
        names = lesson_names(learner)
        seats = (Seat(names[0]), *(Seat(name, LESSON_BOT) for name in names[1:]))
        return cls(lesson_record(names).start(), seats, random.Random(0))

    def human_to_move(self) -> bool:
        return self.state.to_move == LEARNER

    def bot_choice(self) -> Action:
        seat = self.state.to_move
        if seat is None or seat == LEARNER:
            raise IllegalActionError("it is no bot's turn", "not_bot_turn")
        return self.lesson.bot_move(self.state.view(seat))

    def play(self, action: Action) -> LogEntry:
        learner = self.state.to_move == LEARNER
        entry = super().play(action)
        if learner:
            self.lesson.learned(action, self.state.is_over)
        elif self.state.is_over:
            self.lesson.finish()
        return entry


def step_heading(lesson: Lesson) -> str:
    return _("Lesson, step {number} of {total}: {title}").format(
        number=lesson.number, total=lesson.total(), title=lesson.title()
    )


def asked_move(view: View, example: Action) -> int | None:
    """Where the move a step asks for (its ``example``) stands in the move list: feeding is
    one entry (``f``) whatever the dishes."""
    for index, move in enumerate(screen_order(moves(view))):
        if move.action == example or (move.action == FEED and example.kind == "feed"):
            return index
    return None


class LessonScreen(GameScreen):
    """The game screen with the lesson's panel; the lesson judges each move first."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "leave_lesson", N_("leave the lesson")),
        # the move list is short: these keys are the lesson text's, wherever the focus is
        Binding("pagedown", "lesson_text(1)", N_("more"), show=False, priority=True),
        Binding("pageup", "lesson_text(-1)", N_("back"), show=False, priority=True),
    ]

    @property
    def session(self) -> LessonSession:
        assert isinstance(self.game, LessonSession)
        return self.game

    def above_board(self) -> ComposeResult:
        with Vertical(id="lesson"):
            yield Static("", id="lesson-task")
            with VerticalScroll(id="lesson-text"):
                yield Static("", id="lesson-step")

    compact = False
    """A short terminal: the panel has no frame, the step and its task share one line."""

    def redraw(self, full: bool = False) -> None:
        super().redraw(full)
        lesson = self.session.lesson
        step = lesson.step
        # the step and the move asked for stay in sight; only the explanation scrolls
        if step is not None and self.compact:
            heading = Text(f"{lesson.number}/{lesson.total()} ", style="bold")
            heading.append(_(step.task), style="bold underline")
        else:
            heading = Text(step_heading(lesson), style="bold")
            if step is not None:
                heading.append("\n" + _(step.task), style="bold underline")
        self.query_one("#lesson-task", Static).update(heading)
        self.query_one("#lesson-step", Static).update(
            Text(lesson.text() if step is not None else ""))
        self.query_one("#lesson", Vertical).border_title = _("Lesson")
        if step is not None and not step.to_the_end and self.awaiting_human:
            self._highlight_asked(step.example)
        self.call_after_refresh(self.fit_lesson)

    def _highlight_asked(self, example: Action) -> None:
        """The move the step asks for is highlighted, so that a short list scrolls to it
        (the draw comes last, under every dish)."""
        index = asked_move(self.game.view(self.watcher.seat), example)
        if index is not None:
            move_list = self.query_one(MoveList)
            move_list.highlighted = index
            self.call_after_refresh(move_list.scroll_to_highlight)

    def fit_lesson(self) -> None:
        """Give the lesson's text the lines the board and the moves leave, so that the
        screen itself never scrolls (the step's task off the top); on a short terminal the
        panel drops its frame."""
        panel = self.query_one("#lesson", Vertical)
        text = self.query_one("#lesson-text", VerticalScroll)
        fixed = sum(
            widget.outer_size.height for widget in (
                self.query_one(StatusBar), self.query_one(Board),
                self.query_one("#message", Static), self.query_one(Footer))
            if widget.display
        )
        spare = self.size.height - fixed - BOTTOM_ROWS
        task = self.query_one("#lesson-task", Static).outer_size.height
        if not self.compact and spare < task + 3:  # a frame and one line of text
            self.compact = True
            panel.set_class(True, "compact")
            self.redraw()
            return
        rows = spare - task - (0 if self.compact else 2)
        self.query_one("#bottom").styles.max_height = None  # trim_overflow's, measured anew
        # tighter still (a long board in a long language): the moves give up lines for one
        # line of text; the asked move is highlighted, and so stays in sight
        bottom = Scalar.from_number(max(3, BOTTOM_ROWS + min(0, rows - 1)))
        if self.compact and self.query_one("#message", Static).display:
            # the lesson's word (two lines in a long language) must be read whole: on a
            # short terminal the moves keep one line, the asked one, while it is shown
            bottom = Scalar.from_number(3)
        if self.query_one("#bottom").styles.min_height != bottom:
            self.query_one("#bottom").styles.min_height = bottom
        rows = max(1, rows)
        if text.styles.max_height != Scalar.from_number(rows):
            text.styles.max_height = rows
        more = text.virtual_size.height > rows
        panel.border_subtitle = _("PgDn: more") if more else ""
        # the list's room may have changed: the highlighted (asked) move back in sight
        self.call_after_refresh(self.query_one(MoveList).scroll_to_highlight)
        self.call_after_refresh(self.trim_overflow)

    def trim_overflow(self) -> None:
        """Measured after the layout: when the board or the message came out taller than
        the sizes above assumed (a legend or a message wrapping to a second line), the
        moves give up the lines the screen lacks, down to three, so nothing scrolls off."""
        over = self.virtual_size.height - self.size.height  # what the screen would scroll
        bottom = self.query_one("#bottom")
        if over > 0 and bottom.outer_size.height > 3:
            bottom.styles.min_height = max(3, bottom.outer_size.height - over)
            bottom.styles.max_height = bottom.styles.min_height
            self.call_after_refresh(self.query_one(MoveList).scroll_to_highlight)

    def on_resize(self) -> None:
        self.call_after_refresh(self.fit_lesson)

    def say(self, message: str) -> None:
        super().say(message)  # the line comes and goes: the text's room changes
        self.fit_lesson()  # the room is given with the line itself, not a frame later
        self.call_after_refresh(self.fit_lesson)

    def action_lesson_text(self, pages: int) -> None:
        text = self.query_one("#lesson-text", VerticalScroll)
        text.scroll_to(y=text.scroll_y + pages * max(1, text.size.height - 1), animate=False)

    def play(self, action: Action) -> None:
        """The lesson's word first: a move the step does not ask for changes nothing."""
        if self.awaiting_human and self.game.state.is_legal(action):
            word = self.session.lesson.judge(action)
            if word is not None:
                self.say(word)
                return
        super().play(action)

    def score_screen(self, scoring: Scoring, king: tuple[int, ...]) -> ScoreScreen:
        return LessonScoreScreen(self.session, scoring, king)

    def action_leave_lesson(self) -> None:
        self.app.exit()


class LessonScoreScreen(ScoreScreen):
    """The final scoring, told by the lesson (R10–R12), and the way to a real game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "answer('again')", N_("a real game")),
        Binding("s", "app.save", N_("save")),
        Binding("q", "answer('quit')", N_("leave the lesson")),
    ]

    def __init__(self, session: LessonSession, scoring: Scoring, king: tuple[int, ...]) -> None:
        super().__init__(scoring, king, session.names)
        self.session = session

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="score"):
            yield Static(id="score-title")
            yield Static(id="lesson-scoring")
            yield Static(id="score-table")
            yield Static(id="score-winner")
            yield Static(id="score-explain")
            yield Static(id="score-kept", classes="hint")
        yield Static(id="score-keys")

    def retranslate(self) -> None:
        super().retranslate()
        lines = scoring_lines(self.session.view(LEARNER), tuple(self.session.names))
        self.query_one("#score-title", Static).update(
            Text(_("The end and the scoring"), style="bold underline"))
        self.query_one("#lesson-scoring", Static).update(Text("\n".join(lines)))
        # the lesson's lines say the scoring and the winner in its own words
        self.query_one("#score-explain", Static).display = False
        self.query_one("#score-winner", Static).display = False
        self.query_one("#score-keys", Static).update(Text(
            _("You have learnt the game. n: play a real game · q: leave the lesson"),
            style="bold"))


class NoSaver(Autosaver):
    """A lesson leaves no autosave behind: it is the same game every time."""

    def save(self, game: Game) -> bool:
        return False


class LessonApp(PlayApp):
    """The lesson from the first step to the scoring; ``next_game`` tells the command
    whether the learner asked for a real game at the end."""

    def __init__(
        self, learner: str = DEFAULT_NAMES[0], speed: float = DEFAULT_SPEED, light: bool = False
    ) -> None:
        super().__init__(LessonSession.start(learner), speed=speed, light=light,
                         autosaver=NoSaver())
        self.next_game = False

    def on_mount(self) -> None:
        super().on_mount()
        self.title = _("King's Breakfast: learn by playing")

    def new_game_screen(self) -> GameScreen:
        return LessonScreen(self.game)

    def exit(
        self, result: None = None, return_code: int = 0, message: RenderableType | None = None
    ) -> None:
        """Leaving a lesson leaves nothing to resume: no line on how to come back."""
        App.exit(self, result, return_code, message)

    def after_score(self, answer: str | None) -> None:
        if answer == "again":
            self.next_game = True
        if answer in ("again", "quit"):
            self.exit()
