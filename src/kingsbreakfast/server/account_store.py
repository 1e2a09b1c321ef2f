"""Accounts and what players keep between games, in the same SQL database as the games.

Synchronous and short like :mod:`.storage`: the server runs these calls in the store's one
worker thread. Every call is one transaction; a database fault becomes a
:class:`~.store.StorageError` (retryable), never a half-written change.
"""

from __future__ import annotations

import secrets
import time
from contextlib import AbstractContextManager
from datetime import UTC, datetime

from sqlalchemy import (
    ScalarSelect,
    bindparam,
    case,
    delete,
    distinct,
    func,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session, aliased, sessionmaker

from .account_models import (
    AccountRow,
    AuthSessionRow,
    ChatRow,
    GameResultRow,
    LeaverRow,
    LoginFailureRow,
    RematchRow,
    SeatAccountRow,
    SiteKeyRow,
    TurnClockRow,
)
from .account_records import (
    START_MU,
    START_SIGMA,
    Account,
    ChatLine,
    Failures,
    Result,
    Totals,
)
from .database import unit_of_work
from .farewell_models import DepartureRow
from .models import GameRow
from .store import StorageError


class NameTaken(StorageError):
    code = "name_taken"


def account_of(row: AccountRow) -> Account:
    """The account a stored row describes (the rating store reads accounts the same way)."""
    return Account(
        row.id, row.name, row.password_hash, row.mu, row.sigma, row.rated_games,
        row.opponents,
    )


def _opponents(account_id: int) -> ScalarSelect[int]:
    """The number of different accounts met in an account's rated games while their own
    rating was established (a ring of new accounts cannot establish one another)."""
    me = aliased(GameResultRow)
    other = aliased(GameResultRow)
    return (
        select(func.count(distinct(other.account_id)))
        .select_from(me)
        .join(other, (other.game_id == me.game_id) & (other.account_id != me.account_id))
        .where(me.account_id == account_id, me.rated, other.rated, other.established)
        .scalar_subquery()
    )


def _failures(row: LoginFailureRow | None) -> Failures:
    return Failures() if row is None else Failures(row.failures, row.since, row.locked_until)


def _result(row: GameResultRow) -> Result:
    return Result(
        row.game_id, row.account_id, row.seat, row.num_seats, row.place, row.won, row.points,
        row.favourite, row.rated, row.mu, row.sigma, row.finished_at, row.established,
        row.left_early, row.unrated,
    )


_NAME_IN_USE = select(AccountRow.id).where(
    AccountRow.look_alike == bindparam("look_alike")
).union_all(
    select(DepartureRow.account_id).where(  # a deleted account's name, still reserved
        DepartureRow.look_alike == bindparam("look_alike"),
        DepartureRow.name_free_at > bindparam("now"),
    )
).limit(1)


class AccountStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def _session(self) -> AbstractContextManager[Session]:
        return unit_of_work(self._sessions)

    # -- the site's key -------------------------------------------------------------------
    def site_key(self, name: str) -> str:
        """The shared secret ``name``, made at the first call by whichever process is first."""
        with self._session() as session:
            row = session.get(SiteKeyRow, name)
            if row is not None:
                return row.value
        try:
            with self._session() as session:
                session.add(SiteKeyRow(name=name, value=secrets.token_hex(32)))
        except StorageError:
            pass  # another process made it first: read theirs
        with self._session() as session:
            row = session.get(SiteKeyRow, name)
            if row is None:
                raise StorageError("the site key could not be stored")
            return row.value

    # -- accounts -------------------------------------------------------------------------
    def create_account(
        self, name: str, name_key: str, look_alike: str, password_hash: str
    ) -> Account:
        try:
            with self._session() as session:
                row = AccountRow(
                    name=name, name_key=name_key, look_alike=look_alike,
                    password_hash=password_hash,
                    created_at=datetime.now(UTC), mu=START_MU, sigma=START_SIGMA,
                    rated_games=0, opponents=0,
                )
                session.add(row)
                session.flush()
                return account_of(row)
        except StorageError as error:
            if isinstance(error.__cause__, IntegrityError):
                raise NameTaken("an account of that name exists") from None
            raise

    def account_by_key(self, name_key: str) -> Account | None:
        with self._session() as session:
            row = session.scalars(select(AccountRow).where(AccountRow.name_key == name_key)).first()
            return None if row is None else account_of(row)

    def name_in_use(self, look_alike: str, now: float | None = None) -> bool:
        """Whether an account's name reads like one of this key, or a deleted account's
        name still reserved at ``now`` (:mod:`.farewell`) does (asked at every guest's
        table and seat: one Core read, no ORM session)."""
        try:
            with self.engine.connect() as connection:
                return connection.execute(
                    _NAME_IN_USE,
                    {"look_alike": look_alike, "now": time.time() if now is None else now},
                ).first() is not None
        except SQLAlchemyError as error:
            raise StorageError(
                f"the database refused the change: {type(error).__name__}"
            ) from error

    def account(self, account_id: int) -> Account | None:
        with self._session() as session:
            row = session.get(AccountRow, account_id)
            return None if row is None else account_of(row)

    def login_state(
        self, name_key: str, address: str
    ) -> tuple[Account | None, Failures, Failures]:
        """What a log-in reads, the same for a name nobody has: the account, the failures
        from this address, and from every address."""
        with self._session() as session:
            row = session.scalars(select(AccountRow).where(AccountRow.name_key == name_key)).first()
            here = session.get(LoginFailureRow, (name_key, address))
            every = session.get(LoginFailureRow, (name_key, ""))
            return (
                None if row is None else account_of(row), _failures(here), _failures(every)
            )

    def login_failed(
        self, name_key: str, address: str, here: Failures, every: Failures, forget: float
    ) -> None:
        """Store the new counts after a wrong password (or any try while held back), and
        forget runs of failures that began before ``forget``."""
        with self._session() as session:
            for where, counts in ((address, here), ("", every)):
                session.merge(LoginFailureRow(
                    name_key=name_key, address=where, failures=counts.failures,
                    since=counts.since, locked_until=counts.locked_until,
                ))
            session.execute(delete(LoginFailureRow).where(
                LoginFailureRow.since < forget, LoginFailureRow.locked_until < forget
            ))

    def login_succeeded(
        self, account_id: int, name_key: str, address: str, password_hash: str | None
    ) -> None:
        """The address's failures for the name end; the name's count over every address
        stays (someone else may still be guessing)."""
        with self._session() as session:
            session.execute(delete(LoginFailureRow).where(
                LoginFailureRow.name_key == name_key, LoginFailureRow.address == address
            ))
            if password_hash is not None:  # the hash's parameters were raised: store anew
                session.execute(update(AccountRow).where(AccountRow.id == account_id).values(
                    password_hash=password_hash
                ))

    def set_password(self, account_id: int, password_hash: str) -> None:
        """A new password; every session of the account ends with the old one."""
        with self._session() as session:
            session.execute(
                update(AccountRow).where(AccountRow.id == account_id).values(
                    password_hash=password_hash
                )
            )
            session.execute(delete(AuthSessionRow).where(AuthSessionRow.account_id == account_id))

    # -- sessions -------------------------------------------------------------------------
    def add_session(self, id_hash: str, account_id: int, expires_at: float) -> None:
        with self._session() as session:
            session.add(AuthSessionRow(id_hash=id_hash, account_id=account_id,
                                       expires_at=expires_at))

    def session_account(self, id_hash: str, now: float) -> Account | None:
        with self._session() as session:
            row = session.get(AuthSessionRow, id_hash)
            if row is None:
                return None
            if row.expires_at <= now:
                session.delete(row)
                return None
            account = session.get(AccountRow, row.account_id)
            return None if account is None else account_of(account)

    def end_session(self, id_hash: str) -> None:
        with self._session() as session:
            session.execute(delete(AuthSessionRow).where(AuthSessionRow.id_hash == id_hash))

    # -- seats held by accounts -----------------------------------------------------------
    def own_seat(self, game_id: str, seat: int, account_id: int) -> None:
        with self._session() as session:
            session.merge(SeatAccountRow(game_id=game_id, seat=seat, account_id=account_id))

    def disown_seat(self, game_id: str, seat: int) -> None:
        with self._session() as session:
            session.execute(
                delete(SeatAccountRow).where(
                    SeatAccountRow.game_id == game_id, SeatAccountRow.seat == seat
                )
            )

    def seat_owners(self, game_id: str) -> dict[int, int]:
        """Seat → account for one table."""
        with self._session() as session:
            rows = session.scalars(
                select(SeatAccountRow).where(SeatAccountRow.game_id == game_id)
            ).all()
            return {row.seat: row.account_id for row in rows}

    def account_seats(self, account_id: int, limit: int = 200) -> list[tuple[str, int, str]]:
        """(game, seat, status) of an account's tables, newest first."""
        with self._session() as session:
            rows = session.execute(
                select(SeatAccountRow.game_id, SeatAccountRow.seat, GameRow.status)
                .join(GameRow, GameRow.id == SeatAccountRow.game_id)
                .where(SeatAccountRow.account_id == account_id)
                .order_by(GameRow.created_at.desc())
                .limit(limit)
            ).all()
            return [(g, s, st) for g, s, st in rows]

    def names(self, account_ids: list[int]) -> dict[int, str]:
        with self._session() as session:
            rows = session.execute(
                select(AccountRow.id, AccountRow.name).where(AccountRow.id.in_(account_ids))
            ).all()
            return {i: n for i, n in rows}

    def record_leaver(
        self, game_id: str, account_id: int, seat: int, version: int, why: str
    ) -> None:
        """An account left the game (the first time counts; later ones change nothing)."""
        with self._session() as session:
            if session.get(LeaverRow, (game_id, account_id)) is None:
                session.add(LeaverRow(game_id=game_id, account_id=account_id, seat=seat,
                                      version=version, why=why))

    # -- results and ratings --------------------------------------------------------------
    def unrecorded_games(self, limit: int = 100) -> list[str]:
        """Finished games with a seat held by an account but no result yet (a process that
        stopped between the last move and the results)."""
        with self._session() as session:
            recorded = select(GameResultRow.game_id)
            with_accounts = select(SeatAccountRow.game_id).union(select(LeaverRow.game_id))
            rows = session.execute(
                select(GameRow.id)
                .where(GameRow.status == "over", GameRow.id.in_(with_accounts),
                       GameRow.id.not_in(recorded))
                .order_by(GameRow.finished_at)
                .limit(limit)
            ).all()
            return [g for (g,) in rows]

    def record_results(self, results: list[Result]) -> bool:
        """Store a game's results and each rated account's new rating, once: False when
        they were already stored (another process, or a second call)."""
        if not results:
            return False
        try:
            with self._session() as session:
                for result in results:
                    session.add(GameResultRow(
                        game_id=result.game_id, account_id=result.account_id,
                        seat=result.seat, num_seats=result.num_seats, place=result.place,
                        won=result.won, points=result.points, favourite=result.favourite,
                        rated=result.rated, mu=result.mu, sigma=result.sigma,
                        finished_at=result.finished_at, established=result.established,
                        left_early=result.left_early, unrated=result.unrated,
                    ))
                    if result.rated:
                        session.execute(
                            update(AccountRow).where(AccountRow.id == result.account_id).values(
                                mu=result.mu, sigma=result.sigma,
                                rated_games=AccountRow.rated_games + 1,
                            )
                        )
                session.flush()
                for result in results:
                    if result.rated:
                        session.execute(
                            update(AccountRow).where(AccountRow.id == result.account_id)
                            .values(opponents=_opponents(result.account_id))
                        )
        except StorageError as error:
            if isinstance(error.__cause__, IntegrityError):
                return False
            raise
        return True

    def results(self, account_id: int, limit: int = 500) -> list[Result]:
        """An account's results, oldest first."""
        with self._session() as session:
            rows = session.scalars(
                select(GameResultRow)
                .where(GameResultRow.account_id == account_id)
                .order_by(GameResultRow.finished_at.desc())
                .limit(limit)
            ).all()
            return [_result(row) for row in reversed(rows)]

    def totals(self, account_id: int) -> Totals:
        """An account's counts over every result it has (not only the ones listed). The
        points and dishes of a game it left were a bot's finish, not its own: they count
        for nothing (the game and its loss still count)."""
        with self._session() as session:
            left = select(LeaverRow.game_id).where(LeaverRow.account_id == account_id)
            own = GameResultRow.game_id.not_in(left)
            games, wins, points, scored = session.execute(
                select(
                    func.count(),
                    func.coalesce(func.sum(case((GameResultRow.won, 1), else_=0)), 0),
                    func.coalesce(func.sum(case((own, GameResultRow.points), else_=0)), 0),
                    func.coalesce(func.sum(case((own, 1), else_=0)), 0),
                ).where(GameResultRow.account_id == account_id)
            ).one()
            dishes = session.execute(
                select(GameResultRow.favourite, func.count())
                .where(GameResultRow.account_id == account_id,
                       GameResultRow.favourite.is_not(None), own)
                .group_by(GameResultRow.favourite)
            ).all()
            return Totals(int(games), int(wins), int(points),
                          {str(dish): int(n) for dish, n in dishes}, int(scored))

    # -- chat -----------------------------------------------------------------------------
    def add_chat(self, game_id: str, seat: int, name: str, text: str, at: float) -> ChatLine:
        with self._session() as session:
            row = ChatRow(game_id=game_id, seat=seat, name=name, text=text, at=at)
            session.add(row)
            session.flush()
            return ChatLine(row.id, seat, name, text, at)

    def chat(self, game_id: str, limit: int = 50) -> list[ChatLine]:
        with self._session() as session:
            rows = session.scalars(
                select(ChatRow).where(ChatRow.game_id == game_id)
                .order_by(ChatRow.id.desc()).limit(limit)
            ).all()
            return [ChatLine(r.id, r.seat, r.name, r.text, r.at) for r in reversed(rows)]

    # -- rematches ------------------------------------------------------------------------
    def rematch(self, game_id: str) -> tuple[str, set[int]] | None:
        with self._session() as session:
            row = session.get(RematchRow, game_id)
            if row is None:
                return None
            return row.new_game_id, {int(v) for v in row.votes.split(",") if v}

    def save_rematch(self, game_id: str, new_game_id: str, votes: set[int]) -> None:
        with self._session() as session:
            session.merge(RematchRow(
                game_id=game_id, new_game_id=new_game_id,
                votes=",".join(str(v) for v in sorted(votes)),
            ))

    # -- turn clocks ----------------------------------------------------------------------
    def save_clock(self, game_id: str, version: int, deadline: float) -> None:
        with self._session() as session:
            session.merge(TurnClockRow(game_id=game_id, version=version, deadline=deadline))

    def load_clock(self, game_id: str) -> tuple[int, float] | None:
        with self._session() as session:
            row = session.get(TurnClockRow, game_id)
            return None if row is None else (row.version, row.deadline)


__all__ = [
    "START_MU", "START_SIGMA", "Account", "AccountStore", "ChatLine", "Failures", "NameTaken",
    "Result", "Totals",
]
