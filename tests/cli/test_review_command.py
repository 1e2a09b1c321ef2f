"""``kingsbreakfast review RECORD --seat N``: one seat's choices valued by the master bot, as a
table in the player's language or as JSON, and a clear translated refusal (exit status 2)
for every input that cannot be reviewed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

pytest.importorskip("numpy")

from kingsbreakfast.bots.review import review_seat
from kingsbreakfast.engine import read_record


def kingsbreakfast(*args: str, stdin: str | None = None,
                   lang: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("KINGSBREAKFAST_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    if lang is not None:
        env["KINGSBREAKFAST_LANG"] = lang
    return subprocess.run([sys.executable, "-m", "kingsbreakfast", *args], input=stdin,
                          capture_output=True, text=True, timeout=120,
                          env={**env, "COLUMNS": "80"})


def example_text(name: str) -> str:
    return resources.files("kingsbreakfast.examples").joinpath(f"{name}.json").read_text()


def test_json_is_the_review_module_s_own_answer(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(example_text("game-4p"))
    done = kingsbreakfast("review", str(path), "--seat", "2", "--json")
    assert done.returncode == 0, done.stderr
    expected = review_seat(read_record(example_text("game-4p")), 2).to_dict()
    assert json.loads(done.stdout) == json.loads(json.dumps(expected))
    from_stdin = kingsbreakfast("review", "-", "--seat", "2", "--json",
                                stdin=example_text("game-4p"))
    assert from_stdin.stdout == done.stdout
    german = kingsbreakfast("review", str(path), "--seat", "2", "--json", lang="de")
    assert german.stdout == done.stdout  # machine output stays English


def test_the_table_lists_each_choice_and_the_summary(tmp_path: Path) -> None:
    done = kingsbreakfast("review", "game-5p", "--seat", "1")
    assert done.returncode == 0, done.stderr
    review = review_seat(read_record(example_text("game-5p")), 1)
    out = done.stdout
    assert out.splitlines()[0] == f"Review of {review.player} (seat 1)"
    for move in review.moves:
        assert any(line.split()[:2] == [str(move.move), str(move.round)]
                   for line in out.splitlines() if line.strip()), move.move
    marked = [line for line in out.splitlines()
              if line.split() and line.split()[0].isdigit() and line.rstrip().endswith("*")]
    assert len(marked) == review.big_losses > 0
    assert "* a big loss" in out.splitlines()
    assert f"{review.big_losses} big losses" in out
    assert f"Points lost in all: {review.points_lost:.1f}" in out
    for move in review.biggest:
        assert f"move {move.move} (" in out
    assert "never the hidden cards" in out and "5%" in out
    assert max(len(line) for line in out.splitlines()) <= 80


@pytest.mark.parametrize(("code", "words"), [
    ("de", ("Analyse für", "Runde", "nie die verdeckten Karten")),
    ("hu", ("elemzése", "forduló", "soha nem a rejtett lapokból")),
    ("fr", ("Analyse de", "manche", "jamais les cartes cachées")),
    ("vi", ("Phân tích cho", "vòng", "không bao giờ dùng các lá bài bị giấu")),
])
def test_the_review_speaks_the_players_language(code: str, words: tuple[str, ...]) -> None:
    done = kingsbreakfast("review", "game-3p", "--seat", "0", "--lang", code)
    assert done.returncode == 0, done.stderr
    flat = " ".join(done.stdout.split())
    for word in words:
        assert word in flat, (code, word)
    assert "Review of" not in flat and "choices reviewed" not in flat


@pytest.mark.parametrize("code", ["en", "de", "hu", "fr", "vi"])
def test_the_table_keeps_each_move_on_one_line_at_80_columns(code: str) -> None:
    """The moves' columns get the room: a move that fits half the table's free width is
    never wrapped (German, Hungarian and French wrapped every row while the right side of
    the screen stayed empty); nothing runs past 80 columns."""
    from kingsbreakfast.i18n import set_language
    from kingsbreakfast.tui.moves import action_label

    done = kingsbreakfast("review", "game-3p", "--seat", "0", "--lang", code)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    review = review_seat(read_record(example_text("game-3p")), 0)
    set_language(code)
    try:
        labels = {action_label(move.chosen) for move in review.moves} | {
            action_label(move.best) for move in review.moves}
    finally:
        set_language("en")
    short = [label for label in labels if len(label) <= 17]
    assert len(short) >= 5
    for label in short:
        assert any(label in line for line in lines), (code, label)


@pytest.mark.parametrize(("args", "english", "german"), [
    (("review", "nothing-here.json", "--seat", "0"),
     "error: cannot read nothing-here.json", "Fehler"),
    (("review", "unfinished-4p", "--seat", "0"),
     "error: the game in this record is not over", "nicht beendet"),
    (("review", "game-4p", "--seat", "4"),
     "error: there is no seat 4 in this game: choose a seat from 0 to 3",
     "keinen Platz 4"),
    (("review", "game-4p", "--seat", "-1"),
     "error: there is no seat -1 in this game", "keinen Platz -1"),
    (("review", "game-4p"), "needs --seat", "--seat"),
    (("review", "game-4p", "--seat", "one"), "--seat takes a whole number", "--seat"),
])
def test_bad_input_is_one_translated_line_and_exit_status_2(
    args: tuple[str, ...], english: str, german: str
) -> None:
    for lang, expected in (("en", english), ("de", german)):
        done = kingsbreakfast(*args, lang=lang)
        assert done.returncode == 2, (lang, done.stdout, done.stderr)
        assert done.stdout == ""
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and expected in lines[0], (lang, done.stderr)
        if lang == "de":
            assert "error:" not in lines[0]


def test_a_bad_record_names_what_is_wrong() -> None:
    done = kingsbreakfast("review", "-", "--seat", "0", stdin='{"format": "kingsbreakfast/9"}')
    assert done.returncode == 2 and done.stdout == ""
    assert "invalid record" in done.stderr and "kingsbreakfast/9" in done.stderr
    broken = json.loads(example_text("game-3p"))
    broken["actions"][3] = {"type": "take", "dish": "caviar"}
    done = kingsbreakfast("review", "-", "--seat", "0", stdin=json.dumps(broken))
    assert done.returncode == 2 and "action 3" in done.stderr


def test_the_costliest_choices_are_shown_as_the_seat_saw_them_with_reasons() -> None:
    """Under the table: the seat's win chance at each choice as a line of heights, and each
    of the costliest choices with the board as that seat saw it (its own drawn cards, the
    others' only counted) and the reason of the move played and of the best one."""
    from kingsbreakfast.bots.review import SeatReview
    from kingsbreakfast.cli.review_commands import SPARKS, sparkline

    done = kingsbreakfast("review", "game-4p", "--seat", "2")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    review: SeatReview = review_seat(read_record(example_text("game-4p")), 2)
    line = next(row for row in out.splitlines() if row.startswith("Win chance at each choice"))
    assert sparkline([move.win_chance for move in review.moves]) in line
    assert sparkline([0.0, 0.5, 1.0]) == SPARKS[0] + SPARKS[4] + SPARKS[-1]
    sections = out.split("\n\nMove ")[1:]
    assert len(sections) == len(review.biggest) >= 1
    for section, move in zip(sections, review.biggest, strict=True):
        assert section.startswith(f"{move.move} (round {move.round}), as P2 saw it:")
        rows = section.splitlines()
        assert sum(row.split()[:1] == ["drawn"] for row in rows) == 1  # only its own
        for other in ("P0", "P1", "P3"):  # the others' rows: taken cards, hidden counted
            assert sum(row.split()[:1] == [other] for row in rows) == 1
        assert any(row.startswith("played: ") and " — " in row for row in rows)
        assert any(row.startswith("best move: ") and " — " in row for row in rows)
    assert max(len(row) for row in out.splitlines()) <= 80
