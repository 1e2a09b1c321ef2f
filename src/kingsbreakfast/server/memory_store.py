"""A :class:`~.store.GameStore` held in memory: for tests, and to show how little the
master asks of a database. It keeps the SQL store's promises that matter to play: an action
number is stored once per game, the last action archives the game, and ``failing`` makes
every call refuse as a database that went away would.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, datetime

from kingsbreakfast.engine import RulesDict

from .store import (
    ActionItem,
    Fence,
    GameRecord,
    LeaseLost,
    Renewal,
    SeatHolder,
    SeatRecord,
    StorageError,
)


class MemoryStore:
    """Tables, seats and actions in dictionaries, guarded by one lock."""

    def __init__(self) -> None:
        self.games: dict[str, GameRecord] = {}
        self.leases: dict[str, tuple[str | None, int, str | None]] = {}
        """Per table: owner, epoch, who wants it."""
        self.processes: dict[str, tuple[int, float]] = {}
        """Per process: its lease's epoch and expiry (``clock()`` seconds)."""
        self.sockets: dict[str, dict[str, int]] = {}
        """Process → the play sockets per address it published at its last renewal."""
        self.clock = time.monotonic
        self.failing = False
        """While True every call raises :class:`StorageError` (a database outage)."""
        self._lock = threading.Lock()
        self.seat_holders: dict[str, list[SeatHolder]] = {}

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
        rules: RulesDict,
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
                id=game_id, status="lobby", num_seats=num_seats, rules=rules.copy(),
                bot_level=bot_level, clock_seconds=clock_seconds, public=public, first_cook=0,
                deck=None, created_at=datetime.now(UTC), finished_at=None, seats=tuple(seats),
                actions=(),
            )

    def _game(self, game_id: str) -> GameRecord:
        game = self.games.get(game_id)
        if game is None:
            raise StorageError(f"no game {game_id}")
        return game

    def _fence(self, fence: Fence | None, game_id: str) -> None:
        if fence is None:
            return
        owner, epochs = fence
        held = self.leases.get(game_id)
        if held is None or held[0] != owner or held[1] != epochs.get(game_id):
            raise LeaseLost(f"the lease of table {game_id} moved to another process")

    def save_seat(self, game_id: str, seat: SeatRecord, fence: Fence | None = None) -> None:
        with self._lock:
            self._check()
            self._fence(fence, game_id)
            game = self._game(game_id)
            seats = tuple(seat if s.seat == seat.seat else s for s in game.seats)
            self.games[game_id] = replace(game, seats=seats)

    def start_game(
        self,
        game_id: str,
        deck: tuple[str, ...],
        first_cook: int,
        seats: list[SeatRecord],
        fence: Fence | None = None,
        public: bool | None = None,
    ) -> None:
        with self._lock:
            self._check()
            self._fence(fence, game_id)
            game = self._game(game_id)
            self.games[game_id] = replace(
                game, status="playing", deck=deck, first_cook=first_cook, seats=tuple(seats),
                public=game.public if public is None else public,
            )

    def append_actions(
        self, items: list[ActionItem], fence: Fence | None = None
    ) -> list[StorageError | None]:
        results: list[StorageError | None] = []
        with self._lock:
            for game_id, number, seat, action, over in items:
                try:
                    self._check()
                    self._fence(fence, game_id)
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

    # -- leases ---------------------------------------------------------------------------
    def _alive(self, name: str | None, now: float) -> bool:
        held = self.processes.get(name) if name is not None else None
        return held is not None and held[1] >= now

    def register_process(self, owner: str, seconds: float) -> int:
        with self._lock:
            self._check()
            epoch = self.processes.get(owner, (0, 0.0))[0] + 1
            self.processes[owner] = (epoch, self.clock() + seconds)
            return epoch

    def renew_process(
        self, owner: str, epoch: int, seconds: float, sockets: Mapping[str, int] | None = None
    ) -> Renewal | None:
        with self._lock:
            self._check()
            held = self.processes.get(owner)
            if held is None or held[0] != epoch:
                return None
            now = self.clock()
            self.processes[owner] = (epoch, now + seconds)
            self.sockets[owner] = {a: n for a, n in (sockets or {}).items() if n > 0}
            kept: dict[str, int] = {}
            wanted: set[str] = set()
            for game_id, (held_by, table_epoch, who) in self.leases.items():
                if held_by == owner:
                    kept[game_id] = table_epoch
                    if who is not None:
                        wanted.add(game_id)
            others = sorted(n for n in self.processes if n != owner and self._alive(n, now))
            elsewhere: dict[str, int] = {}
            for name in others:
                for address, count in self.sockets.get(name, {}).items():
                    elsewhere[address] = elsewhere.get(address, 0) + count
            return Renewal(kept=kept, wanted=frozenset(wanted), others=tuple(others), now=now,
                           sockets_elsewhere=elsewhere)

    def retire_process(self, owner: str) -> None:
        with self._lock:
            self._check()
            for game_id, (held_by, epoch, wanted) in list(self.leases.items()):
                if held_by == owner:
                    self.leases[game_id] = (None, epoch, wanted)
            self.processes.pop(owner, None)
            self.sockets.pop(owner, None)

    def acquire_lease(self, game_id: str, owner: str, epoch: int) -> int | None:
        with self._lock:
            self._check()
            now = self.clock()
            if self.processes.get(owner, (0, 0.0))[0] != epoch or not self._alive(owner, now):
                return None  # our own lease ran out (or is registered anew)
            held_by, table_epoch, wanted = self.leases.get(game_id, (None, 0, None))
            if held_by == owner:
                return table_epoch
            if wanted not in (None, owner) and self._alive(wanted, now):
                return None  # another process asked first: it has the table's clients
            if held_by is not None and self._alive(held_by, now):
                return None
            self.leases[game_id] = (owner, table_epoch + 1, None)
            return table_epoch + 1

    def want_lease(self, game_id: str, owner: str) -> None:
        with self._lock:
            self._check()
            held = self.leases.get(game_id)
            if held is not None and held[0] not in (None, owner):
                self.leases[game_id] = (held[0], held[1], owner)

    def release_leases(self, owner: str, game_ids: list[str]) -> None:
        with self._lock:
            self._check()
            for game_id in game_ids:
                held = self.leases.get(game_id)
                if held is not None and held[0] == owner:
                    # kept for the process that asked, while it lives; free for all else
                    self.leases[game_id] = (None, held[1], held[2])

    def orphans(self, limit: int) -> list[str]:
        with self._lock:
            self._check()
            now = self.clock()
            found = []
            for game in self.games.values():
                held = self.leases.get(game.id)
                if game.status == "playing" and (
                    held is None
                    or (held[0] is not None and not self._alive(held[0], now))
                    or (held[0] is None and (held[2] is None or not self._alive(held[2], now)))
                ):
                    found.append(game.id)
            return found[:limit]

    def discard_lobby(self, game_id: str) -> bool:
        with self._lock:
            self._check()
            game = self.games.get(game_id)
            if game is None or game.status != "lobby":
                return False
            del self.games[game_id]
            self.leases.pop(game_id, None)
            return True

    def ping(self) -> None:
        with self._lock:
            self._check()

    def add_holders(
        self, game_id: str, holders: list[SeatHolder], fence: Fence | None = None
    ) -> None:
        with self._lock:
            self._check()
            self._fence(fence, game_id)
            self._game(game_id)
            self.seat_holders.setdefault(game_id, []).extend(holders)

    def holders(self, game_id: str) -> list[SeatHolder]:
        with self._lock:
            self._check()
            # a stable sort: each seat's holders stay in the order they came
            return sorted(self.seat_holders.get(game_id, []), key=lambda h: h.seat)
