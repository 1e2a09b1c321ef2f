"""``kingsbreakfast play`` and the replay stepper from the command line."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kingsbreakfast.cli import play_commands
from kingsbreakfast.cli.main import app
from kingsbreakfast.engine import Rules, SetupError, read_record
from kingsbreakfast.tui.replay_model import Replay
from kingsbreakfast.tui.replay_plain import PlainReplay

runner = CliRunner()
STUBBORN = "d\n1\n2\n3\n4\n5\n6\n7\np\nx\n"


def example(name: str) -> dict:  # type: ignore[type-arg]
    text = resources.files("kingsbreakfast.examples").joinpath(f"{name}.json").read_text()
    return json.loads(text)  # type: ignore[no-any-return]


def test_play_plain_from_the_command_line() -> None:
    result = runner.invoke(
        app,
        ["play", "--plain", "--players", "3", "--bots", "random,easy", "--seed", "5",
         "--speed", "0", "--variant", "empty_table=must_draw"],
        input=STUBBORN * 80 + "q\n",
    )
    assert result.exit_code == 0, result.output
    assert "Ann, Bob (random), Cid (easy)" in result.output
    assert "Variants: empty_table=must_draw, dragon_min_on_table=1." in result.output
    assert "Final scoring" in result.output


def test_watching_bots_needs_no_input() -> None:
    result = runner.invoke(
        app, ["play", "--plain", "--hotseat", "0", "--bots", "random", "--seed", "2",
              "--speed", "0"], input="q\n",
    )
    assert result.exit_code == 0, result.output
    assert "Final scoring" in result.output
    assert "draws a card (" not in result.output.split("Final scoring")[0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--lang", "xx"], "unknown language 'xx': choose one of en, de, hu, fr, vi"),
        (["--players", "6"], "3 to 5 players"),
        (["--bots", "genius"], "unknown bot 'genius'"),
        (["--variant", "empty_table"], "write it as NAME=VALUE"),
        (["--variant", "dragon_min_on_table=3"], "dragon_min_on_table"),
        (["--variant", "colour=red"], "unknown rule switch colour"),
        (["--resume", "no-such-file.json"], "cannot read no-such-file.json"),
        (["--speed", "-1"], "--speed must be 0 or more"),
    ],
)
def test_bad_options_exit_2_with_a_reason(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["play", "--plain", *args])
    assert result.exit_code == 2
    assert message in result.output


def test_every_language_code_is_accepted() -> None:
    for code in ("en", "de", "hu", "fr", "vi"):
        result = runner.invoke(
            app, ["play", "--plain", "--hotseat", "0", "--bots", "random", "--lang", code,
                  "--speed", "0"], input="q\n",
        )
        assert result.exit_code == 0, result.output


def test_resume_from_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    result = runner.invoke(
        app, ["play", "--plain", "--seed", "9", "--bots", "random", "--save", str(path),
              "--speed", "0"], input="d\n1\n2\np\ns\nq\n",
    )
    assert result.exit_code == 0 and path.exists()
    saved = read_record(json.loads(path.read_text()))
    result = runner.invoke(
        app, ["play", "--plain", "--resume", str(path), "--speed", "0"], input="q\nn\n"
    )
    assert result.exit_code == 0, result.output
    assert f"Round {saved.replay().round}" in result.output


def test_parse_variants() -> None:
    parse = play_commands.parse_variants
    assert parse([]) == Rules()
    assert parse(["empty_table=must_draw", "dragon_min_on_table=2"]) == Rules("must_draw", 2)
    with pytest.raises(SetupError):
        parse(["dragon_min_on_table=two"])


def test_without_textual_the_full_screen_game_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(play_commands, "_plain_wanted", lambda plain: plain)
    monkeypatch.setitem(sys.modules, "textual", None)
    monkeypatch.setitem(sys.modules, "kingsbreakfast.tui.app", None)
    result = runner.invoke(app, ["play", "--bots", "random"])
    assert result.exit_code == 2
    assert "from the 'tui' extra: " in result.output and "[tui]'" in result.output


def test_the_command_line_does_not_import_textual() -> None:
    code = (
        "import sys, kingsbreakfast.cli.main, kingsbreakfast.tui.plain;"
        "assert 'textual' not in sys.modules, 'textual imported'"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr


def test_plain_replay_steps_forwards_and_backwards() -> None:
    record = read_record(example("game-4p"))
    replay = Replay(record)
    out = io.StringIO()
    PlainReplay(record, io.StringIO("\n\nb\n5\n9999\nzz\nq\n"), out).run()
    text = out.getvalue()
    total = replay.steps
    for step in (0, 1, 2, 5):
        assert f"Replay: action {step} of {total}" in text
    assert text.count(f"Replay: action 1 of {total}") == 2  # forwards, then back
    assert f"The record has actions 0 to {total}." in text
    assert "Type Enter (next)" in text
    assert replay.lines(1)[0] in text


def test_plain_replay_of_a_finished_game_ends_with_the_scores() -> None:
    record = read_record(example("game-3p"))
    out = io.StringIO()
    PlainReplay(record, io.StringIO(f"{len(record.actions)}\nq\n"), out).run()
    assert "Final scoring" in out.getvalue()


def test_an_unfinished_record_replays_as_a_spectator_sees_it() -> None:
    record = read_record(example("unfinished-4p"))
    replay = Replay(record)
    assert not replay.reveal and replay.hands(replay.steps) is None
    assert all("draws a card (" not in line for line in replay.log(replay.steps))
    finished = Replay(read_record(example("game-4p")))
    hands = finished.hands(finished.steps)
    assert finished.reveal and hands is not None and all(h.draws is not None for h in hands)
