"""People: accounts follow accounts (following each other, they are friends), block
accounts, and are seen online; read and changed in the database, so every process of a
cluster answers the same.

A block holds both ways for seating and challenges (:meth:`PeopleStore.apart`): the blocked
account never sits at a table where the blocker sits, nor the blocker where the blocked one
sits, play now never groups them, and neither may challenge the other. Chat is filtered for
the blocker only (:meth:`PeopleStore.blocked_by`): the blocked one's lines never reach them.
Blocking also ends the follows between the two and withdraws the challenges between them.

Synchronous and short, like :mod:`.account_store`: the server runs these calls in the
store's worker thread; each is one transaction.
"""

from __future__ import annotations

from collections.abc import Collection
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import Select, delete, func, or_, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, aliased, sessionmaker

from .account_models import AccountRow
from .database import unit_of_work
from .lobby import LobbyError
from .names import look_alike_key
from .people_models import BlockRow, ChallengeRow, FollowRow, SeenRow
from .rating_rules import ordinal

ONLINE_SECONDS: Final = 150.0
"""An account seen this recently is "online now": every open page of the site asks the
server at least once a minute (the waiting-games badge), so a living tab is never older."""
SEEN_EVERY: Final = 30.0
"""A process writes an account's "seen" at most this often (a page asks more often)."""
MAX_PEOPLE: Final = 500
"""The most follows (and blocks) one account keeps: a list nobody could read is refused."""


@dataclass(frozen=True, slots=True)
class Person:
    """An account as the people page lists it: its name, its rating (μ − 3σ) and, for a
    friend, whether it is online now."""

    name: str
    rating: float
    online: bool = False


def rating_of(row: AccountRow) -> float:
    return round(ordinal(row.mu, row.sigma), 2)


class PeopleStore:
    """Follows, blocks and the "seen" times of one site's accounts."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def _session(self) -> AbstractContextManager[Session]:
        return unit_of_work(self._sessions)

    # -- following and blocking -------------------------------------------------------------
    def follow(self, me: int, name: str, now: float) -> Person:
        """Follow the account named ``name`` (as typed; names compare as they read)."""
        with self._session() as session:
            other = named_account(session, name, me)
            if blocked_either(session, me, other.id):
                raise LobbyError(403, "people_blocked", "you cannot follow this player")
            if session.get(FollowRow, (me, other.id)) is None:
                _room(session, select(func.count()).where(FollowRow.follower_id == me))
                session.add(FollowRow(follower_id=me, followed_id=other.id, at=now))
            return Person(other.name, rating_of(other))

    def unfollow(self, me: int, name: str) -> None:
        with self._session() as session:
            other = named_account(session, name, me)
            session.execute(delete(FollowRow).where(
                FollowRow.follower_id == me, FollowRow.followed_id == other.id))

    def block(self, me: int, name: str, now: float) -> Person:
        """Block the account named ``name``: the follows between the two end, and so do
        the open challenges between them."""
        with self._session() as session:
            other = named_account(session, name, me)
            if session.get(BlockRow, (me, other.id)) is None:
                _room(session, select(func.count()).where(BlockRow.blocker_id == me))
                session.add(BlockRow(blocker_id=me, blocked_id=other.id, at=now))
            session.execute(delete(FollowRow).where(or_(
                (FollowRow.follower_id == me) & (FollowRow.followed_id == other.id),
                (FollowRow.follower_id == other.id) & (FollowRow.followed_id == me))))
            session.execute(update(ChallengeRow).where(
                ChallengeRow.state == "open",
                or_((ChallengeRow.from_id == me) & (ChallengeRow.to_id == other.id),
                    (ChallengeRow.from_id == other.id) & (ChallengeRow.to_id == me)),
            ).values(state="withdrawn"))
            return Person(other.name, rating_of(other))

    def unblock(self, me: int, name: str) -> None:
        with self._session() as session:
            other = named_account(session, name, me)
            session.execute(delete(BlockRow).where(
                BlockRow.blocker_id == me, BlockRow.blocked_id == other.id))

    # -- what blocks keep apart --------------------------------------------------------------
    def apart(self, me: int, others: Collection[int]) -> bool:
        """Whether a block stands between ``me`` and any of ``others`` (either way)."""
        ids = sorted(set(others) - {me})
        if not ids:
            return False
        with self._session() as session:
            return session.scalars(select(BlockRow.blocker_id).where(or_(
                (BlockRow.blocker_id == me) & BlockRow.blocked_id.in_(ids),
                (BlockRow.blocked_id == me) & BlockRow.blocker_id.in_(ids),
            )).limit(1)).first() is not None

    def among(self, accounts: Collection[int]) -> bool:
        """Whether a block stands between any two of ``accounts`` (a rematch would seat
        them together again)."""
        ids = sorted(set(accounts))
        if len(ids) < 2:
            return False
        with self._session() as session:
            return session.scalars(select(BlockRow.blocker_id).where(
                BlockRow.blocker_id.in_(ids), BlockRow.blocked_id.in_(ids),
            ).limit(1)).first() is not None

    def blocked_by(self, speaker: int, listeners: Collection[int]) -> set[int]:
        """Those of ``listeners`` who blocked ``speaker``: its chat never reaches them."""
        ids = sorted(set(listeners))
        if not ids:
            return set()
        with self._session() as session:
            return set(session.scalars(select(BlockRow.blocker_id).where(
                BlockRow.blocked_id == speaker, BlockRow.blocker_id.in_(ids))))

    def blocks_of(self, me: int) -> set[int]:
        """The accounts ``me`` blocked."""
        with self._session() as session:
            return set(session.scalars(select(BlockRow.blocked_id).where(
                BlockRow.blocker_id == me)))

    def avoided_names(self, me: int) -> frozenset[str]:
        """The names (case-folded, as play now compares them) of every account a block
        keeps from ``me``, either way: play now never groups them."""
        with self._session() as session:
            names = session.scalars(select(AccountRow.name).where(AccountRow.id.in_(
                select(BlockRow.blocked_id).where(BlockRow.blocker_id == me).union(
                    select(BlockRow.blocker_id).where(BlockRow.blocked_id == me)))))
            return frozenset(name.casefold() for name in names)

    # -- online now -------------------------------------------------------------------------
    def seen(self, me: int, now: float) -> None:
        with self._session() as session:
            row = session.get(SeenRow, me)
            if row is None:
                session.add(SeenRow(account_id=me, seen_at=now))
            else:
                row.seen_at = max(row.seen_at, now)

    # -- the people page --------------------------------------------------------------------
    def people(self, me: int, now: float) -> dict[str, list[Person]]:
        """Friends (following each other, with who is online now), the accounts ``me``
        follows who do not follow back, those following ``me`` whom it does not follow, and
        those it blocked; each list by name."""
        with self._session() as session:
            follows = set(session.scalars(select(FollowRow.followed_id).where(
                FollowRow.follower_id == me)))
            followers = set(session.scalars(select(FollowRow.follower_id).where(
                FollowRow.followed_id == me)))
            blocked = set(session.scalars(select(BlockRow.blocked_id).where(
                BlockRow.blocker_id == me)))
            everyone = follows | followers | blocked
            rows = {r.id: r for r in session.scalars(
                select(AccountRow).where(AccountRow.id.in_(sorted(everyone))))}
            seen = dict(session.execute(select(SeenRow.account_id, SeenRow.seen_at).where(
                SeenRow.account_id.in_(sorted(follows & followers)))).all())

            def listed(ids: set[int], online: bool = False) -> list[Person]:
                people = [
                    Person(rows[i].name, rating_of(rows[i]),
                           online and seen.get(i, 0.0) >= now - ONLINE_SECONDS)
                    for i in ids if i in rows
                ]
                return sorted(people, key=lambda p: p.name.casefold())

            return {
                "friends": listed(follows & followers, online=True),
                "following": listed(follows - followers),
                "followers": listed(followers - follows - blocked),
                "blocked": listed(blocked),
            }

    def ratings(self, names: Collection[str]) -> dict[str, float]:
        """The rating of each name that is an account's (guests' and bots' are left out),
        keyed by the name as asked."""
        keys = {look_alike_key(n): n for n in names}
        if not keys:
            return {}
        with self._session() as session:
            rows = session.scalars(select(AccountRow).where(
                AccountRow.look_alike.in_(sorted(keys))))
            return {keys[r.look_alike]: rating_of(r) for r in rows if r.look_alike in keys}


def people_rows(session: Session, me: int) -> dict[str, Any]:
    """The account's own rows of people for its data download (:mod:`.personal_data`):
    whom it follows and blocked, and the challenges it made or was sent."""
    other = aliased(AccountRow)
    sender, receiver = aliased(AccountRow), aliased(AccountRow)
    return {
        "follows": [
            {"name": name, "since": _when(at)} for name, at in session.execute(
                select(other.name, FollowRow.at).join(other, other.id == FollowRow.followed_id)
                .where(FollowRow.follower_id == me).order_by(FollowRow.at))
        ],
        "blocks": [
            {"name": name, "since": _when(at)} for name, at in session.execute(
                select(other.name, BlockRow.at).join(other, other.id == BlockRow.blocked_id)
                .where(BlockRow.blocker_id == me).order_by(BlockRow.at))
        ],
        "challenges": [
            {"from": by, "to": to, "seats": c.seats, "clock_seconds": c.clock_seconds,
             "rated": c.rated, "bots": c.bots, "made_at": _when(c.made_at),
             "state": c.state, "table": c.table_id}
            for c, by, to in session.execute(
                select(ChallengeRow, sender.name, receiver.name)
                .join(sender, sender.id == ChallengeRow.from_id)
                .join(receiver, receiver.id == ChallengeRow.to_id)
                .where(or_(ChallengeRow.from_id == me, ChallengeRow.to_id == me))
                .order_by(ChallengeRow.id))
        ],
    }


def _when(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).isoformat(timespec="seconds")


def named_account(session: Session, name: str, me: int) -> AccountRow:
    """The account named ``name`` (as it reads), never ``me``."""
    row = session.scalars(select(AccountRow).where(
        AccountRow.look_alike == look_alike_key(" ".join(name.split())))).first()
    if row is None:
        raise LobbyError(404, "people_unknown", "there is no player of that name", name=name)
    if row.id == me:
        raise LobbyError(422, "people_self", "that is you")
    return row


def blocked_either(session: Session, me: int, other: int) -> bool:
    return session.scalars(select(BlockRow.blocker_id).where(or_(
        (BlockRow.blocker_id == me) & (BlockRow.blocked_id == other),
        (BlockRow.blocker_id == other) & (BlockRow.blocked_id == me),
    )).limit(1)).first() is not None


def _room(session: Session, counted: Select[Any]) -> None:
    """Refuse one more follow (or block) past :data:`MAX_PEOPLE`."""
    if int(session.scalar(counted) or 0) >= MAX_PEOPLE:
        raise LobbyError(422, "people_too_many", "you follow or block too many players",
                         limit=MAX_PEOPLE)
