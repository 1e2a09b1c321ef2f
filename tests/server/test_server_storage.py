"""Storage on SQLite and PostgreSQL alike: schema by migration, tables, seats, actions, group
commits that refuse only the faulty action, and what a restart reads back."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError, OperationalError

from kingsbreakfast.engine import CARD_IDS, State
from kingsbreakfast.server.storage import (
    DatabaseWaits,
    SeatRecord,
    Storage,
    StorageError,
    normalize_url,
)
from server.conftest import POSTGRES_URL
from server.kb_schema import fresh_schema


def test_normalize_url_routes_postgresql_to_psycopg() -> None:
    assert normalize_url("postgresql://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert normalize_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("sqlite:///x.db") == "sqlite:///x.db"


def test_a_game_round_trips_through_the_database(db_url: str) -> None:
    storage = Storage(db_url)
    storage.migrate()
    storage.migrate()  # idempotent
    seats = [SeatRecord(0, "human", "Ann", "d" * 64), SeatRecord(1, "open", "", None),
             SeatRecord(2, "open", "", None)]
    storage.create_game("g1", num_seats=3, rules={"empty_table": "must_draw"},
                        bot_level="easy", clock_seconds=30, public=False, seats=seats)
    storage.save_seat("g1", SeatRecord(1, "human", "Bob", "e" * 64))
    deck = tuple(CARD_IDS[c] for c in State.new(3, 5).initial_deck)
    storage.start_game("g1", deck, 2, [*seats[:1], SeatRecord(1, "human", "Bob", "e" * 64),
                                       SeatRecord(2, "bot", "", None)])
    storage.append_action("g1", 0, 2, 7, game_over=False)
    results = storage.append_actions([
        ("g1", 1, 0, 3, False),
        ("g1", 1, 0, 4, False),  # the same number again: refused alone
        ("g1", 2, 1, 7, False),
    ])
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], StorageError)
    try:
        storage.append_action("g1", 0, 2, 7, game_over=False)
    except StorageError as error:
        assert "refused" in str(error)
    else:
        raise AssertionError("a second action 0 was accepted")

    [game] = storage.load_unfinished()
    assert game.id == "g1" and game.status == "playing" and game.first_cook == 2
    assert game.deck == deck and game.clock_seconds == 30 and not game.public
    assert game.rules == {"empty_table": "must_draw"}
    assert [s.kind for s in game.seats] == ["human", "human", "bot"]
    assert game.seats[1].name == "Bob" and game.seats[1].token_hash == "e" * 64
    assert game.actions == ((2, 7), (0, 3), (1, 7))

    storage.append_action("g1", 3, 2, 0, game_over=True)
    assert storage.load_unfinished() == []
    loaded = storage.load("g1")
    assert loaded is not None and loaded.status == "over" and loaded.finished_at is not None
    assert storage.list_archive() and storage.list_archive()[0].id == "g1"
    assert storage.load("nope") is None
    storage.dispose()


WAITS = ("lock_timeout", "statement_timeout", "idle_in_transaction_session_timeout")


@pytest.mark.skipif(not POSTGRES_URL, reason="needs KINGSBREAKFAST_TEST_POSTGRES_URL (CI)")
def test_every_postgresql_session_has_bounded_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    assert POSTGRES_URL is not None
    fresh_schema(POSTGRES_URL)
    default = Storage(POSTGRES_URL)
    monkeypatch.setenv("KINGSBREAKFAST_DB_LOCK_TIMEOUT", "0.25")
    monkeypatch.setenv("KINGSBREAKFAST_DB_IDLE_TIMEOUT", "0.5")
    told = Storage(POSTGRES_URL)
    try:
        with default.engine.connect() as connection:
            shown = [connection.execute(text(f"SHOW {name}")).scalar() for name in WAITS]
        assert shown == ["3s", "30s", "5s"]
        # a row held by another session: refused after the lock timeout, not waited on
        with told.engine.connect() as holder:
            holder.execute(text("BEGIN"))
            holder.execute(text("LOCK TABLE site_keys IN ACCESS EXCLUSIVE MODE"))
            with told.engine.connect() as waiter, pytest.raises(
                OperationalError, match="lock timeout"
            ):
                waiter.execute(text("SELECT * FROM site_keys"))
            holder.execute(text("ROLLBACK"))
        # a session idle inside its transaction is ended by the server: another session
        # watches it leave pg_stat_activity (asking on the idle one would reset its clock)
        with told.engine.connect() as idle:
            idle.execute(text("BEGIN"))
            pid = idle.execute(text("SELECT pg_backend_pid()")).scalar()
            with default.engine.connect() as watcher:
                gone = "SELECT count(*) = 0 FROM pg_stat_activity WHERE pid = :pid"
                deadline = time.monotonic() + 60
                while not watcher.execute(text(gone), {"pid": pid}).scalar():
                    assert time.monotonic() < deadline, "the idle session was never ended"
                    watcher.rollback()  # a fresh snapshot of pg_stat_activity each time
            with pytest.raises(DBAPIError, match=r"idle-in-transaction timeout"):
                idle.execute(text("SELECT 1"))
    finally:
        default.dispose()
        told.dispose()


def test_the_waits_are_written_in_milliseconds() -> None:
    assert DatabaseWaits(0.25, 0, 5).options() == (
        "-c lock_timeout=250 -c statement_timeout=0 -c idle_in_transaction_session_timeout=5000"
    )
