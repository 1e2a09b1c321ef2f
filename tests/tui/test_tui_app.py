"""The full-screen game, driven by keystrokes through Textual's pilot."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot
from tui_helpers import advance_to, game_reaching, screen_text, seats, settle

from kingsbreakfast.engine import DISHES, Action, State, read_record
from kingsbreakfast.tui.app import SPEEDS, GameScreen, PlayApp
from kingsbreakfast.tui.moves import (
    DISH_KEYS,
    action_label,
    first_dishes,
    moves,
    second_dishes,
)
from kingsbreakfast.tui.screens import (
    DragonScreen,
    DrawnCardScreen,
    FeedScreen,
    HandoverScreen,
    HintScreen,
    QuitScreen,
    ScoreScreen,
)
from kingsbreakfast.tui.session import Game
from kingsbreakfast.tui.widgets import screen_order
from rigging import rigged_deck


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def play_to_the_end(pilot: Pilot[Any], app: PlayApp) -> int:
    """Answer every question by keystrokes until the score screen; returns the keys sent.

    Feeds whenever it can, so that the dragon and the dish-picking screens are exercised."""
    for presses in range(600):
        await settle(pilot)
        screen = app.screen
        if isinstance(screen, ScoreScreen):
            return presses
        if isinstance(screen, DragonScreen):
            key = "f" if screen.can_use else "p"
        elif isinstance(screen, FeedScreen):
            if screen.first is None:
                dish = first_dishes(screen.view)[0]
            else:
                dish = second_dishes(screen.view, screen.first)[-1]
            key = DISH_KEYS[dish]
        else:
            game = app.game
            assert game.human_to_move()
            options = moves(game.view(game.to_move))
            feeds = [m for m in options if m.key == "f"]
            key = (feeds or options)[0].key
        await pilot.press(key)
    raise AssertionError("the game did not reach the score screen")


def test_a_whole_game_against_bots_by_keystrokes() -> None:
    game = Game.new(seats(None, "random", "easy", "random"), seed=11)

    async def scenario() -> None:
        app = PlayApp(game, speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            presses = await play_to_the_end(pilot, app)
            assert presses >= 10  # a human decides at least once a round
            assert game.is_over
            text = screen_text(app)
            assert "Final scoring" in text
            for name in game.names:
                assert name in text
            scoring = game.state.score()
            winner = game.names[scoring.winners[0]]
            assert f"{winner} wins" in text or "share the win" in text
            for points in scoring.points:
                assert str(points) in text
            await pilot.press("n")  # play again
            await settle(pilot)
            assert isinstance(app.screen, GameScreen)
            assert app.game is not game and app.game.state.round == 1

    run(scenario())


def test_a_refused_key_shows_the_reason_and_changes_nothing() -> None:
    game = Game(State(rigged_deck(*["bread"] * 4, *["cheese"] * 4), 4, 0), tuple(seats(
        None, "random", "random", "random")), random.Random(1))

    async def scenario() -> None:
        app = PlayApp(game, speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            before = game.state.clone()
            await pilot.press(DISH_KEYS[DISHES.index("wine")])
            await settle(pilot)
            assert game.state == before
            assert "You can't take wine: wine is not on the table (R6)" in screen_text(app)
            await pilot.press("p")
            await settle(pilot)
            assert game.state == before
            assert "only a dragon you just drew can be placed (R7a)" in screen_text(app)

    run(scenario())


def test_a_drawn_dragon_asks_use_or_place_at_once() -> None:
    deck = rigged_deck("bread", "bread", "cheese", "ham", "ham", "fruit", "cake", "cake", "dragon")
    game = Game(State(deck, 4, 0), tuple(seats(None, "random", "random", "random")),
                random.Random(2))

    async def scenario() -> None:
        app = PlayApp(game, speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("d")
            await settle(pilot)
            assert isinstance(app.screen, DragonScreen)
            text = screen_text(app)
            assert "You drew a dragon" in text
            assert "goes on the table" in text  # the king has nothing yet: placing only
            await pilot.press("f")  # refused: the king has fewer than 2 dishes
            await settle(pilot)
            assert isinstance(app.screen, DragonScreen)
            await pilot.press("p")
            await settle(pilot)
            assert game.state.history[1].action.kind == "place_dragon"
            assert "Ann places the dragon on the table." in game.log_lines(0)

    run(scenario())


def test_feeding_a_table_dragon_picks_the_two_dishes() -> None:
    game = game_reaching(
        (None, "random", "random", "random"),
        lambda g: g.to_move == 0
        and not g.state.pending_dragon
        and sum(a.kind == "feed" for a in g.state.legal_actions()) >= 2,
    )
    view = game.view(0)
    first = first_dishes(view)[0]
    second = second_dishes(view, first)[-1]
    king_before = list(game.state.king)

    async def scenario() -> None:
        app = PlayApp(game, speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("f")
            await settle(pilot)
            assert isinstance(app.screen, FeedScreen)
            assert "Pick the first" in screen_text(app)
            await pilot.press(DISH_KEYS[first])
            await settle(pilot)
            assert "pick the second dish" in screen_text(app)
            await pilot.press(DISH_KEYS[second])
            await settle(pilot)
            assert not isinstance(app.screen, FeedScreen)

    run(scenario())
    turn = next(t for t in reversed(game.state.history) if t.seat == 0)
    assert turn.action.kind == "feed" and turn.action.dishes == tuple(sorted((first, second)))
    eaten = [0] * 7
    eaten[first] += 1
    eaten[second] += 1
    assert any(
        line.startswith("Ann feeds a dragon from the table: the king loses")
        for line in game.log_lines(0)
    )
    assert sum(king_before) - sum(eaten) >= 0


def test_hotseat_hides_the_previous_players_cards() -> None:
    # Ann (seat 0, cook) draws the wine under the 8 dealt cards; no wine lies on the table.
    deck = rigged_deck("bread", "bread", "cheese", "ham", "ham", "chicken", "fruit", "cake",
                       "wine")
    game = Game(State(deck, 4, 0), tuple(seats(None, None, "random", "random")),
                random.Random(3))

    async def scenario() -> None:
        app = PlayApp(game, speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, HandoverScreen)  # the first human too
            await pilot.press("enter")
            await settle(pilot)
            text = screen_text(app)
            assert "seen by Ann" in text and "Ann (you)" in text
            await pilot.press("d")
            await settle(pilot)
            assert game.state.draws(0)[DISHES.index("wine")] == 1
            # Ann sees the card she drew before the screen passes on (R7b)
            assert isinstance(app.screen, DrawnCardScreen)
            assert "You drew 1 wine." in screen_text(app)
            await pilot.press("enter")
            await settle(pilot)
            # Bob is next: the screen hides everything until Bob says he alone looks.
            assert isinstance(app.screen, HandoverScreen)
            text = screen_text(app)
            assert "Pass the keyboard to Bob" in text
            assert "Ann" not in text and "wine" not in text
            assert "King" not in text and "Table" not in text  # no board at all
            await pilot.press("enter")
            await settle(pilot)
            text = screen_text(app)
            assert "seen by Bob" in text and "Bob (you)" in text
            ann_row = next(line for line in text.splitlines() if line.strip().startswith("Ann"))
            assert "+1 hidden" in ann_row
            assert not any(ch.isdigit() for ch in ann_row.replace("+1 hidden", ""))
            assert "Ann draws a card." in text
            assert "(wine)" not in text
            # the screen is Bob's own view: his drawn row is there, nobody else's
            assert sum("drawn" in line for line in text.splitlines()) == 1

    run(scenario())


def test_save_and_resume_reproduce_the_same_game(tmp_path: Path) -> None:
    path = tmp_path / "saved.json"
    game = Game.new(seats("easy", None, "random", "random"), seed=21)
    screens: list[str] = []

    async def first_session() -> None:
        app = PlayApp(game, speed=0, save_path=path)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(4):
                await settle(pilot)
                if isinstance(app.screen, DragonScreen):
                    await pilot.press("p")
                    continue
                await pilot.press(moves(game.view(game.to_move))[0].key)
            await settle(pilot)
            if isinstance(app.screen, DragonScreen):
                await pilot.press("p")
                await settle(pilot)
            assert isinstance(app.screen, GameScreen)
            await pilot.press("s")
            await settle(pilot)
            assert "Game saved to" in screen_text(app) and path.exists()
            screens.append(screen_text(app))

    run(first_session())
    saved = json.loads(path.read_text())
    assert saved["seats"] == [{"kind": "bot", "bot": "easy"}, {"kind": "human"},
                              {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    resumed = Game.from_record(read_record(saved))
    assert resumed.state == game.state
    assert resumed.seats == game.seats
    assert resumed.log == game.log

    async def second_session() -> None:
        app = PlayApp(resumed, speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            screens.append(screen_text(app))

    run(second_session())
    board_before = screens[0].splitlines()[:9]
    board_after = screens[1].splitlines()[:9]
    assert board_before == board_after


def test_a_narrow_terminal_shows_everything_needed_to_play() -> None:
    game = Game.new(seats(None, "random", "random", "random", "random"), seed=8)
    advance_to(game, lambda g: g.to_move == 0 and g.state.round >= 3
               and len(moves(g.view(0))) >= 3, seed=4)

    async def scenario() -> None:
        app = PlayApp(game, speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            text = screen_text(app)
            lines = text.splitlines()
            assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
            view = game.view(0)
            assert f"Round {view.round}" in text and f"deck {view.deck_size}" in text
            assert f"cook {game.names[view.cook]}" in text
            for dish in DISHES:
                assert dish in lines[1]
            for name in ("King", "Table", "Ann (you)", "Bob", "Cid", "Dee", "Eve"):
                assert name in text
            for move in moves(view):
                assert f"[{move.key}] {move.label}" in text
            for key in ("h hint", "s save", "q quit", "? keys"):
                assert key in text
            # every hand's takes are on the board, as counts by dish
            for seat in range(1, 5):
                row = next(line for line in lines if line.strip().startswith(game.names[seat]))
                numbers = [int(word) for word in row.split() if word.isdigit()]
                assert sum(numbers) == sum(view.hands[seat].takes)

    run(scenario())


def test_the_score_screen_fits_five_players_on_a_narrow_terminal() -> None:
    game = Game.new(seats(None, "random", "random", "random", "random"), seed=9)
    advance_to(game, lambda g: g.is_over or (g.to_move == 0 and g.state.deck_size < 12), seed=1)
    advance_to(game, lambda g: g.is_over, seed=2)

    async def scenario() -> None:
        app = PlayApp(game, speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, ScoreScreen)
            text = screen_text(app)
            scoring = game.state.score()
            for player in scoring.players:
                row = next(line for line in text.splitlines()
                           if line.strip().startswith(game.names[player.seat]))
                assert row.split()[-2:] == [str(player.points), str(player.discarded)]
            assert "n: play again" in text

    run(scenario())


def test_the_hint_ranks_every_legal_move_and_plays_the_chosen_one() -> None:
    game = Game.new(seats(None, "random", "random"), seed=4)

    async def scenario() -> None:
        app = PlayApp(game, speed=0, hint_seconds=0.05)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            legal = game.state.legal_actions()
            played = len(game.state.history)
            await pilot.press("h")
            await settle(pilot)
            assert isinstance(app.screen, HintScreen)
            text = screen_text(app)
            assert "win chance" in text
            for action in legal:
                assert action_label(action) in text
            await pilot.press("enter")
            await settle(pilot)
            assert not isinstance(app.screen, HintScreen)
            assert game.state.history[played].seat == 0

    run(scenario())


def test_speed_keys_and_quitting() -> None:
    game = Game.new(seats(None, "random", "random"), seed=6)

    async def scenario() -> None:
        app = PlayApp(game, speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            app.speed = 0.5
            await pilot.press("plus")
            assert app.speed == 0.2
            await pilot.press("minus", "minus")
            assert app.speed == 1.0
            assert app.speed in SPEEDS
            await pilot.press("question_mark")
            await settle(pilot)
            assert "1-7     take all of a dish" in screen_text(app)
            await pilot.press("escape")
            await settle(pilot)
            assert isinstance(app.screen, GameScreen)
            await pilot.press("q")
            await settle(pilot)
            assert isinstance(app.screen, QuitScreen)
            await pilot.press("escape")
            await settle(pilot)
            assert isinstance(app.screen, GameScreen)
            await pilot.press("q", "q")
            await pilot.pause()
        assert app.return_code == 0

    run(scenario())


def test_a_move_can_be_clicked_with_the_mouse() -> None:
    deck = rigged_deck("bread", "bread", "cheese", "ham", "ham", "fruit", "cake", "cake")
    game = Game(State(deck, 4, 0), tuple(seats(None, "random", "random", "random")),
                random.Random(7))

    async def scenario() -> None:
        app = PlayApp(game, speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            first = screen_order(moves(game.view(0)))[0]  # drawing, listed before dishes
            assert first.label == "draw a card"
            await pilot.click("#moves", offset=(4, 1))  # the first line inside the border
            await settle(pilot)
            assert game.state.history[0].action == first.action

    run(scenario())


def test_watching_bots_only_shows_public_facts_and_ends_on_the_scores() -> None:
    game = Game.new(seats("random", "easy", "random"), seed=13)

    async def scenario() -> None:
        app = PlayApp(game, speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert game.is_over and isinstance(app.screen, ScoreScreen)
            # the log the watcher read never named a drawn card
            assert not any("draws a card (" in line for line in game.log_lines(None))

    run(scenario())


def test_the_newest_log_line_is_in_sight_and_rewrapped_after_a_resize() -> None:
    game = Game.new(seats(None, "random", "random", "random"), seed=12)

    async def scenario() -> None:
        app = PlayApp(game, speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(8):
                await settle(pilot)
                await pilot.press("d" if game.view(0).deck_size else "x")
            await settle(pilot)
            newest = game.log_lines(0)[-1]
            text = screen_text(app)
            # the newest line's last words end the log pane (above its bottom border)
            tail = newest.split()[-1]
            log_rows = [line.split("││")[-1] for line in text.splitlines() if "││" in line]
            written = [row.strip(" │▁▂▃▄▅▆▇█") for row in log_rows if row.strip(" │▁▂▃▄▅▆▇█")]
            assert written and written[-1].endswith(tail), (tail, written[-3:])
            # a wider terminal: the lines are wrapped anew to the wider pane
            await pilot.resize_terminal(160, 24)
            await settle(pilot)
            wide = [line.split("││")[-1] for line in screen_text(app).splitlines() if "││" in line]
            longest = max(len(row.rstrip(" │▁▂▃▄▅▆▇█")) for row in wide)
            assert longest > 60, "the log kept its old wrapping after the resize"

    run(scenario())


def test_after_a_hotseat_pass_the_log_shows_its_newest_line() -> None:
    """The log is rebuilt for the next player behind the hand-over screen; once it is
    shown, it is scrolled to the end, not left at the top of the rebuilt text."""
    from kingsbreakfast.tui.widgets import GameLog

    game = Game.new(seats(None, None, "random"), seed=4)
    for _ in range(12):  # a long log before the hand-over: a few rounds of moves
        if game.is_over:
            break
        game.play(game.bot_choice() if not game.human_to_move() else
                  Action(game.state.legal_actions()[0]))

    async def scenario() -> None:
        app = PlayApp(game, speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(4):
                await settle(pilot)
                if isinstance(app.screen, HandoverScreen | DrawnCardScreen):
                    await pilot.press("enter")
                elif app.game.human_to_move():
                    await pilot.press("d")
            await settle(pilot)
            await pilot.pause(0.1)
            log = app.screen.query_one(GameLog)
            assert log.max_scroll_y > 0  # the log is longer than its box
            assert log.scroll_y == log.max_scroll_y

    run(scenario())


def test_no_color_paints_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """With NO_COLOR every cell goes out in the terminal's own colours (Textual's NoColor
    filter: default foreground and background, bold and underline kept), not greyed."""
    from rich.segment import Segment
    from rich.style import Style
    from textual.color import Color
    from textual.filter import Monochrome, NoColor

    monkeypatch.setenv("NO_COLOR", "")
    game = Game.new(seats(None, "random", "random"), seed=3)

    async def scenario() -> None:
        app = PlayApp(game, speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            kinds = {type(f) for f in app._filters if f.enabled}
            assert NoColor in kinds and Monochrome not in kinds
            painted = [Segment("x", Style(color="red", bgcolor="grey11", bold=True))]
            for line_filter in app._filters:
                if line_filter.enabled:
                    painted = line_filter.apply(painted, Color(0, 0, 0))
            style = painted[0].style
            assert style is not None and style.bold
            assert style.color is not None and style.color.is_default
            assert style.bgcolor is not None and style.bgcolor.is_default

    run(scenario())
