"""Learning by playing: a short scripted game against bots, one rule per step.

One definition serves both fronts (``kingsbreakfast learn`` in the terminal, ``/learn`` in
the browser): the deal and the bots' moves (:mod:`.script`), the steps (:mod:`.steps`) and
the lesson that follows a game through them (:mod:`.course`). It plays the real engine, so
every move of the lesson is a legal move of a real game.
"""

from .course import Lesson, LessonGame, lesson_names, scoring_lines, scoring_title
from .script import LEARNER, PLAYERS, lesson_deck, lesson_record, plain_choice
from .steps import STEPS, Step

__all__ = [
    "LEARNER",
    "PLAYERS",
    "STEPS",
    "Lesson",
    "LessonGame",
    "Step",
    "lesson_deck",
    "lesson_names",
    "lesson_record",
    "plain_choice",
    "scoring_lines",
    "scoring_title",
]
