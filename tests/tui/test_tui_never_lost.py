"""No way of leaving loses a game: every action is autosaved, and every exit says how to
come back — a key in the full-screen game, Ctrl-C, end of input or a bare ``--resume``."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tui_helpers import seats, settle
from typer.testing import CliRunner

from kingsbreakfast.cli.main import app as cli
from kingsbreakfast.engine import read_record
from kingsbreakfast.tui.plain import INTERRUPTED, QUIT, PlainGame
from kingsbreakfast.tui.saving import Autosaver, autosave_dir, saved_games
from kingsbreakfast.tui.session import Game

runner = CliRunner()


def resumed(path: Path) -> Game:
    return Game.from_record(read_record(json.loads(path.read_text())))


def only_autosave() -> Path:
    files = sorted(autosave_dir().glob("*.json"))
    assert len(files) == 1, files
    return files[0]


# --- the full-screen game ----------------------------------------------------------------

textual = pytest.importorskip("textual")


@pytest.mark.parametrize("key", ["ctrl+q", "ctrl+c"])
def test_leaving_by_key_saves_and_says_how_to_resume(key: str) -> None:
    from kingsbreakfast.tui.app import PlayApp

    game = Game.new(seats(None, "random", "random", "random"), seed=51)

    async def scenario() -> PlayApp:
        app = PlayApp(game, speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert game.human_to_move()
            await pilot.press("d")  # one move of the human's own, then leave at once
            await settle(pilot)
            await pilot.press(key)
            await pilot.pause()
        return app

    app = asyncio.run(scenario())
    assert app.return_code == 0 or app.return_code is None
    path = only_autosave()
    assert app.farewell is not None
    assert str(path) in app.farewell and "kingsbreakfast play --resume" in app.farewell
    back = resumed(path)
    assert back.state == game.state and back.seats == game.seats
    assert any(turn.action.kind == "draw" and turn.seat == 0 for turn in game.state.history)


def test_every_action_is_autosaved_before_the_next() -> None:
    from kingsbreakfast.tui.app import PlayApp

    game = Game.new(seats(None, "random", "random"), seed=52)

    async def scenario() -> None:
        app = PlayApp(game, speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(3):
                await settle(pilot)
                assert game.human_to_move()
                # while the human thinks, the file already holds every action so far
                assert resumed(app.autosaver.path).state == game.state
                await pilot.press("d" if game.view(0).deck_size else "x")

    asyncio.run(scenario())


# --- the plain game ----------------------------------------------------------------------


class Interrupting(io.StringIO):
    """Standard input that answers ``lines`` and then is interrupted (Ctrl-C)."""

    def __init__(self, lines: str) -> None:
        super().__init__(lines)

    def readline(self, size: int | None = -1) -> str:
        line = super().readline()
        if not line:
            raise KeyboardInterrupt
        return line


def test_plain_end_of_input_saves_and_says_how_to_resume() -> None:
    game = Game.new(seats(None, "random", "random"), seed=53)
    out = io.StringIO()
    result = PlainGame(game, io.StringIO("d\n"), out).run()
    assert result == QUIT
    path = only_autosave()
    assert f"The game is saved in {path}. Resume it with: kingsbreakfast play --resume" in (
        out.getvalue()
    )
    assert resumed(path).state == game.state


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10_000), answers=st.integers(0, 60))
def test_wherever_input_ends_the_autosave_resumes_the_same_game(
    seed: int, answers: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("autosave")
    game = Game.new(seats(None, "random", "random"), seed=seed)
    typed = "".join(["d\n", "1\n", "2\n", "3\n", "4\n", "5\n", "6\n", "7\n", "p\n", "x\n"][
        k % 10] for k in range(answers))
    saver = Autosaver(folder / "game.json")
    PlainGame(game, io.StringIO(typed), io.StringIO(), autosaver=saver).run()
    if game.untouched:  # left before the human's first move: a new game adds no entry
        assert not saver.path.exists()
        return
    back = resumed(saver.path)
    assert back.state == game.state and back.seats == game.seats


def test_plain_ctrl_c_saves_says_so_and_reports_the_interruption() -> None:
    game = Game.new(seats(None, "random", "random"), seed=54)
    out = io.StringIO()
    result = PlainGame(game, Interrupting("d\n"), out).run()  # type: ignore[arg-type]
    assert result == INTERRUPTED
    path = only_autosave()
    assert str(path) in out.getvalue()
    assert resumed(path).state == game.state
    assert len(game.state.history) >= 1


def test_plain_answers_unknown_input_with_the_valid_answers_once_per_answer() -> None:
    game = Game.new(seats(None, "random", "random"), seed=55)
    out = io.StringIO()
    PlainGame(game, io.StringIO("what\n"), out).run()
    text = out.getvalue()
    assert text.count("Please answer with one of:") == 1
    reply = next(line for line in text.splitlines() if "Please answer with one of:" in line)
    assert "d" in reply.split(":")[-1] and "q" in reply.split(":")[-1]


def test_the_end_prompt_answers_unknown_input_too() -> None:
    game = Game.new(seats("random", "random", "random"), seed=56)
    out = io.StringIO()
    PlainGame(game, io.StringIO("maybe\nperhaps\nq\n"), out).run()
    text = out.getvalue()
    assert game.is_over
    assert text.count("Please answer with one of: n, s, q") == 2


# --- resuming from the command line -----------------------------------------------------


def test_a_bare_resume_offers_the_saved_games_and_resumes_the_chosen_one() -> None:
    older = Game.new(seats(None, "random", "random"), seed=57)
    newer = Game.new(seats(None, "random", "random", "random"), seed=58)
    for game, number in ((older, 1), (newer, 2)):
        saver = Autosaver(autosave_dir() / f"game-{number}.json")
        assert saver.save(game)
    listed = saved_games()
    assert sorted(len(saved.players) for saved in listed) == [3, 4]
    choice = 1 + next(i for i, saved in enumerate(listed) if len(saved.players) == 3)
    result = runner.invoke(cli, ["play", "--plain", "--speed", "0", "--resume"],
                           input=f"{choice}\n")
    assert result.exit_code == 0, result.output
    assert "Saved games, newest first:" in result.output
    assert "  1: " in result.output and "  2: " in result.output and "round 1" in result.output
    # the chosen game went on in its own file: still three players, more actions
    back = resumed(autosave_dir() / "game-1.json")
    assert back.state.num_players == 3
    assert len(back.state.history) >= len(older.state.history)


def test_a_bare_resume_with_no_saved_game_says_so() -> None:
    result = runner.invoke(cli, ["play", "--plain", "--resume"], input="")
    assert result.exit_code == 0
    assert "There are no unfinished saved games in" in result.output


def test_a_bare_resume_refuses_a_wrong_number_with_the_valid_answers() -> None:
    Autosaver(autosave_dir() / "game-1.json").save(
        Game.new(seats(None, "random", "random"), seed=59)
    )
    Autosaver(autosave_dir() / "game-2.json").save(
        Game.new(seats(None, "random", "random"), seed=60)
    )
    result = runner.invoke(cli, ["play", "--plain", "--resume"], input="9\nq\n")
    assert result.exit_code == 0
    assert "Please answer with one of: 1–2, Enter, d1–d2, q" in result.output


def test_finished_games_are_not_offered(tmp_path: Path) -> None:
    game = Game.new(seats("random", "random", "random"), seed=61)
    PlainGame(game, io.StringIO("q\n"), io.StringIO()).run()
    assert game.is_over
    assert saved_games() == []


def test_the_data_folder_follows_the_platform(monkeypatch: pytest.MonkeyPatch) -> None:
    import platformdirs

    from kingsbreakfast.tui import saving

    monkeypatch.delenv(saving.DATA_DIR_VAR)
    assert saving.data_dir() == platformdirs.user_data_path("kingsbreakfast", appauthor=False)


def test_saving_at_the_quit_question_says_where_once(tmp_path: Path) -> None:
    game = Game.new(seats(None, "random", "random"), seed=62)
    out = io.StringIO()
    path = tmp_path / "mine.json"
    PlainGame(game, io.StringIO("d\nq\ny\n"), out, save_path=path).run()
    text = out.getvalue()
    assert text.count(f"Game saved to {path}") == 1
    assert "The game is saved in" not in text  # the player's own file is the one to resume
    assert resumed(path).state == game.state
