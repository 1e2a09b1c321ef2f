"""The lesson in the browser (``/learn``): the page, and ``POST /api/learn`` that plays it.

The lesson (:mod:`kingsbreakfast.lesson`) is one fixed game, so the server keeps nothing
between calls: the page sends the learner's moves so far and the new one, the server replays
them on the real engine with the lesson's bots and answers with what the learner may see —
the learner's own view (R7b: the bots' drawn cards stay hidden, the deck's order never
leaves the server), the step and its words in the page's language, and the kind word when a
move is not the one the step waits for. The browser holds no copy of the rules: every move
it offers comes from the view's ``legal`` list, which the engine wrote.
"""

from __future__ import annotations

from typing import Annotated, Any, Final

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from kingsbreakfast.engine import Action, ActionFormatError
from kingsbreakfast.i18n import UnknownLanguageError, _, check_language, language
from kingsbreakfast.lesson import LessonGame, scoring_lines, scoring_title

from ..limits import PerAddress, lessons_refused
from ..lobby import LobbyError
from ..workshops import LESSONS
from .deps import address
from .errors import ERRORS
from .pages import client_page

router = APIRouter()
router.get("/learn", include_in_schema=False)(client_page)

MAX_MOVES = 80
"""More learner's moves than the lesson's game can hold (it ends after about a dozen)."""
LESSONS_PER_MINUTE: Final = 240.0
LESSONS_BURST: Final = 60.0
"""A learner answers one move every second or so; a flood from one address is refused."""
ASKED: Final = PerAddress(LESSONS_PER_MINUTE, LESSONS_BURST, refusal=lessons_refused)


class LessonAsk(BaseModel):
    model_config = ConfigDict(extra="forbid")
    language: str = Field("en", max_length=16, description="the page's language")
    moves: list[Annotated[str, Field(max_length=40)]] = Field(
        default_factory=list, max_length=MAX_MOVES,
        description="the learner's moves so far, as the view's legal list writes them",
    )
    move: str | None = Field(None, max_length=40, description="the learner's next move")


class LessonStep(BaseModel):
    key: str
    number: int
    total: int
    title: str
    text: str
    task: str
    rules: list[str] = Field(description="the sections of the rules the step teaches")


class LessonReply(BaseModel):
    moves: list[str] = Field(description="the learner's moves the lesson accepted, in order")
    view: dict[str, Any] = Field(description="the learner's view (docs/server.md, views)")
    names: list[str]
    step: LessonStep | None = Field(description="the step under way; null once it is over")
    word: str | None = Field(description="why the new move was not played, if it was not")
    title: str
    scoring: list[str] = Field(description="the scoring told to the learner, at the end")
    score: dict[str, Any] | None = Field(description="the final scoring (R11, R12)")


def _action(text: str) -> Action:
    try:
        return Action.parse(text)
    except ActionFormatError as error:
        raise LobbyError(422, "bad_lesson_move", "that is not a move",
                         move=text[:40], reason=error.message) from None


def _replayed(moves: list[str]) -> LessonGame:
    game = LessonGame()
    for number, text in enumerate(moves):
        if game.offer(_action(text)) is not None:
            raise LobbyError(422, "bad_lesson_moves",
                             "these moves are not the lesson's: start it again", move=number)
    return game


@router.post("/api/learn", response_model=LessonReply, responses=ERRORS, tags=["lesson"])
async def learn(ask: LessonAsk, request: Request) -> LessonReply:
    """Replay the learner's moves, try the new one, and say where the lesson stands (429
    ``too_many_lessons`` past :data:`LESSONS_PER_MINUTE` from one address, 503 ``busy``
    when the lessons' worker has too many in hand)."""
    ASKED.take(address(request.client))
    return await LESSONS.run(answer, ask)


def answer(ask: LessonAsk) -> LessonReply:
    """The lesson's answer to ``ask``: a replay of the whole lesson so far, in the lessons'
    own worker thread (:mod:`..workshops`), never on the event loop that serves the
    tables' moves (a flood of 600 replays there once slowed another table's moves from
    4 ms to 61 ms)."""
    try:
        code = check_language(ask.language)
    except UnknownLanguageError:
        raise LobbyError(404, "unknown_language", "there is no catalogue for this language",
                         language=ask.language[:16]) from None
    with language(code):
        game = _replayed(ask.moves)
        moves = list(ask.moves)
        word = None
        if ask.move is not None:
            action = _action(ask.move)
            word = game.offer(action)
            if word is None:
                moves.append(str(action))
        view = game.view()
        lesson = game.lesson
        step = lesson.step
        scoring = view.score() if game.over else None
        return LessonReply(
            moves=moves,
            view=dict(view.to_dict()),
            names=list(game.names),
            step=None if step is None else LessonStep(
                key=step.key, number=lesson.number, total=lesson.total(),
                title=lesson.title(), text=lesson.text(), task=_(step.task),
                rules=list(step.rules),
            ),
            word=word,
            title=lesson.title() if step is not None else scoring_title(),
            scoring=scoring_lines(view, game.names) if game.over else [],
            score=None if scoring is None else dict(scoring.to_dict()),
        )


__all__ = ["router"]
