"""``kingsbreakfast replay`` as the record format specifies it, run as a real process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent.parent / "golden"
CASES = sorted(GOLDEN.glob("*.json"))


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kingsbreakfast", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, dict]]:  # type: ignore[type-arg]
    folder = tmp_path_factory.mktemp("records")
    out = {}
    for case in CASES:
        data = json.loads(case.read_text())
        path = folder / case.name
        path.write_text(json.dumps(data["record"]))
        out[case.name] = (path, data["expect"])
    return out


def test_json_replay_of_every_example(records: dict) -> None:  # type: ignore[type-arg]
    for _name, (path, expect) in records.items():
        result = run("replay", "--json", str(path))
        lines = result.stdout.splitlines()
        assert len(lines) == 1
        got = json.loads(lines[0])
        if "error" in expect:
            assert result.returncode == 2
            assert set(got) == {"error", "action_index"}
            assert isinstance(got["error"], str) and got["error"]
            assert got["action_index"] == expect["action_index"]
        else:
            assert result.returncode == 0, result.stderr
            assert got == expect
            assert list(got) == list(expect)  # the spec's key order


def test_several_files_give_json_lines_and_exit_2_if_any_is_invalid(records: dict) -> None:  # type: ignore[type-arg]
    paths = [str(records[name][0]) for name in sorted(records)]
    result = run("replay", "--json", *paths)
    assert result.returncode == 2
    lines = result.stdout.splitlines()
    assert len(lines) == len(paths)
    for line, name in zip(lines, sorted(records), strict=True):
        expect = records[name][1]
        got = json.loads(line)
        if "error" in expect:
            assert got["action_index"] == expect["action_index"]
        else:
            assert got == expect


def test_all_valid_files_exit_0(records: dict) -> None:  # type: ignore[type-arg]
    paths = [str(records[name][0]) for name in sorted(records) if "error" not in records[name][1]]
    result = run("replay", "--json", *paths)
    assert result.returncode == 0
    assert len(result.stdout.splitlines()) == len(paths)


def test_standard_input(records: dict) -> None:  # type: ignore[type-arg]
    path, expect = records["02-full-game-5p.json"]
    result = run("replay", "--json", "-", stdin=path.read_text())
    assert result.returncode == 0
    assert json.loads(result.stdout) == expect


@pytest.mark.parametrize("text", ["", "{", "[]", "null", '{"format": "kingsbreakfast/1"}'])
def test_garbage_is_an_error_object(text: str) -> None:
    result = run("replay", "--json", "-", stdin=text)
    assert result.returncode == 2
    got = json.loads(result.stdout)
    assert got["action_index"] is None and got["error"]


def test_missing_file_is_an_error_object(tmp_path: Path) -> None:
    result = run("replay", "--json", str(tmp_path / "nope.json"))
    assert result.returncode == 2
    assert json.loads(result.stdout)["action_index"] is None


def test_readable_account_without_json(records: dict) -> None:  # type: ignore[type-arg]
    path, expect = records["00-full-game-3p.json"]
    result = run("replay", str(path))
    assert result.returncode == 0
    text = result.stdout
    assert "Round 1: P0 is the cook" in text
    assert "P0 takes" in text
    assert "Final scoring" in text
    assert f"{expect['scores'][0]:>6}" in text
    assert "P0 wins." in text


def test_readable_error_goes_to_stderr_only(records: dict) -> None:  # type: ignore[type-arg]
    path, _ = records["05-illegal-take.json"]
    result = run("replay", str(path))
    assert result.returncode == 2
    assert result.stdout == ""
    assert "action 5" in result.stderr and "ham is not on the table" in result.stderr


def test_bundled_examples_replay_by_name() -> None:
    names = run("examples").stdout.split()
    assert "game-4p" in names
    for name in names:
        result = run("replay", "--json", name)
        assert result.returncode == 0
        assert "finished" in json.loads(result.stdout)


def test_demo_plays_a_game_and_saves_a_replayable_record(tmp_path: Path) -> None:
    path = tmp_path / "demo.json"
    shown = run("demo", "--players", "5", "--seed", "42", "--save", str(path))
    assert shown.returncode == 0, shown.stderr
    assert "Final scoring" in shown.stdout
    again = run("demo", "--players", "5", "--seed", "42")
    assert again.stdout.splitlines() == shown.stdout.splitlines()[:-1]
    replayed = run("replay", "--json", str(path))
    assert json.loads(replayed.stdout)["finished"] is True


def test_demo_refuses_a_bad_player_count() -> None:
    result = run("demo", "--players", "6")
    assert result.returncode == 2
    assert "3 to 5 players" in result.stderr


def test_console_script_and_module_agree(records: dict) -> None:  # type: ignore[type-arg]
    path, _ = records["01-full-game-4p.json"]
    script = Path(sys.executable).parent / "kingsbreakfast"
    if not script.exists():
        pytest.skip("console script not installed next to this interpreter")
    by_script = subprocess.run(
        [str(script), "replay", "--json", str(path)], capture_output=True, text=True, check=True
    )
    assert by_script.stdout == run("replay", "--json", str(path)).stdout
