"""A :class:`~.store.GameStore` held in memory: for tests, and to show how little the
master asks of a database. It keeps the SQL store's promises that matter to play: an action
number is stored once per game, the last action archives the game, and ``failing`` makes
every call refuse as a database that went away would.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from .store import ActionItem, GameRecord, SeatRecord, StorageError


class MemoryStore:
    """Tables, seats and actions in dictionaries, guarded by one lock."""

    def __init__(self) -> None:
        self.games: dict[str, GameRecord] = {}
        self.failing = False
        """While True every call raises :class:`StorageError` (a database outage)."""
        self._lock = threading.Lock()

    def _check(self) -> None:
        if self.failing:
            raise StorageError("the in-memory store is switched off")

    def migrate(self) -> None:
        self._check()

    def dispose(self) -> None:
        pass

    def create_game(
        self,
        game_id: str,
        *,
        num_seats: int,
        rules: dict[str, Any],
        bot_level: str,
        clock_seconds: int | None,
        public: bool,
        seats: list[SeatRecord],
    ) -> None:
        with self._lock:
            self._check()
            if game_id in self.games:
                raise StorageError(f"game {game_id} exists")
            self.games[game_id] = GameRecord(
                id=game_id, status="lobby", num_seats=num_seats, rules=dict(rules),
                bot_level=bot_level, clock_seconds=clock_seconds, public=public, first_cook=0,
                deck=None, created_at=datetime.now(UTC), finished_at=None, seats=tuple(seats),
                actions=(),
            )

    def _game(self, game_id: str) -> GameRecord:
        game = self.games.get(game_id)
        if game is None:
            raise StorageError(f"no game {game_id}")
        return game

    def save_seat(self, game_id: str, seat: SeatRecord) -> None:
        with self._lock:
            self._check()
            game = self._game(game_id)
            seats = tuple(seat if s.seat == seat.seat else s for s in game.seats)
            self.games[game_id] = replace(game, seats=seats)

    def start_game(
        self, game_id: str, deck: tuple[str, ...], first_cook: int, seats: list[SeatRecord]
    ) -> None:
        with self._lock:
            self._check()
            game = self._game(game_id)
            self.games[game_id] = replace(
                game, status="playing", deck=deck, first_cook=first_cook, seats=tuple(seats)
            )

    def append_actions(self, items: list[ActionItem]) -> list[StorageError | None]:
        results: list[StorageError | None] = []
        with self._lock:
            for game_id, number, seat, action, over in items:
                try:
                    self._check()
                    game = self._game(game_id)
                    if number != len(game.actions):  # the (game, number) key
                        raise StorageError(f"action {number} of {game_id} is not the next one")
                    self.games[game_id] = replace(
                        game,
                        actions=(*game.actions, (seat, action)),
                        status="over" if over else game.status,
                        finished_at=datetime.now(UTC) if over else game.finished_at,
                    )
                    results.append(None)
                except StorageError as error:
                    results.append(error)
        return results

    def load(self, game_id: str) -> GameRecord | None:
        with self._lock:
            self._check()
            return self.games.get(game_id)

    def load_unfinished(self) -> list[GameRecord]:
        with self._lock:
            self._check()
            return [g for g in self.games.values() if g.status in ("lobby", "playing")]

    def list_archive(self, limit: int = 50) -> list[GameRecord]:
        with self._lock:
            self._check()
            over = [g for g in self.games.values() if g.status == "over"]
            over.sort(key=lambda g: g.finished_at or g.created_at, reverse=True)
            return over[:limit]
