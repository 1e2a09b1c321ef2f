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
from textual.containers import VerticalScroll
from textual.widgets import Static

from kingsbreakfast.engine import Action, IllegalActionError, Scoring
from kingsbreakfast.i18n import N_, _
from kingsbreakfast.lesson import LEARNER, Lesson, lesson_names, lesson_record, scoring_lines
from kingsbreakfast.narrate import DEFAULT_NAMES

from .app import DEFAULT_SPEED, GameScreen, PlayApp
from .saving import Autosaver
from .screens import ScoreScreen
from .session import Game, LogEntry, Seat

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


class LessonScreen(GameScreen):
    """The game screen with the lesson's panel; the lesson judges each move first."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "leave_lesson", N_("leave the lesson")),
    ]

    @property
    def session(self) -> LessonSession:
        assert isinstance(self.game, LessonSession)
        return self.game

    def above_board(self) -> ComposeResult:
        with VerticalScroll(id="lesson"):
            yield Static("", id="lesson-step")

    def redraw(self, full: bool = False) -> None:
        super().redraw(full)
        lesson = self.session.lesson
        panel = self.query_one("#lesson-step", Static)
        text = Text(step_heading(lesson), style="bold")
        step = lesson.step
        if step is not None:  # the move asked for first: it shows even when the text scrolls
            text.append("\n" + _(step.task), style="bold underline")
            text.append("\n" + lesson.text())
        panel.update(text)
        self.query_one("#lesson", VerticalScroll).border_title = _("Lesson")

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
