"""What the ratings read and write beside the accounts' own rows: the leaderboard, repeated
pairings, leaves and how early they came, where accounts sat down from, and the accounts
flagged for boosting (:mod:`.ratings`, :mod:`.boosting`).

Synchronous like :mod:`.account_store` (the same engine, the store's worker thread): every
call is one transaction.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import datetime

from sqlalchemy import case, exists, func, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, aliased, sessionmaker

from .account_models import (
    AccountRow,
    BoostingFlagRow,
    GameResultRow,
    LeaverRow,
    SeatAddressRow,
)
from .account_records import Account
from .account_store import account_of
from .database import unit_of_work

Meeting = tuple[str, int, str]
"""(game, another account at it, that account's address digest or ``""``)."""


class RatingStore:
    def __init__(self, engine: Engine) -> None:
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def _session(self) -> AbstractContextManager[Session]:
        return unit_of_work(self._sessions)

    # -- the table ------------------------------------------------------------------------
    def add_seat_address(self, game_id: str, account_id: int, address: str) -> None:
        """Where an account sat down at a table from (the first time counts)."""
        with self._session() as session:
            if session.get(SeatAddressRow, (game_id, account_id)) is None:
                session.add(SeatAddressRow(game_id=game_id, account_id=account_id,
                                           address=address))

    def leaves(self, game_id: str) -> dict[int, tuple[int, int]]:
        """Account → (seat, the game's version when it left) of the accounts that left."""
        with self._session() as session:
            rows = session.scalars(select(LeaverRow).where(LeaverRow.game_id == game_id))
            return {row.account_id: (row.seat, row.version) for row in rows}

    def addresses(self, game_id: str) -> dict[int, str]:
        with self._session() as session:
            rows = session.scalars(
                select(SeatAddressRow).where(SeatAddressRow.game_id == game_id)
            )
            return {row.account_id: row.address for row in rows}

    # -- patterns -------------------------------------------------------------------------
    def rated_together(self, account_ids: list[int], since: datetime) -> int:
        """Rated games since ``since`` whose accounts were exactly these."""
        if not account_ids:
            return 0
        mine = select(GameResultRow.game_id).where(
            GameResultRow.account_id == account_ids[0], GameResultRow.finished_at >= since,
            GameResultRow.rated,
        )
        among = case((GameResultRow.account_id.in_(account_ids), 1), else_=0)
        with self._session() as session:
            games = session.execute(
                select(GameResultRow.game_id)
                .where(GameResultRow.game_id.in_(mine), GameResultRow.rated)
                .group_by(GameResultRow.game_id)
                .having(func.count() == len(account_ids), func.sum(among) == len(account_ids))
            ).all()
            return len(games)

    def meetings(self, account_id: int, since: datetime, early: bool) -> list[Meeting]:
        """The other accounts of an account's games since ``since`` (rated or not), with
        the address each sat down from; ``early``: only those that left early."""
        me = aliased(GameResultRow)
        other = aliased(GameResultRow)
        query = (
            select(other.game_id, other.account_id, func.coalesce(SeatAddressRow.address, ""))
            .select_from(me)
            .join(other, (other.game_id == me.game_id) & (other.account_id != me.account_id))
            .outerjoin(SeatAddressRow, (SeatAddressRow.game_id == other.game_id)
                       & (SeatAddressRow.account_id == other.account_id))
            .where(me.account_id == account_id, me.finished_at >= since)
        )
        if early:
            query = query.where(other.left_early)
        with self._session() as session:
            return [(g, a, d) for g, a, d in session.execute(query).all()]

    # -- flags ----------------------------------------------------------------------------
    def flagged(self, account_ids: list[int]) -> set[int]:
        with self._session() as session:
            rows = session.scalars(
                select(BoostingFlagRow.account_id)
                .where(BoostingFlagRow.account_id.in_(account_ids))
            ).all()
            return set(rows)

    def flag(
        self, account_ids: set[int], reason: str, game_id: str, games: set[str], at: datetime
    ) -> None:
        """Flag accounts for review (a flag already there stays as it was) and unrate the
        games that showed the pattern."""
        with self._session() as session:
            for account_id in sorted(account_ids):
                if session.get(BoostingFlagRow, account_id) is None:
                    session.add(BoostingFlagRow(account_id=account_id, reason=reason,
                                                game_id=game_id, flagged_at=at))
            if games:
                session.execute(
                    update(GameResultRow)
                    .where(GameResultRow.game_id.in_(sorted(games)), GameResultRow.rated)
                    .values(rated=False, unrated="boosting")
                )

    # -- the leaderboard ------------------------------------------------------------------
    def leaderboard(
        self, offset: int, limit: int, games: int, opponents: int, sigma: float
    ) -> tuple[int, list[Account]]:
        """Established accounts (at least ``games`` rated games against ``opponents``
        different established accounts, a deviation of at most ``sigma``) not flagged for
        boosting, best conservative rating (mu − 3σ) first."""
        flagged = exists().where(BoostingFlagRow.account_id == AccountRow.id)
        established = (
            (AccountRow.rated_games >= games) & (AccountRow.opponents >= opponents)
            & (AccountRow.sigma <= sigma) & ~flagged
        )
        with self._session() as session:
            total = session.scalar(
                select(func.count()).select_from(AccountRow).where(established)
            )
            rows = session.scalars(
                select(AccountRow)
                .where(established)
                .order_by((AccountRow.mu - 3 * AccountRow.sigma).desc(), AccountRow.id)
                .offset(offset)
                .limit(limit)
            ).all()
            return int(total or 0), [account_of(row) for row in rows]
