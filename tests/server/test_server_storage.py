"""Storage on SQLite and PostgreSQL alike: schema by migration, tables, seats, actions, group
commits that refuse only the faulty action, and what a restart reads back."""

from __future__ import annotations

from kingsbreakfast.engine import CARD_IDS, State
from kingsbreakfast.server.storage import SeatRecord, Storage, StorageError, normalize_url


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
