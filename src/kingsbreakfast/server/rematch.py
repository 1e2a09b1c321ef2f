"""Rematch: the same players in the same seats, a new deck, one click each.

The first click on a finished table opens the new table with every human seat already
given to the player who held it, and every other seat left to bots. Each seat's token is
derived, not drawn: an account's from the account and the new table (any of its devices
can act for it), a guest's from the digest of their old token (handed only to whoever
shows the old token). So the server never stores a token in clear, and a restart or
another process can go on where this one stopped. When every human of the old game has
clicked, the new game is dealt; the host may also deal earlier from the waiting room.
Everyone still watching the old table hears of each click in a ``rematch`` frame. No
rematch seats two accounts a block now keeps apart (:mod:`.people`).
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass

from .accounts import Accounts
from .actor import TableActor
from .lifecycle import Phase
from .lobby import LobbyError
from .people import PeopleStore
from .sessions import digest
from .tables import HUMAN, OPEN, Seat, Table
from .wire import rematch_frame


@dataclass(frozen=True, slots=True)
class RematchSeat:
    table: str
    seat: int
    token: str
    votes: list[int]
    needed: list[int]
    started: bool


class Rematches:
    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self._locks: dict[str, asyncio.Lock] = {}

    def _token(self, new_id: str, old: Table, seat: int, owners: dict[int, int]) -> str:
        keys = self.accounts.key
        if seat in owners:
            return keys.account_seat_token(owners[seat], new_id)
        token_hash = old.seats[seat].token_hash
        assert token_hash is not None
        return keys.rematch_token(new_id, token_hash)

    async def vote(self, actor: TableActor, seat: int) -> RematchSeat:
        """``seat`` of the finished table ``actor`` holds wants a rematch."""
        if actor.phase is not Phase.OVER:
            raise LobbyError(409, "not_over", "a rematch is offered once the game is over")
        lock = self._locks.setdefault(actor.table.id, asyncio.Lock())
        async with lock:
            return await self._vote(actor, seat)

    async def _vote(self, actor: TableActor, seat: int) -> RematchSeat:
        old = actor.table
        store = self.accounts.store
        master = self.accounts.master
        owners = await self.accounts.call(store.seat_owners, old.id)
        needed = [n for n, s in enumerate(old.seats) if s.kind == HUMAN and s.token_hash]
        if seat not in needed:
            raise LobbyError(403, "bad_token", "this token holds no seat at this table")
        known = await self.accounts.call(store.rematch, old.id)
        if known is None:
            held = {owners[n] for n in needed if n in owners}
            if await self.accounts.call(PeopleStore(store.engine).among, held):
                # a block came between two of them: no new table seats them together
                raise LobbyError(403, "people_blocked_table", "you cannot sit at this table")
            new_id = secrets.token_urlsafe(9)
            table = Table(
                id=new_id, num_seats=old.num_seats, rules=old.rules, bot_level=old.bot_level,
                clock_seconds=old.clock_seconds, public=old.public,
                seats=[
                    Seat(HUMAN, s.name, digest(self._token(new_id, old, n, owners)))
                    if n in needed else Seat(OPEN, "")
                    for n, s in enumerate(old.seats)
                ],
            )
            await master.open_table(table)
            for n, account_id in owners.items():
                if n in needed:
                    await self.accounts.call(store.own_seat, new_id, n, account_id)
            votes: set[int] = set()
        else:
            new_id, votes = known
        votes.add(seat)
        await self.accounts.call(store.save_rematch, old.id, new_id, votes)
        actor.audience.tell(rematch_frame(new_id, sorted(votes), needed))
        started = False
        if votes >= set(needed):
            new = await master.find(new_id)  # (a rematch played out already comes back too)
            host = None if new is None else new.table.host
            if new is not None and new.phase is Phase.LOBBY and host is not None:
                await master.start(new_id, self._token(new_id, old, host, owners))
            started = True
        return RematchSeat(
            new_id, seat, self._token(new_id, old, seat, owners), sorted(votes), needed, started
        )
