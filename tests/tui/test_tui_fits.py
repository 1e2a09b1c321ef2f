"""Every screen and dialog of the terminal game fits 80×24 and 60×20 in every language.

Each screen is driven to with the pilot, as a player reaches it, and read back as the
characters on the terminal. What is checked is what a player would see go wrong: a dialog
or widget reaching past the screen's edge, a sentence whose words are cut off or missing, a
table whose column headers run together or whose figures slip off their column, the keys
screen whose closing line is pushed out of sight.

With ``KINGSBREAKFAST_WRITE_SCREENS=1`` the screens are also written to ``docs/screens/``.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from rich.cells import cell_len
from textual.app import App
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from tui_helpers import game_reaching, screen_text, seats, settle

from kingsbreakfast.engine import DISHES, Record
from kingsbreakfast.i18n import LANGUAGES, language
from kingsbreakfast.i18n.words import dish_name
from kingsbreakfast.tui import strings
from kingsbreakfast.tui.app import PlayApp
from kingsbreakfast.tui.replay_app import ReplayApp
from kingsbreakfast.tui.screens import (
    DragonScreen,
    DrawnCardScreen,
    FeedScreen,
    HandoverScreen,
    HelpScreen,
    HintScreen,
    QuitScreen,
    ScoreScreen,
)
from kingsbreakfast.tui.session import Game

SIZES = [(80, 24), (60, 20)]
SHOTS = Path(__file__).parents[2] / "docs" / "screens"


def many_moves(game: Game) -> bool:
    """Seat 0 to move with a long list: takes, draw and a dragon on the table to feed."""
    view = game.view(0)
    return (game.to_move == 0 and view.table_dragons > 0 and not view.pending_dragon
            and len(view.legal_actions()) >= 9)


def drawn_dragon(game: Game) -> bool:
    view = game.view(0)
    return game.to_move == 0 and bool(view.pending_dragon) and any(
        action.kind == "feed" for action in view.legal_actions())


def cells_slice(line: str, start: int, end: int) -> str:
    """The characters of ``line`` drawn in terminal cells ``start`` to ``end``."""
    out, at = "", 0
    for char in line:
        width = cell_len(char)
        if at >= start and at + width <= end:
            out += char
        at += width
    return out


def region_lines(text: str, region: Region) -> list[str]:
    lines = text.splitlines()
    return [cells_slice(lines[row], region.x, region.right)
            for row in range(region.y, min(region.bottom, len(lines)))]


def words(text: str) -> list[str]:
    return text.split()


def shows_whole(expected: str, shown: list[str]) -> bool:
    """``expected``'s words appear on the screen in order, none cut (wrapping allowed)."""
    wanted, seen = words(expected), words(" ".join(shown))
    return any(seen[at:at + len(wanted)] == wanted for at in range(len(seen) - len(wanted) + 1))


def widgets_inside(app: App[Any]) -> None:
    """No visible widget of the screen reaches past the terminal's edges."""
    width, height = app.size
    for widget in app.screen.walk_children(Widget):
        if not widget.display or not widget.region.area or _scrolled(widget):
            continue
        region = widget.region
        assert region.right <= width and region.bottom <= height, (
            f"{type(widget).__name__}#{widget.id} at {region} leaves the {width}×{height} screen")


def _scrolled(widget: Widget) -> bool:
    """Inside a container that scrolls: its place on the screen is where the scroll puts it
    (the container itself is checked)."""
    return any(isinstance(node, Widget) and (node.max_scroll_y or node.max_scroll_x)
               for node in widget.ancestors)


def headers_apart(line: str, titles: list[str], screen: str) -> list[int]:
    """Each title stands in ``line`` in order, whole or cut to ``X.`` with ``X. = title``
    spelt out on the screen, with a space before it; returns where each header ends."""
    ends, position = [], 0
    for title in titles:
        match = None
        for size in range(len(title), 0, -1):
            head = title if size == len(title) else title[:size].rstrip() + "."
            at = line.find(head, position)
            if at < 0 or (head != title and not shows_whole(strings.abbreviation(head, title),
                                                            screen.splitlines())):
                continue
            match = (at, head)
            break
        assert match is not None, f"{title!r} missing from {line!r}"
        at, head = match
        assert at == 0 or line[at - 1] == " ", f"{head!r} touches its neighbour in {line!r}"
        position = at + len(head)
        assert position == len(line) or line[position] == " ", f"{head!r} glued in {line!r}"
        ends.append(cell_len(line[:position]))
    return ends


# --- the screens, each reached as a player reaches it ------------------------------------

Check = Callable[[App[Any], str], None]


async def _board(pilot: Pilot[Any]) -> None:
    await settle(pilot)  # the longest entry, feeding, is among the first (before dishes)


def check_board(app: App[Any], text: str) -> None:
    lines = text.splitlines()
    king = next(i for i, line in enumerate(lines) if line.strip().startswith(strings.king()))
    headers_apart(lines[king - 1], [dish_name(d) for d in range(len(DISHES))], text)
    assert strings.you_label("Ann") in text  # the marker survives any shortening
    moves = app.screen.query_one("#moves")
    shown = region_lines(text, moves.scrollable_content_region)
    assert shows_whole(strings.feed_table_label(), shown), shown


async def _hint(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await pilot.press("h")
    await settle(pilot)
    await pilot.pause(0.1)
    assert isinstance(pilot.app.screen, HintScreen)


def check_hint(app: App[Any], text: str) -> None:
    dialog = app.screen.query_one("#hint-dialog")
    shown = region_lines(text, dialog.content_region)
    assert shows_whole(strings.hint_footer(), shown), shown
    titles = list(strings.hint_titles())
    header = next(i for i, line in enumerate(shown) if line.strip().startswith(titles[0][:3]))
    ends = headers_apart(shown[header], titles, text)
    rows = [line for line in shown[header + 1:] if "%" in line or "—" in line]
    assert len(rows) >= 4, shown
    for row in rows:  # the last figure of each row ends under the last header
        last = max(i for i, char in enumerate(row) if char in "%—")
        assert cell_len(row[:last + 1]) == ends[-1], (shown[header], row)


async def _keys(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await pilot.press("question_mark")
    await settle(pilot)
    assert isinstance(pilot.app.screen, HelpScreen)


def check_keys(app: App[Any], text: str) -> None:
    dialog = app.screen.query_one("#help-dialog")
    shown = region_lines(text, dialog.content_region)
    assert shows_whole(strings.help_close(), shown), shown
    first_key = strings.help_keys()[0][0]
    assert any(line.strip().startswith(first_key) for line in shown)
    scroller = app.screen.query_one("#help-keys")
    assert scroller.max_scroll_y == 0 or scroller.allow_vertical_scroll


async def _keys_scrolled(pilot: Pilot[Any]) -> None:
    await _keys(pilot)
    await pilot.press("end")
    await settle(pilot)


def check_keys_scrolled(app: App[Any], text: str) -> None:
    dialog = app.screen.query_one("#help-dialog")
    shown = region_lines(text, dialog.content_region)
    assert shows_whole(strings.help_board(), shown), shown  # the end is reached by scrolling
    assert shows_whole(strings.help_close(), shown), shown


async def _quit(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await pilot.press("q")
    await settle(pilot)
    assert isinstance(pilot.app.screen, QuitScreen)


def check_dialog(expected: Callable[[], str]) -> Check:
    def check(app: App[Any], text: str) -> None:
        dialog = app.screen.query_one(".dialog")
        assert shows_whole(expected(), region_lines(text, dialog.content_region)), text

    return check


async def _dragon(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    assert isinstance(pilot.app.screen, DragonScreen)


async def _feed(pilot: Pilot[Any]) -> None:
    await _dragon(pilot)
    await pilot.press("f")
    await settle(pilot)
    assert isinstance(pilot.app.screen, FeedScreen)


async def _handover(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    assert isinstance(pilot.app.screen, HandoverScreen)


async def _drawn(pilot: Pilot[Any]) -> None:
    await _handover(pilot)
    await pilot.press("enter")
    await settle(pilot)
    await pilot.press("d")
    await settle(pilot)
    assert isinstance(pilot.app.screen, DrawnCardScreen)


def check_drawn(app: App[Any], text: str) -> None:
    dialog = app.screen.query_one(".dialog")
    assert shows_whole(strings.you_drew_ready(), region_lines(text, dialog.content_region)), text


async def _score(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    assert isinstance(pilot.app.screen, ScoreScreen)


def check_score(app: App[Any], text: str) -> None:
    lines = text.splitlines()
    king = next(i for i, line in enumerate(lines) if line.strip().startswith(strings.king()))
    titles = [dish_name(d) for d in range(len(DISHES))]
    titles += [strings.points_header(), strings.discarded_header()]
    headers_apart(lines[king - 1], titles, text)
    assert shows_whole(strings.play_again(), lines[-3:]), lines[-3:]


async def _replay_end(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await pilot.press("end")
    await settle(pilot)


def check_replay(app: App[Any], text: str) -> None:
    lines = text.splitlines()
    king = next(i for i, line in enumerate(lines) if line.strip().startswith(strings.king()))
    headers_apart(lines[king - 1], [dish_name(d) for d in range(len(DISHES))], text)
    assert strings.replay_status(len(app.replay.record.actions),  # type: ignore[attr-defined]
                                 len(app.replay.record.actions)) in text  # type: ignore[attr-defined]


def _hand_game() -> Game:
    return game_reaching((None, "random", "random", "random"), many_moves, tries=200)


def _dragon_game() -> Game:
    return game_reaching((None, "random", "random", "random"), drawn_dragon, tries=200)


def _hotseat_game() -> Game:
    return Game.new(seats(None, None, "random"), seed=4)


def _bots_game() -> Game:
    return Game.new(seats("random", "random", "random", "random", "random"), seed=5)


def _finished_record() -> Record:
    game = _bots_game()
    while not game.is_over:
        game.play(game.bot_choice())
    return game.record()


SCREENS: dict[str, tuple[Callable[[], Any], Callable[[Pilot[Any]], Awaitable[None]], Check]] = {
    "board": (_hand_game, _board, check_board),
    "hint": (_hand_game, _hint, check_hint),
    "keys": (_hand_game, _keys, check_keys),
    "keys-end": (_hand_game, _keys_scrolled, check_keys_scrolled),
    "quit": (_hand_game, _quit, check_dialog(strings.quit_question)),
    "dragon": (_dragon_game, _dragon, check_dialog(strings.dragon_drawn)),
    "feed": (_dragon_game, _feed, check_dialog(strings.feed_first)),
    "handover": (_hotseat_game, _handover, check_dialog(strings.handover_detail)),
    "drawn-card": (_hotseat_game, _drawn, check_drawn),
    "score": (_bots_game, _score, check_score),
    "replay": (_finished_record, _replay_end, check_replay),
}


def render(name: str, code: str, size: tuple[int, int]) -> str:
    build, reach, check = SCREENS[name]

    async def scenario() -> str:
        with language(code):
            made = build()
            app: App[Any] = (ReplayApp(made) if isinstance(made, Record)
                             else PlayApp(made, speed=0, hint_seconds=0.05))
            async with app.run_test(size=size) as pilot:
                await reach(pilot)
                await pilot.pause()
                text = screen_text(app)
                lines = text.splitlines()
                assert len(lines) <= size[1]
                assert all(cell_len(line) <= size[0] for line in lines)
                widgets_inside(app)
                check(app, text)
                return text

    return asyncio.run(scenario())


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("name", list(SCREENS))
def test_every_screen_fits(name: str, code: str, size: tuple[int, int]) -> None:
    text = render(name, code, size)
    if os.environ.get("KINGSBREAKFAST_WRITE_SCREENS"):
        SHOTS.mkdir(exist_ok=True)
        shot = SHOTS / f"tui-{name}-{code}-{size[0]}x{size[1]}.txt"
        shot.write_text(re.sub(r"[ \t]+$", "", text, flags=re.M), encoding="utf-8")

