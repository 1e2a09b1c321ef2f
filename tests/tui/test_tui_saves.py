"""Saved games stay tidy: one entry per game however often it is resumed, finished games
kept apart for replay, broken files listed with their error, entries deleted from the
picker or with a command, the language kept; and names keep their marker when cut."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from tui_helpers import seats
from typer.testing import CliRunner

from kingsbreakfast.cli.main import app as cli
from kingsbreakfast.engine import RecordError, read_record
from kingsbreakfast.i18n import language, set_language
from kingsbreakfast.i18n.errors import explain
from kingsbreakfast.tui import strings
from kingsbreakfast.tui.board import board_rows, board_text
from kingsbreakfast.tui.fit import fit_name
from kingsbreakfast.tui.plain import CLEAR_ALL, PlainGame
from kingsbreakfast.tui.saving import (
    Autosaver,
    autosave_dir,
    finished_dir,
    saved_games,
    write_record,
)
from kingsbreakfast.tui.session import Game, Seat

runner = CliRunner()
STUBBORN = "d\n1\n2\n3\n4\n5\n6\n7\np\nx\n"


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    """A command run here sets the language for the whole process: back to English."""
    yield
    set_language("en")


def entries() -> list[Path]:
    return sorted(autosave_dir().glob("*.json"))


def test_resuming_a_file_twice_continues_one_autosave(tmp_path: Path) -> None:
    mine = tmp_path / "mine.json"
    write_record(Game.new(seats(None, "random", "random"), seed=70), mine)
    for _ in range(3):
        result = runner.invoke(cli, ["play", "--plain", "--speed", "0", "--resume", str(mine)],
                               input="d\nq\nn\n")
        assert result.exit_code == 0, result.output
    assert len(entries()) == 1  # not one per resume
    assert len(saved_games()) == 1


def test_a_finished_game_leaves_the_list_and_is_kept_for_replay() -> None:
    game = Game.new(seats(None, "random", "random"), seed=71)
    saver = Autosaver()
    out = io.StringIO()
    PlainGame(game, io.StringIO(STUBBORN * 80 + "q\n"), out, autosaver=saver).run()
    assert game.is_over
    assert saved_games() == [] and entries() == []
    kept = list(finished_dir().glob("*.json"))
    assert len(kept) == 1 and saver.path == kept[0]
    assert strings.finished_game_kept(str(kept[0])) in out.getvalue()  # said where
    assert read_record(kept[0].read_bytes()).replay().is_over
    listing = runner.invoke(cli, ["saves"])
    assert str(finished_dir()) in listing.output


def test_a_broken_file_is_listed_with_its_error_and_can_be_deleted() -> None:
    Autosaver(autosave_dir() / "game-good.json").save(
        Game.new(seats(None, "random", "random"), seed=72))
    broken = autosave_dir() / "game-broken.json"
    broken.write_text("{not json")
    listed = saved_games()
    assert [saved.path.name for saved in listed if saved.error] == ["game-broken.json"]
    result = runner.invoke(cli, ["saves"])
    assert "game-broken.json · cannot be resumed: the record is not valid JSON" in result.output
    number = 1 + [saved.path for saved in listed].index(broken)
    # picking it says why it cannot go on; d and its number deletes it; then q
    picked = runner.invoke(cli, ["play", "--plain", "--resume"],
                           input=f"{number}\nd{number}\nq\n")
    assert "cannot be resumed" in picked.output and f"Saved game {number} deleted." in picked.output
    assert not broken.exists() and len(entries()) == 1


def test_saves_delete_removes_entries_by_number() -> None:
    for seed in (73, 74):
        Autosaver(autosave_dir() / f"game-{seed}.json").save(
            Game.new(seats(None, "random", "random"), seed=seed))
    result = runner.invoke(cli, ["saves", "--delete", "2"])
    assert result.exit_code == 0 and len(entries()) == 1
    wrong = runner.invoke(cli, ["saves", "--delete", "5"])
    assert wrong.exit_code == 2 and "there is no saved game 5" in wrong.output
    assert len(entries()) == 1


def test_the_language_is_saved_and_a_resumed_game_speaks_it(tmp_path: Path) -> None:
    mine = tmp_path / "mine.json"
    with language("de"):
        write_record(Game.new(seats(None, "random", "random"), seed=75), mine)
    assert json.loads(mine.read_text())["language"] == "de"
    result = runner.invoke(cli, ["play", "--plain", "--speed", "0", "--resume", str(mine)],
                           input="q\nn\n")
    assert "Runde 1" in result.output  # no --lang: the game's own language
    asked = runner.invoke(cli, ["--lang", "fr", "play", "--plain", "--speed", "0", "--resume",
                                str(mine)], input="q\nn\n")
    assert "Le Petit-déjeuner du roi" in asked.output and "Runde 1" not in asked.output


def test_a_record_from_a_newer_format_says_to_upgrade(tmp_path: Path) -> None:
    game = Game.new(seats(None, "random", "random"), seed=76)
    data = json.loads(game.record().to_json())
    data["format"] = "kingsbreakfast/2"
    try:
        read_record(json.dumps(data))
    except RecordError as error:
        for code, word in (("en", "upgrade"), ("de", "aktualisieren"), ("hu", "frissítsd"),
                           ("fr", "mettez kingsbreakfast à jour"), ("vi", "nâng cấp")):
            with language(code):
                assert word in explain(error), code
    else:
        raise AssertionError("a newer format was read")


def test_names_keep_their_marker_however_short() -> None:
    assert fit_name("Zsuzsanna", 10, strings.you_label) == "Zsu… (you)"
    assert fit_name("Ann", 12, strings.you_label) == "Ann (you)"
    with language("hu"):
        assert fit_name("Zsuzsanna", 10, strings.you_label).endswith(strings.you_label("")[-4:])
    game = Game.new([Seat("Zsuzsanna"), Seat("Bob", "random"), Seat("Cid", "random")], seed=77)
    lines = board_text(board_rows(game.view(0), game.names), 60)
    assert any("(you)" in line for line in lines)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_plain_hotseat_wipes_the_screen_and_scrollback_between_players() -> None:
    game = Game.new(seats(None, None, "random"), seed=78)
    out = _Terminal()
    PlainGame(game, io.StringIO("\nd\n\nq\nn\n"), out).run()
    text = out.getvalue()
    assert text.count(CLEAR_ALL) >= 2
    # what the first player saw (their drawn card) is before a wipe, never after the last one
    last = text.rindex(CLEAR_ALL)
    drew = [line for line in text.splitlines() if "draws a card (" in line]
    assert drew and all(text.index(line) < last for line in drew)


def test_plain_hotseat_erases_the_scrollback_after_the_screen() -> None:
    """The screen erase (``ESC [2J``) pushes the screen into the scrollback of tmux, xterm
    and VTE, so the scrollback erase (``ESC [3J``) must come after it, every time: in the
    other order the previous hand stays a scroll away (R7: drawn cards are hidden)."""
    game = Game.new(seats(None, None, "random"), seed=78)
    out = _Terminal()
    PlainGame(game, io.StringIO("\nd\n\nq\nn\n"), out).run()
    text = out.getvalue()
    screens, scrollbacks = text.count("\x1b[2J"), text.count("\x1b[3J")
    assert screens >= 2 and screens == scrollbacks
    assert text.count("\x1b[2J\x1b[3J") == scrollbacks
