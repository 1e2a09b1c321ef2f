"""``kingsbreakfast replay``'s refusals, pinned: the exact error object of ``--json`` (the
engine's English sentence and the action index, docs/record-format.md), the exit status, and
the readable line on standard error. A record refused for the wrong reason fails here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

GOLDEN = Path(__file__).parent.parent / "golden"
ERROR_CASES = sorted(
    path for path in GOLDEN.glob("*.json") if "error" in json.loads(path.read_text())["expect"]
)


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kingsbreakfast", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def record_file(tmp_path: Path, case: Path) -> tuple[Path, dict[str, Any]]:
    data = json.loads(case.read_text())
    path = tmp_path / case.name
    path.write_text(json.dumps(data["record"]))
    return path, data["expect"]


def test_the_golden_error_records_are_there() -> None:
    assert [path.name for path in ERROR_CASES] == ["05-illegal-take.json", "06-bad-deck.json"]


@pytest.mark.parametrize("case", ERROR_CASES, ids=lambda p: p.name)
def test_json_error_object_is_exactly_the_engines_refusal(case: Path, tmp_path: Path) -> None:
    path, expect = record_file(tmp_path, case)
    result = run("replay", "--json", str(path))
    assert result.returncode == 2
    assert json.loads(result.stdout) == {
        "error": expect["message"],
        "action_index": expect["action_index"],
    }
    assert list(json.loads(result.stdout)) == ["error", "action_index"]


GARBAGE = {
    "empty": ("", "the record is not valid JSON: Expecting value: line 1 column 1 (char 0)"),
    "open brace": (
        "{",
        "the record is not valid JSON: Expecting property name enclosed in double quotes: "
        "line 1 column 2 (char 1)",
    ),
    "list": ("[]", "a record must be a JSON object"),
    "null": ("null", "a record must be a JSON object"),
    "format only": ('{"format": "kingsbreakfast/1"}', "'players' must be a list of names"),
    "wrong format": ('{"format": "kb/0"}', "'format' must be \"kingsbreakfast/1\", not 'kb/0'"),
}


@pytest.mark.parametrize(("text", "message"), GARBAGE.values(), ids=GARBAGE.keys())
def test_garbage_gets_the_exact_reason(text: str, message: str) -> None:
    result = run("replay", "--json", "-", stdin=text)
    assert result.returncode == 2
    assert json.loads(result.stdout) == {"error": message, "action_index": None}


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    result = run("replay", "--json", str(missing))
    assert result.returncode == 2
    assert json.loads(result.stdout) == {
        "error": f"cannot read {missing}: No such file or directory",
        "action_index": None,
    }


def test_an_invalid_record_among_valid_ones_is_reported_in_its_place(tmp_path: Path) -> None:
    good, _ = record_file(tmp_path, GOLDEN / "00-full-game-3p.json")
    bad, expect = record_file(tmp_path, GOLDEN / "05-illegal-take.json")
    result = run("replay", "--json", str(good), str(bad), str(good))
    assert result.returncode == 2
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [("error" in line) for line in lines] == [False, True, False]
    assert lines[1] == {"error": expect["message"], "action_index": 5}


def test_the_readable_refusal_in_english(tmp_path: Path) -> None:
    path, _ = record_file(tmp_path, GOLDEN / "05-illegal-take.json")
    result = run("replay", "--lang", "en", str(path))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.strip() == (
        f"{path}: invalid record: action 5 (take ham): ham is not on the table (R6)"
    )


def test_the_readable_refusal_outside_the_actions_in_english(tmp_path: Path) -> None:
    """The readable line is the catalogue's sentence for the code (the count of each dish is
    in the ``--json`` object, not here)."""
    path, _ = record_file(tmp_path, GOLDEN / "06-bad-deck.json")
    result = run("replay", "--lang", "en", str(path))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.strip() == (
        f"{path}: invalid record: the deck must hold 110 cards, 15 of each dish and 5 dragons "
        "(R1)"
    )
