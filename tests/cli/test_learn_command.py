"""``kingsbreakfast learn``: on the command line, its help and its one mistake in the
player's language (the lesson itself is played in tests/tui/test_tui_lesson.py)."""

from __future__ import annotations

import pytest
from test_cli_language import run_command

from kingsbreakfast.i18n import LANGUAGES, language, translations

DESCRIPTION = "Learn King's Breakfast by playing a short game against bots, one rule at a time."


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_help_of_learn_speaks_each_language(code: str) -> None:
    done = run_command("learn", "--help", "--lang", code)
    assert done.returncode == 0, done.stderr
    wanted = translations(code).gettext(DESCRIPTION)
    assert " ".join(wanted.split()[:4]) in " ".join(done.stdout.split())
    assert "--speed" in done.stdout and "--lang" in done.stdout


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_negative_speed_is_refused_in_the_players_language(code: str) -> None:
    done = run_command("learn", "--speed", "-1", "--lang", code)
    assert done.returncode == 2
    with language(code):
        from kingsbreakfast.i18n import _

        wanted = _("--speed must be 0 or more, not {speed}").format(speed=-1.0)
    assert wanted in done.stderr, done.stderr
