"""The terminal game seats the master level and shows its hint with the columns explained."""

from __future__ import annotations

import io

import pytest
from tui_helpers import seats

pytest.importorskip("numpy")

from kingsbreakfast.tui.plain import QUIT, PlainGame
from kingsbreakfast.tui.session import Game
from kingsbreakfast.tui.strings import bot_word

STUBBORN = "d\n1\n2\n3\n4\n5\n6\n7\np\nx\n"
"""Answers that make some legal move whatever the position (as the plain game tests use)."""


def test_master_bots_play_a_whole_plain_game_and_the_hint_explains_itself() -> None:
    game = Game.new(seats(None, "master", "master"), seed=8)
    out = io.StringIO()
    result = PlainGame(game, io.StringIO("h\n" + STUBBORN * 80 + "q\n"), out).run()
    text = out.getvalue()
    assert result == QUIT and game.is_over
    assert "vs best" in text and "(R12)" in text  # the hint's columns and what they mean
    assert bot_word("master") == "master"
