"""The TV: which game in play a viewer is shown, and the running games in the order a viewer
wants them (``GET /api/tv``, the web app's TV page).

Everything is read from the store (the games' and seats' rows, the accounts' ratings), never
from one process's memory, so every process of a cluster gives the same answer.

*Which games*: public tables in play. A table its host made private stays off the TV; a
play-now table is listed from its deal on (:func:`~.waiting.deal_present`).

*A table's rating*: the mean of the conservative ratings (μ − 3σ, as the leaderboard's) of
the accounts seated at it. Bots and guests have no rating: they count neither for nor against
a table, and a table with no account seated has no rating and comes after every rated one.

*The list*: tournament tables first (a table linked to a tournament's round), then the highest
rating first; equal ratings: more accounts seated first, then the table dealt longest ago
(its creation), then the table id, so that every process breaks a tie alike.

*The featured game*: the first of the same order without the tournament rule, among the live
tables (a turn clock under an hour: a turn-based game moves once a day and makes no
television); when no live game runs, among all.

Only names, seats and ratings leave here: never a card, never the deck (the featured game
itself is watched over the play socket as a spectator, whose view hides every drawn card).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker
from typing_extensions import TypedDict

from .account_models import AccountRow, SeatAccountRow
from .database import unit_of_work
from .lobby import HOUR
from .models import GameRow, SeatRow
from .rating_rules import ordinal
from .store import GameRecord, SeatRecord
from .tables import HUMAN, PLAYING
from .tournaments.models import TournamentGameRow

TV_TABLES: Final = 100
"""Running games in one answer: more than a viewer reads, few enough to send each time."""


class TvSeat(TypedDict):
    """One seat as the TV shows it: a person by name and rating (None: a guest), a bot by
    its level (the page names it in the reader's language)."""

    kind: str
    name: str
    level: str
    rating: float | None


class TvTable(TypedDict):
    id: str
    num_seats: int
    clock_seconds: int | None
    tournament: bool
    rating: float | None
    """The mean of the seated accounts' ratings; None: no account is seated."""
    accounts: int
    seats: list[TvSeat]


class TvAnswer(TypedDict):
    featured: TvTable | None
    tables: list[TvTable]


class TvStore:
    """What the TV reads from the database (synchronous, one transaction a call: call it
    through the journal, on the store's worker thread)."""

    def __init__(self, engine: Engine) -> None:
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def _session(self) -> AbstractContextManager[Session]:
        return unit_of_work(self._sessions)

    def running(self) -> list[GameRecord]:
        """The public tables in play with their seats, and nothing of their cards: neither
        the deck nor the actions are read (the lobby's full load would replay each game)."""
        with self._session() as session:
            games = session.scalars(
                select(GameRow).where(GameRow.status == PLAYING, GameRow.public.is_(True))
            ).all()
            ids = [game.id for game in games]
            seats: dict[str, list[SeatRecord]] = {game_id: [] for game_id in ids}
            if ids:
                for row in session.scalars(
                    select(SeatRow).where(SeatRow.game_id.in_(ids)).order_by(SeatRow.seat)
                ):
                    seats[row.game_id].append(SeatRecord(row.seat, row.kind, row.name, None))
            return [
                GameRecord(
                    id=game.id, status=game.status, num_seats=game.num_seats,
                    rules=json.loads(game.rules), bot_level=game.bot_level,
                    clock_seconds=game.clock_seconds, public=game.public, first_cook=0,
                    deck=None, created_at=game.created_at, finished_at=None,
                    seats=tuple(seats[game.id]), actions=(),
                )
                for game in games
            ]

    def in_tournaments(self, game_ids: list[str]) -> frozenset[str]:
        """The tables among ``game_ids`` that play a tournament's round (listed first)."""
        if not game_ids:
            return frozenset()
        with self._session() as session:
            return frozenset(session.scalars(
                select(TournamentGameRow.table_id)
                .where(TournamentGameRow.table_id.in_(sorted(game_ids)))
            ))

    def ratings(self, game_ids: list[str]) -> dict[tuple[str, int], float]:
        """(game, seat) → the conservative rating of the account holding that seat."""
        if not game_ids:
            return {}
        with self._session() as session:
            rows = session.execute(
                select(SeatAccountRow.game_id, SeatAccountRow.seat, AccountRow.mu,
                       AccountRow.sigma)
                .join(AccountRow, AccountRow.id == SeatAccountRow.account_id)
                .where(SeatAccountRow.game_id.in_(sorted(game_ids)))
            ).all()
        return {(game, seat): ordinal(mu, sigma) for game, seat, mu, sigma in rows}


@dataclass(frozen=True, slots=True)
class _Running:
    """A table in play with what orders it."""

    shown: TvTable
    exact: float | None
    created: datetime
    live: bool

    def by_rating(self) -> tuple[bool, float, int, datetime, str]:
        return (self.exact is None, -(self.exact or 0.0), -self.shown["accounts"],
                self.created, self.shown["id"])

    def listed(self) -> tuple[bool, tuple[bool, float, int, datetime, str]]:
        return (not self.shown["tournament"], self.by_rating())


def _naive(moment: datetime) -> datetime:
    """One kind of time to compare (SQLite gives naive UTC, PostgreSQL an aware time)."""
    return moment.replace(tzinfo=None) if moment.tzinfo is not None else moment


def _running(record: GameRecord, ratings: dict[tuple[str, int], float],
             tournament: Collection[str]) -> _Running:
    seats: list[TvSeat] = []
    rated: list[float] = []
    for seat in record.seats:
        person = seat.kind == HUMAN
        rating = ratings.get((record.id, seat.seat)) if person else None
        if rating is not None:
            rated.append(rating)
        seats.append({
            "kind": seat.kind, "name": seat.name if person else "", "level": record.bot_level,
            "rating": None if rating is None else round(rating, 2),
        })
    exact = sum(rated) / len(rated) if rated else None
    shown: TvTable = {
        "id": record.id, "num_seats": record.num_seats, "clock_seconds": record.clock_seconds,
        "tournament": record.id in tournament, "rating": None if exact is None else round(exact, 2),
        "accounts": len(rated), "seats": seats,
    }
    clock = record.clock_seconds
    return _Running(shown, exact, _naive(record.created_at), clock is None or clock < HOUR)


def running(records: Iterable[GameRecord]) -> list[GameRecord]:
    """The tables the TV may show: public ones in play."""
    return [r for r in records if r.public and r.status == PLAYING]


def tv_answer(
    records: list[GameRecord], ratings: dict[tuple[str, int], float],
    tournament: Collection[str] = frozenset(), limit: int = TV_TABLES,
) -> TvAnswer:
    """The featured game and the ordered list (see the module's docstring for the order);
    ``tournament``: the ids of the tables that play a tournament's round."""
    tables = [_running(r, ratings, tournament) for r in running(records)]
    live = [t for t in tables if t.live] or tables
    featured = min(live, key=_Running.by_rating) if live else None
    return {
        "featured": featured.shown if featured is not None else None,
        "tables": [t.shown for t in sorted(tables, key=_Running.listed)[:limit]],
    }
