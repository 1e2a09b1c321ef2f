"""``kingsbreakfast learn``: the lesson that teaches the game by playing it.

The lesson (:mod:`kingsbreakfast.lesson`) runs in the terminal game's screen, so it needs the
``tui`` extra like ``play``; at its end the learner may go straight on to a real game against
three bots.
"""

from __future__ import annotations

import contextlib
from typing import Annotated

import typer

from kingsbreakfast.cli.extras import need_extra
from kingsbreakfast.cli.options import LangOption, fail
from kingsbreakfast.i18n import _


def register(app: typer.Typer) -> None:
    """Add ``learn`` to the ``kingsbreakfast`` command line."""
    app.command(name="learn")(learn)


def learn(
    lang: LangOption = None,
    speed: Annotated[
        float, typer.Option(help="Seconds a bot pauses before its move (keys + and - change it).")
    ] = 0.5,
    light: Annotated[
        bool, typer.Option("--light", help="Colours for a light terminal (key t switches).")
    ] = False,
) -> None:
    """Learn King's Breakfast by playing a short game against bots, one rule at a time."""
    if speed < 0:
        raise fail(_("--speed must be 0 or more, not {speed}").format(speed=speed))
    need_extra("tui", "textual", "numpy")
    from kingsbreakfast.tui.app import PlayApp
    from kingsbreakfast.tui.lesson_app import LessonApp
    from kingsbreakfast.tui.saving import Autosaver
    from kingsbreakfast.tui.session import Game, plan_seats

    lesson = LessonApp(speed=speed, light=light)
    lesson.run()
    if not lesson.next_game:
        return
    game = Game.new(plan_seats(4, [], 0, 1))
    app = PlayApp(game, speed=speed, light=light, autosaver=Autosaver())
    app.run()
    if app.farewell:
        with contextlib.suppress(OSError):
            typer.echo(app.farewell)
