"""``kingsbreakfast export-games``: a real database's finished games as pseudonymous
``kingsbreakfast/1`` records, and nothing else (docs/datasheet.md)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kingsbreakfast.cli.main import app
from kingsbreakfast.engine import CARD_IDS, State, replay, shuffled_deck
from kingsbreakfast.server.dataset import Export, finished_records
from kingsbreakfast.server.storage import Storage
from kingsbreakfast.server.store import SeatRecord

SALT = b"a secret salt of the operator, 40 bytes.."


def store_game(storage: Storage, game_id: str, seed: int, finish: bool, names: list[str]) -> None:
    """A table as the server stores it: created, started, every action appended."""
    seats = [
        SeatRecord(seat, "bot" if name == "hard" else "human", name,
                   None if name == "hard" else f"token-hash-{game_id}-{seat}")
        for seat, name in enumerate(names)
    ]  # fmt: skip
    storage.create_game(
        game_id, num_seats=len(names), rules={"empty_table": "draw_or_feed",
                                              "dragon_min_on_table": 1},
        bot_level="hard", clock_seconds=None, public=True, seats=seats,
    )  # fmt: skip
    deck = shuffled_deck(random.Random(seed))
    storage.start_game(game_id, tuple(CARD_IDS[c] for c in deck), 1, seats)
    state = State(deck, len(names), 1)
    rng = random.Random(seed)
    number = 0
    while not state.is_over and (finish or number < 10):
        seat = state.to_move
        assert seat is not None
        action = rng.choice(state.legal_actions())
        state.play(action)
        storage.append_action(game_id, number, seat, int(action), game_over=state.is_over)
        number += 1


@pytest.fixture
def database(db_url: str) -> str:
    storage = Storage(db_url)
    storage.migrate()
    store_game(storage, "finished-one", 1, True, ["Alice", "Bob", "hard"])
    store_game(storage, "finished-two", 2, True, ["Bob", "Carol", "Alice", "hard"])
    store_game(storage, "still-running", 3, False, ["Alice", "Dave", "Erin"])
    storage.dispose()
    return db_url


def test_only_finished_games_are_written_as_replayable_records(database: str) -> None:
    storage = Storage(database)
    report = Export()
    records = list(finished_records(storage, SALT, report, include_listed=True))
    storage.dispose()
    assert report.written == 2 and len(records) == 2
    for record in records:
        assert record["format"] == "kingsbreakfast/1"
        assert replay(record).is_over  # the engine reads and replays it to its end (R10)
        assert record["outcome"]["finished"]
    text = json.dumps(records)
    # no names, no tokens, no table ids, nothing of the running game
    for secret in ("Alice", "Bob", "Carol", "Dave", "Erin", "token", "finished-one",
                   "still-running"):  # fmt: skip
        assert secret not in text
    # public tables: every person's pseudonym is this game's only (docs/datasheet.md)
    first, second = records[0]["players"], records[1]["players"]
    assert first[2] == "bot:hard" and second[3] == "bot:hard"
    assert all(p.startswith("player-") for p in first[:2] + second[:3])
    assert not set(first) & set(second) - {"bot:hard"}


def test_games_listed_publicly_are_left_out_unless_asked_for(database: str) -> None:
    """Both finished games were public tables: their pages show the deck with the names, so
    by default no record of them is written, and the report counts them (docs/datasheet.md)."""
    storage = Storage(database)
    report = Export()
    records = list(finished_records(storage, SALT, report))
    storage.dispose()
    assert records == [] and report.written == 0 and report.listed_left_out == 2


def test_the_pseudonyms_are_stable_for_a_salt_and_change_with_it(database: str) -> None:
    storage = Storage(database)
    first = list(finished_records(storage, SALT, Export(), include_listed=True))
    again = list(finished_records(storage, SALT, Export(), include_listed=True))
    other = list(finished_records(storage, b"another secret salt, 32 bytes..", Export(),
                                  include_listed=True))
    storage.dispose()
    assert first == again and first[0]["players"][0] == again[0]["players"][0]
    assert first[0]["players"][0] != other[0]["players"][0]
    assert first[0]["deck"] == other[0]["deck"]
    with pytest.raises(Exception, match="at least 16 bytes"):
        list(finished_records(Storage(database), b"short", Export()))


def test_the_command_writes_json_lines_and_parquet(database: str, tmp_path: Path) -> None:
    salt_file = tmp_path / "salt"
    salt_file.write_bytes(SALT)
    out = tmp_path / "games.jsonl"
    runner = CliRunner()
    result = runner.invoke(
        app, ["export-games", str(out), "--db", database, "--salt-file", str(salt_file)]
    )
    assert result.exit_code == 0, result.output
    assert "wrote 0 finished games" in result.output
    assert "left out 2 games the site lists publicly" in result.output
    result = runner.invoke(app, ["export-games", str(out), "--db", database,
                                 "--salt-file", str(salt_file), "--listed"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "wrote 2 finished games" in result.output
    lines = out.read_text(encoding="utf-8").splitlines()
    assert [replay(json.loads(line)).is_over for line in lines] == [True, True]
    pq = pytest.importorskip("pyarrow.parquet")
    table_path = tmp_path / "games.parquet"
    result = runner.invoke(app, ["export-games", str(table_path), "--db", database,
                                 "--salt-file", str(salt_file), "--parquet",
                                 "--listed"])  # fmt: skip
    assert result.exit_code == 0, result.output
    table = pq.read_table(table_path).to_pylist()
    assert [json.loads(row["record"]) for row in table] == [json.loads(line) for line in lines]
    assert table[0]["num_players"] == 3


def test_a_missing_or_short_salt_is_refused(database: str, tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "games.jsonl"
    result = runner.invoke(app, ["export-games", str(out), "--db", database],
                           env={"KINGSBREAKFAST_EXPORT_SALT": "short"})  # fmt: skip
    assert result.exit_code == 2
    assert "at least 16 bytes" in result.output
    result = runner.invoke(app, ["export-games", str(out), "--db", database, "--salt-file",
                                 str(tmp_path / "nowhere")])  # fmt: skip
    assert result.exit_code == 2 and "cannot read the salt file" in result.output
    assert not out.exists()
    result = runner.invoke(app, ["export-games", str(out), "--db", database, "--lang", "de"],
                           env={"KINGSBREAKFAST_EXPORT_SALT": ""})  # fmt: skip
    assert result.exit_code == 2 and "Salz" in result.output
