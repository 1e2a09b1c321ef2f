"""A lesson under way: which step the learner is at, what the bots play, what to say.

:class:`Lesson` follows one game from the lesson's deal (:mod:`.script`) without holding
its state: a front (the terminal game, the server) keeps the real :class:`State`, asks
:meth:`Lesson.judge` before it plays a learner's move, tells the lesson with
:meth:`Lesson.learned` once it is played, and lets :meth:`Lesson.bot_move` choose each bot's
move from that bot's own view. :class:`LessonGame` is that front in its smallest form: the
state, the lesson and the bots together, for the server and the tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kingsbreakfast.engine import Action, IllegalActionError, State, View
from kingsbreakfast.i18n import _, ngettext
from kingsbreakfast.i18n.errors import explain
from kingsbreakfast.i18n.words import dish_name
from kingsbreakfast.narrate import DEFAULT_NAMES

from .script import LEARNER, PLAYERS, WINE_TAKER, lesson_start, plain_choice, scripted_moves
from .steps import STEPS, Step


def lesson_names(learner: str) -> tuple[str, ...]:
    """The learner's name and the bots' (the names every mode gives seats 1–3)."""
    return (learner, *DEFAULT_NAMES[1:PLAYERS])


@dataclass
class Lesson:
    """Where the learner is in :data:`~.steps.STEPS` and what the bots have left to play."""

    names: tuple[str, ...]
    index: int = 0
    _scripted: dict[tuple[int, int], list[Action]] = field(
        default_factory=lambda: {key: list(moves) for key, moves in scripted_moves().items()}
    )

    @property
    def step(self) -> Step | None:
        """The step under way; None once every step is passed (the game is over)."""
        return STEPS[self.index] if self.index < len(STEPS) else None

    @property
    def number(self) -> int:
        """The step's number from 1, for "step 3 of 7"."""
        return min(self.index, len(STEPS) - 1) + 1

    @staticmethod
    def total() -> int:
        return len(STEPS)

    def bot_move(self, view: View) -> Action:
        """The move of the bot whose view this is: the script's in the taught rounds, else
        :func:`~.script.plain_choice`."""
        assert view.seat is not None and view.seat != LEARNER
        queue = self._scripted.get((view.round, view.seat))
        if queue:
            return queue.pop(0)
        return plain_choice(view)

    def judge(self, action: Action) -> str | None:
        """None when the step under way accepts ``action``, else a kind word on what the
        lesson waits for (in the current language). Legality is the engine's: a front
        plays the move after this, and an illegal move is refused there."""
        step = self.step
        if step is None or step.accepts(action):
            return None
        return _("Not quite: the lesson waits for one move here. {task}").format(
            task=_(step.task)
        )

    def learned(self, action: Action, over: bool) -> None:
        """The learner's accepted move has been played (``over``: it ended the game)."""
        step = self.step
        if step is None:
            return
        if over:
            self.finish()
        elif not step.to_the_end:
            self.index += 1

    def finish(self) -> None:
        """The game is over (R10), whoever made its last move: only the scoring is left."""
        self.index = len(STEPS)

    def title(self) -> str:
        step = self.step
        return _(step.title) if step is not None else scoring_title()

    def text(self) -> str:
        step = self.step
        if step is None:
            return ""
        return _(step.text).format(name=self.names[WINE_TAKER])


def scoring_title() -> str:
    return _("The end and the scoring")


def scoring_lines(view: View, names: tuple[str, ...]) -> list[str]:
    """The final scoring told to the learner (R10–R12): why the game ended, each of the
    learner's dishes with its points or why it was discarded, and who won."""
    scoring = view.score()
    if scoring is None:
        return []
    lines = [
        _(
            "The cook could not turn up 8 cards, so the game is over. Every hand is shown: "
            "each card scores as many points as the king has of its dish, and a dish a player "
            "holds more of than the king scores nothing."
        )
    ]
    mine = scoring.players[LEARNER]
    for dish in mine.dishes:
        if dish.held == 0:
            continue
        name = dish_name(dish.dish)
        if dish.discarded:
            lines.append(
                _("{dish}: you hold {held}, the king {king}: more than the king, 0 points.")
                .format(dish=name, held=dish.held, king=dish.king)
            )
        else:
            lines.append(
                ngettext(
                    "{dish}: you hold {held}, the king {king}: {held} × {king} = {points} point.",
                    "{dish}: you hold {held}, the king {king}: {held} × {king} = {points} points.",
                    dish.points,
                ).format(dish=name, held=dish.held, king=dish.king, points=dish.points)
            )
    lines.append(
        ngettext("You score {points} point.", "You score {points} points.", mine.points)
        .format(points=mine.points)
    )
    winners = [names[seat] for seat in scoring.winners]
    if LEARNER in scoring.winners:
        lines.append(_("You win! Most points wins; on equal points, fewer discarded cards."))
    else:
        lines.append(
            _("{winners} won: most points wins; on equal points, fewer discarded cards.")
            .format(winners=", ".join(winners))
        )
    return lines


class LessonGame:
    """The lesson's real game with its bots: the state (only here), the lesson, and a
    bot move after every learner's move until the learner is to move again."""

    def __init__(self, learner: str = DEFAULT_NAMES[LEARNER]) -> None:
        self.names = lesson_names(learner)
        self.state: State = lesson_start(self.names)
        self.lesson = Lesson(self.names)
        self.bot_turns: list[tuple[int, Action]] = []
        self._bots_play()

    @property
    def over(self) -> bool:
        return self.state.is_over

    def view(self) -> View:
        """What the learner may see, and nothing more (R7b)."""
        return self.state.view(LEARNER)

    def offer(self, action: Action) -> str | None:
        """Play the learner's ``action`` if the rules and the step allow it; else say why
        (the engine's reason, or the lesson's word), and nothing changes."""
        if self.state.is_over:
            return explain(IllegalActionError("the game is over (R10)", "game_over"))
        try:
            if not self.state.is_legal(action):
                self.state.play(action, LEARNER)  # raises with the rules' reason
        except IllegalActionError as error:
            return explain(error)
        word = self.lesson.judge(action)
        if word is not None:
            return word
        self.state.play(action, LEARNER)
        self.lesson.learned(action, self.state.is_over)
        self.bot_turns = []
        self._bots_play()
        return None

    def _bots_play(self) -> None:
        state = self.state
        while state.to_move is not None and state.to_move != LEARNER:
            seat = state.to_move
            action = self.lesson.bot_move(state.view(seat))
            state.play(action, seat)
            self.bot_turns.append((seat, action))
        if state.is_over:
            self.lesson.finish()
