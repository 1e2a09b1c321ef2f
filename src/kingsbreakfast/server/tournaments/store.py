"""The tournament rows, read and changed one transaction at a time (called off the event
loop through the journal, like every store call).

Every change that could race with another process is one conditional statement: a claim
to direct (:meth:`TournamentStore.claim`), the start, a round's pairing (only on top of the
round before) and each game's step from ``made`` to ``dealt`` to ``over``. So two
processes that both believe they direct a tournament can never pair one round twice nor
count one game twice.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import CursorResult, Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session
from sqlalchemy.sql import Executable

from ..account_models import AccountRow
from ..models import GameRow
from ..store import StorageError
from .models import EntrantRow, TournamentGameRow, TournamentRow

OPEN, RUNNING, OVER = "open", "running", "over"
MADE, DEALT = "made", "dealt"
MAX_MADE = 3
"""Tournaments one account may have made that are not over yet: each one's bots play on
the site's processors, so an account making them by the thousand would starve the tables
of everyone (an operator makes more with ``kingsbreakfast tournament-admin``)."""


class EntryRefused(Exception):
    """An entry or a withdrawal the tournament does not allow now; ``code`` says why."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True, slots=True)
class Tournament:
    id: str
    name: str
    kind: str
    seats: int
    clock_seconds: int | None
    rated: bool
    bot_level: str
    rounds: int
    starts_at: float
    ends_at: float | None
    status: str
    round: int
    created_by: int | None
    version: int


@dataclass(frozen=True, slots=True)
class Entrant:
    number: int
    name: str
    account_id: int | None
    bot: bool
    withdrawn: bool


@dataclass(frozen=True, slots=True)
class Game:
    table_id: str
    round: int
    number: int
    seating: tuple[int | None, ...]
    state: str
    results: tuple[tuple[int, int], ...] | None
    created_at: float
    finished_at: float | None


@dataclass(frozen=True, slots=True)
class Setup:
    """What a tournament is made with (its creator's choices)."""

    id: str
    name: str
    kind: str
    seats: int
    clock_seconds: int | None
    rated: bool
    bot_level: str
    rounds: int
    starts_at: float
    ends_at: float | None
    created_by: int | None
    bots: tuple[str, ...] = ()
    """Names of the bots entered from the start."""


def _tournament(row: TournamentRow) -> Tournament:
    return Tournament(row.id, row.name, row.kind, row.seats, row.clock_seconds, row.rated,
                      row.bot_level, row.rounds, row.starts_at, row.ends_at, row.status,
                      row.round, row.created_by, row.version)


def _game(row: TournamentGameRow) -> Game:
    results = None if row.results is None else tuple(
        (int(p), int(d)) for p, d in json.loads(row.results))
    return Game(row.table_id, row.round, row.number, tuple(json.loads(row.seating)),
                row.state, results, row.created_at, row.finished_at)


class TournamentStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- reading ------------------------------------------------------------------------
    def get(self, tournament_id: str) -> Tournament | None:
        with Session(self.engine) as connection:
            row = connection.execute(select(TournamentRow).where(
                TournamentRow.id == tournament_id)).first()
            return None if row is None else _tournament(row[0])

    def listing(self, limit: int = 100) -> list[tuple[Tournament, int]]:
        """The newest tournaments, each with its number of entrants."""
        counts = (select(EntrantRow.tournament_id, func.count().label("n"))
                  .group_by(EntrantRow.tournament_id).subquery())
        with Session(self.engine) as connection:
            rows = connection.execute(
                select(TournamentRow, func.coalesce(counts.c.n, 0))
                .outerjoin(counts, counts.c.tournament_id == TournamentRow.id)
                .order_by(TournamentRow.starts_at.desc()).limit(limit)).all()
            return [(_tournament(row[0]), int(row[1])) for row in rows]

    def entrants(self, tournament_id: str) -> list[Entrant]:
        with Session(self.engine) as connection:
            rows = connection.scalars(select(EntrantRow).where(
                EntrantRow.tournament_id == tournament_id).order_by(EntrantRow.number)).all()
            return [Entrant(r.number, r.name, r.account_id, r.bot, r.withdrawn) for r in rows]

    def games(self, tournament_id: str) -> list[Game]:
        with Session(self.engine) as connection:
            rows = connection.scalars(select(TournamentGameRow).where(
                TournamentGameRow.tournament_id == tournament_id)
                .order_by(TournamentGameRow.round, TournamentGameRow.number)).all()
            return [_game(r) for r in rows]

    def due(self, now: float) -> list[str]:
        """Tournaments with work to do: running, or open and due to start."""
        with Session(self.engine) as connection:
            return list(connection.scalars(select(TournamentRow.id).where(
                (TournamentRow.status == RUNNING)
                | ((TournamentRow.status == OPEN) & (TournamentRow.starts_at <= now)))))

    def table_statuses(self, table_ids: Sequence[str]) -> dict[str, str]:
        """The stored status of ordinary tables (``lobby``, ``playing``, ``over``)."""
        if not table_ids:
            return {}
        with Session(self.engine) as connection:
            return {i: s for i, s in connection.execute(select(GameRow.id, GameRow.status)
                    .where(GameRow.id.in_(list(table_ids)))).all()}

    # -- making, entering ---------------------------------------------------------------
    def create(self, setup: Setup, now: float) -> Tournament:
        """Store a new tournament; an account past :data:`MAX_MADE` tournaments not over
        is refused (``too_many_made``), the operator (no ``created_by``) never."""
        with Session(self.engine) as connection, connection.begin():
            if setup.created_by is not None:  # one maker's makes one at a time, site-wide
                connection.execute(select(AccountRow.id).where(
                    AccountRow.id == setup.created_by).with_for_update())
            if setup.created_by is not None and connection.execute(
                    select(func.count()).select_from(TournamentRow).where(
                        TournamentRow.created_by == setup.created_by,
                        TournamentRow.status != OVER)).scalar_one() >= MAX_MADE:
                raise EntryRefused("too_many_made")
            connection.execute(insert(TournamentRow).values(
                id=setup.id, name=setup.name, kind=setup.kind, seats=setup.seats,
                clock_seconds=setup.clock_seconds, rated=setup.rated,
                bot_level=setup.bot_level, rounds=setup.rounds, starts_at=setup.starts_at,
                ends_at=setup.ends_at, status=OPEN, round=0, created_by=setup.created_by,
                created_at=now, director=None, director_until=0.0, version=0))
            for number, name in enumerate(setup.bots):
                connection.execute(insert(EntrantRow).values(
                    tournament_id=setup.id, number=number, name=name, account_id=None,
                    bot=True, joined_at=now, withdrawn=False))
        made = self.get(setup.id)
        assert made is not None
        return made

    def enter(self, tournament_id: str, name: str, account_id: int | None, bot: bool,
              now: float) -> Entrant:
        """Enter an account (or a bot) while entries are taken: before a Swiss starts, any
        time before an arena ends. An arena entrant who withdrew comes back."""
        try:
            with Session(self.engine) as connection, connection.begin():
                row = connection.execute(select(TournamentRow).where(
                    TournamentRow.id == tournament_id).with_for_update()).first()
                if row is None:
                    raise EntryRefused("no_tournament")
                t = row[0]
                if not _takes_entries(t.kind, t.status, t.starts_at, t.ends_at, now):
                    raise EntryRefused("entries_closed")
                mine = connection.execute(select(EntrantRow).where(
                    EntrantRow.tournament_id == tournament_id,
                    (EntrantRow.account_id == account_id) if account_id is not None
                    else (EntrantRow.name == name) & EntrantRow.bot)).first()
                if mine is not None:
                    entrant = mine[0]
                    if not entrant.withdrawn:
                        raise EntryRefused("already_entered")
                    connection.execute(update(EntrantRow).where(
                        EntrantRow.tournament_id == tournament_id,
                        EntrantRow.number == entrant.number).values(withdrawn=False))
                    _bump(connection, tournament_id)
                    return Entrant(entrant.number, entrant.name, account_id, bot, False)
                if account_id is not None and connection.execute(
                        select(EntrantRow.tournament_id)
                        .join(TournamentRow, TournamentRow.id == EntrantRow.tournament_id)
                        .where(EntrantRow.account_id == account_id,
                               EntrantRow.tournament_id != tournament_id,
                               EntrantRow.withdrawn.is_(False),
                               TournamentRow.status != OVER)).first() is not None:
                    # one tournament at a time: nobody is seated at two tables at once
                    raise EntryRefused("in_another")
                number = connection.execute(select(func.coalesce(func.max(
                    EntrantRow.number), -1) + 1).where(
                    EntrantRow.tournament_id == tournament_id)).scalar_one()
                connection.execute(insert(EntrantRow).values(
                    tournament_id=tournament_id, number=number, name=name,
                    account_id=account_id, bot=bot, joined_at=now, withdrawn=False))
                _bump(connection, tournament_id)
                return Entrant(int(number), name, account_id, bot, False)
        except IntegrityError as error:  # two entries at once took one number: try again
            raise EntryRefused("busy") from error
        except SQLAlchemyError as error:
            raise StorageError(f"the entry was not kept: {type(error).__name__}") from error

    def withdraw(self, tournament_id: str, account_id: int, now: float) -> None:
        """Leave: before the start the entry is gone; in a running arena the entrant is
        seated at no new table (their games count)."""
        with Session(self.engine) as connection, connection.begin():
            row = connection.execute(select(TournamentRow).where(
                TournamentRow.id == tournament_id).with_for_update()).first()
            if row is None:
                raise EntryRefused("no_tournament")
            t = row[0]
            if not _takes_entries(t.kind, t.status, t.starts_at, t.ends_at, now):
                raise EntryRefused("entries_closed")
            where = (EntrantRow.tournament_id == tournament_id,
                     EntrantRow.account_id == account_id)
            if t.status == OPEN:
                gone = _count(connection, delete(EntrantRow).where(*where))
            else:
                gone = _count(connection, update(EntrantRow).where(*where)
                              .values(withdrawn=True))
            if not gone:
                raise EntryRefused("not_entered")
            _bump(connection, tournament_id)

    # -- directing ----------------------------------------------------------------------
    def claim(self, tournament_id: str, owner: str, now: float, seconds: float) -> bool:
        """Direct the tournament until ``now + seconds``: kept by its director, taken
        when nobody directs it or the last director's claim ran out (it died)."""
        with Session(self.engine) as connection, connection.begin():
            return bool(_count(connection, update(TournamentRow).where(
                TournamentRow.id == tournament_id,
                (TournamentRow.director.is_(None)) | (TournamentRow.director == owner)
                | (TournamentRow.director_until < now),
            ).values(director=owner, director_until=now + seconds)))

    def let_go(self, owner: str) -> None:
        """Every claim of a process that stops, so another takes over at once."""
        with Session(self.engine) as connection, connection.begin():
            connection.execute(update(TournamentRow).where(TournamentRow.director == owner)
                               .values(director=None, director_until=0.0))

    def start_now(self, tournament_id: str, account_id: int | None, now: float) -> bool:
        """Its maker (None: the operator) starts an open tournament at once."""
        with Session(self.engine) as connection, connection.begin():
            where = [TournamentRow.id == tournament_id, TournamentRow.status == OPEN]
            if account_id is not None:
                where.append(TournamentRow.created_by == account_id)
            moved = _count(connection, update(TournamentRow).where(*where).values(
                starts_at=now, ends_at=TournamentRow.ends_at - TournamentRow.starts_at + now))
            _bump(connection, tournament_id)
            return bool(moved)

    def start(self, tournament_id: str, status: str = RUNNING) -> bool:
        with Session(self.engine) as connection, connection.begin():
            changed = _count(connection, update(TournamentRow).where(
                TournamentRow.id == tournament_id, TournamentRow.status == OPEN)
                .values(status=status))
            _bump(connection, tournament_id)
            return bool(changed)

    def add_games(self, tournament_id: str, owner: str, round_number: int,
                  tables: Sequence[tuple[str, Sequence[int | None]]], now: float) -> bool:
        """Store the tables of a new round (Swiss: only on top of the round before, once)
        or of an arena (round 0: only entrants at no unfinished table); False when
        ``owner`` no longer directs the tournament or another director was first."""
        with Session(self.engine) as connection, connection.begin():
            row = connection.execute(select(TournamentRow).where(
                TournamentRow.id == tournament_id).with_for_update()).first()
            if row is None or row[0].director != owner:
                return False
            if round_number > 0:
                if row[0].round != round_number - 1:
                    return False
                row[0].round = round_number
            else:
                busy = {e for seating in connection.scalars(
                    select(TournamentGameRow.seating).where(
                        TournamentGameRow.tournament_id == tournament_id,
                        TournamentGameRow.state != OVER))
                    for e in json.loads(seating) if e is not None}
                if any(e in busy for _, seating in tables for e in seating if e is not None):
                    return False
            first = connection.execute(select(func.coalesce(func.max(
                TournamentGameRow.number), -1) + 1).where(
                TournamentGameRow.tournament_id == tournament_id)).scalar_one()
            for offset, (table_id, seating) in enumerate(tables):
                connection.execute(insert(TournamentGameRow).values(
                    table_id=table_id, tournament_id=tournament_id, round=round_number,
                    number=int(first) + offset, seating=json.dumps(list(seating)),
                    state=MADE, results=None, created_at=now, finished_at=None))
            connection.flush()
            _bump(connection, tournament_id)
            return True

    def game_dealt(self, tournament_id: str, table_id: str) -> None:
        with Session(self.engine) as connection, connection.begin():
            connection.execute(update(TournamentGameRow).where(
                TournamentGameRow.table_id == table_id, TournamentGameRow.state == MADE)
                .values(state=DEALT))
            _bump(connection, tournament_id)

    def game_over(self, tournament_id: str, table_id: str,
                  results: Sequence[tuple[int, int]], now: float) -> None:
        with Session(self.engine) as connection, connection.begin():
            connection.execute(update(TournamentGameRow).where(
                TournamentGameRow.table_id == table_id, TournamentGameRow.state != OVER)
                .values(state=OVER, results=json.dumps([list(r) for r in results]),
                        finished_at=now))
            _bump(connection, tournament_id)

    def finish(self, tournament_id: str) -> None:
        with Session(self.engine) as connection, connection.begin():
            connection.execute(update(TournamentRow).where(TournamentRow.id == tournament_id)
                               .values(status=OVER, director=None, director_until=0.0))
            _bump(connection, tournament_id)


def _takes_entries(kind: str, status: str, starts_at: float, ends_at: float | None,
                   now: float) -> bool:
    """A Swiss until its start time (the director may not have started it yet), an arena
    until its end."""
    if status == OPEN:
        return kind == "arena" or now < starts_at
    return kind == "arena" and status == RUNNING and (ends_at is None or now < ends_at)


def _count(connection: Session, statement: Executable) -> int:
    """How many rows a conditional change changed (0: another process was first)."""
    return int(cast("CursorResult[Any]", connection.execute(statement)).rowcount)


def _bump(connection: Session, tournament_id: str) -> None:
    connection.execute(update(TournamentRow).where(TournamentRow.id == tournament_id)
                       .values(version=TournamentRow.version + 1))
