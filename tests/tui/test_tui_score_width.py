"""The plain game's final scoring table (R11, R12) fits an 80-column terminal in every
language, five players with names of the longest a board shows (12 cells) included."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from kingsbreakfast.i18n import LANGUAGES, language
from kingsbreakfast.narrate import score_lines
from kingsbreakfast.tui.session import Game, Seat


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_final_table_fits_80_columns(code: str) -> None:
    names = ["Zsuzsannácska"[:12], "Bob", "Cid", "Dee", "Eve"]
    game = Game.new([Seat(name, "random") for name in names], seed=3)
    while not game.is_over:
        game.play(game.bot_choice())
    view = game.view(None)
    scoring = view.score()
    assert scoring is not None
    with language(code):
        lines = score_lines(scoring, view.king, game.names)
    table = lines[1:-1]  # between the sentence that explains it and the winner's line
    assert len(table) == 2 + len(names)
    assert all(cell_len(line) <= 80 for line in table), [cell_len(line) for line in table]
