"""The board's grid in every language: columns sized from the translated dish names, cut
only when a name cannot fit (with a legend), counts above the king's marked, and the last
round announced — checked on the screen as a player at an 80×24 terminal sees it."""

from __future__ import annotations

import asyncio
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from tui_helpers import advance_to, game_reaching, screen_text, seats, settle

from kingsbreakfast.engine import DISHES, Action
from kingsbreakfast.i18n import LANGUAGES, language
from kingsbreakfast.i18n.words import dish_name
from kingsbreakfast.tui import strings
from kingsbreakfast.tui.board import OVER, board_rows, board_text, grid_layout
from kingsbreakfast.tui.fit import fit_columns
from kingsbreakfast.tui.session import Game

pytest.importorskip("textual")

from kingsbreakfast.tui.app import PlayApp


def midgame() -> Game:
    game = Game.new(seats(None, "random", "random", "random"), seed=21)
    advance_to(game, lambda g: g.to_move == 0 and g.state.round >= 2, seed=3)
    return game


def screen_of(game: Game, code: str, size: tuple[int, int] = (80, 24)) -> str:
    async def scenario() -> str:
        with language(code):
            app = PlayApp(game, speed=0)
            async with app.run_test(size=size) as pilot:
                await settle(pilot)
                return screen_text(app)

    return asyncio.run(scenario())


def char_at_cell(line: str, cell: int) -> str:
    """The character drawn at terminal cell ``cell`` of ``line`` (a space past its end)."""
    at = 0
    for char in line:
        if at == cell:
            return char
        at += cell_len(char)
    return " "


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_grid_headers_never_run_together_at_80x24(code: str) -> None:
    game = midgame()
    text = screen_of(game, code)
    lines = text.splitlines()
    with language(code):
        king = strings.king()
        names = [dish_name(dish) for dish in range(len(DISHES))]
        king_row = next(i for i, line in enumerate(lines) if line.strip().startswith(king))
        header = lines[king_row - 1]
        layout = grid_layout(board_rows(game.view(0), game.names), 78)
        # a header is either the whole translated name, or a cut form spelt out below
        shown = [word for word in layout.headers]
        for dish, head in enumerate(shown):
            if head != names[dish]:
                assert head.endswith(".") and names[dish].startswith(head[:-1])
                assert strings.abbreviation(head, names[dish]) in text
        # the headers stand on the screen in order, each apart from the next
        position = 0
        ends = []
        for head in shown:
            at = header.find(head, position)
            assert at >= 0, f"{code}: {head!r} not in {header!r}"
            assert at == 0 or header[at - 1] == " ", f"{code}: {head!r} glued in {header!r}"
            position = at + len(head)
            ends.append(cell_len(header[:position]))
            assert position == len(header) or header[position] == " ", header
        # every count of the king's row ends exactly under its dish's header
        row = lines[king_row]
        for end in ends:
            assert char_at_cell(row, end - 1) != " ", f"{code}: {header!r} / {row!r}"
            assert char_at_cell(row, end) == " ", f"{code}: {header!r} / {row!r}"
        assert all(cell_len(line) <= 80 for line in lines)


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_plain_grid_shows_whole_names_at_80_columns(code: str) -> None:
    game = midgame()
    with language(code):
        rows = board_rows(game.view(0), game.names)
        lines = board_text(rows, 80)
        header = lines[0]
        for dish in range(len(DISHES)):
            assert f" {dish_name(dish)}" in header  # never cut at 80 columns in our languages
        assert all(cell_len(line) <= 80 for line in lines)


@settings(max_examples=60, deadline=None)
@given(
    code=st.sampled_from(LANGUAGES),
    width=st.integers(min_value=60, max_value=160),
    steps=st.integers(min_value=0, max_value=60),
)
def test_the_plain_grid_fits_any_width_from_60(code: str, width: int, steps: int) -> None:
    game = Game.new(seats(None, "random", "random", "random", "random"), seed=steps)
    rng = random.Random(steps)
    for _ in range(steps):
        if game.is_over:
            break
        legal = game.state.legal_actions()
        game.play(Action(legal[rng.randrange(len(legal))]))
    with language(code):
        rows = board_rows(game.view(0), game.names)
        layout = grid_layout(rows, width)
        lines = board_text(rows, width)
        assert all(cell_len(line) <= width for line in lines), (width, lines)
        assert layout.width <= width
        # a cut header is kept only when the whole name could not fit
        for dish in layout.cut:
            assert layout.headers[dish].endswith(".")


def test_a_dish_held_above_the_king_is_marked_in_colour_and_with_a_symbol() -> None:
    def too_many(game: Game) -> bool:
        if game.to_move != 0:
            return False
        hand = game.view(0).my_hand
        assert hand is not None and hand.cards is not None
        return any(held > king for held, king in zip(hand.cards, game.view(0).king, strict=True))

    game = game_reaching((None, "random", "random"), too_many)
    text = screen_of(game, "en", size=(120, 30))
    lines = text.splitlines()
    mine = next(i for i, line in enumerate(lines) if "Ann (you)" in line)
    assert OVER in lines[mine] + lines[mine + 1]  # the taken or the drawn row
    others = [line for line in lines if line.strip().startswith(("Bob", "Cid", "King"))]
    assert others and not any(OVER in line for line in others)
    assert strings.over_note(OVER) in text


def test_the_last_round_is_announced() -> None:
    game = game_reaching(
        (None, "random", "random"),
        lambda g: g.to_move == 0 and g.view(0).last_round,
        tries=60,
    )
    text = screen_of(game, "de", size=(80, 30))
    with language("de"):
        assert strings.last_round()[:30] in text
    # and not before: a fresh game has a full deck
    assert not Game.new(seats(None, "random", "random"), seed=1).view(0).last_round


@pytest.mark.parametrize("code", LANGUAGES)
def test_no_two_dish_columns_are_headed_alike(code: str) -> None:
    """A cut name never reads like another dish's ("bánh." for both bánh mì and bánh ngọt
    at 60 columns in Vietnamese): the columns must be told apart."""
    game = midgame()
    with language(code):
        for width in range(40, 81):
            headers = grid_layout(board_rows(game.view(0), game.names), width).headers
            assert len(set(headers)) == len(headers), (width, headers)
        titles = [dish_name(dish) for dish in range(len(DISHES))]
        for room in range(20, 60):
            columns = fit_columns(["", *titles], [0, *([1] * len(DISHES))], room)
            assert len(set(columns.headers)) == len(columns.headers), (room, columns.headers)
