"""Play now's waiting room in one process: seats reserved in the site's pool
(:mod:`.play_pool`) become real when their player's socket arrives, and a group is dealt at
its deadline, or as soon as every seat is present, by whichever process looks first.

Why the socket: a seat is held only by someone present. A matched newcomer has a few seconds
(:data:`~.matching.ARRIVAL`) to open the table's socket; a seat whose player did not come is
given back (to the pool, and at the table itself), and a table is never dealt to an absent
player: at the deal, the seats of players who are not present go to bots.

Who deals: each process looks every :data:`EVERY` seconds for groups that are due and whose
table it holds, or that no living process holds (their lease is free or ran out: it then
takes the table). Taking a group out of the pool is one transaction, so each is dealt once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from contextlib import suppress
from typing import TYPE_CHECKING

from sqlalchemy.engine import Engine
from starlette.requests import HTTPConnection

from .lifecycle import Phase
from .lobby import LobbyError
from .matching import ARRIVAL, Member
from .play_pool import PoolStore
from .sessions import seat_cookie
from .store import StorageError
from .tables import HUMAN, Table, token_digest

if TYPE_CHECKING:
    from .actor import TableActor
    from .hall import Dealer
    from .site import Site

log = logging.getLogger("kingsbreakfast.server")

EVERY = 0.25
"""How often a process looks for groups to deal (seconds)."""


class WaitingRoom:
    """The pool's chores in this process: arrivals and deals."""

    def __init__(self, site: Site, engine: Engine) -> None:
        self.site = site
        self.master = site.master
        self.pool = PoolStore(engine, ARRIVAL)
        self.lock = asyncio.Lock()
        """This process's matching, one newcomer at a time (the pool's transaction
        serialises the processes among themselves)."""
        self._task: asyncio.Task[None] | None = None
        self.dealt: list[Callable[[Table], None]] = []
        """Told of each table this process deals (the notices: a game starting)."""

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._keep())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _keep(self) -> None:
        while True:
            await asyncio.sleep(EVERY)
            try:
                await self.sweep()
            except StorageError as error:  # the database is away: look again next round
                log.warning("play now: the pool was not swept (%s)", error)
            except Exception:  # never let the chore die: no group would be dealt here again
                log.exception("play now: the sweep failed; going on")

    async def sweep(self) -> None:
        """Deal (or forget) every group that is due and this process may take."""
        leases = self.master.leases
        owner = None if leases is None else leases.owner
        for table_id in await self.master.journal.call(self.pool.due, owner):
            await self.deal(table_id)

    async def deal(self, table_id: str) -> None:
        """Deal a group's table to its present players, bots in every other seat; a table
        nobody came to is forgotten. Once: another process that took it first wins."""
        try:
            actor = await self.master.own(table_id, wait=0.0, ask=False)
        except LobbyError:  # another process holds it now: it deals
            return
        present = await self.master.journal.call(self.pool.claim, table_id)
        if present is None or actor is None:
            return
        keep = frozenset(m.token for m in present)
        try:
            if await deal_present(actor, keep, self.master.dealer):
                for hook in self.dealt:
                    hook(actor.table)
                return
            await actor.expire()
            log.info("play now: table %s had nobody present and was forgotten", table_id)
        except (LobbyError, StorageError) as refused:
            log.warning("play now: table %s not dealt (%s)", table_id, refused)

    async def arrive(self, actor: TableActor, connection: HTTPConnection) -> None:
        """A socket reached a table: if its cookies hold a seat reserved there, the player
        is present and takes it (an account's seat is the account's from then on)."""
        table = actor.table
        if actor.phase is not Phase.LOBBY or table.public:
            return
        tokens: dict[str, str] = {}
        account = await self.site.accounts.current(connection)
        if account is not None:
            mine = self.site.accounts.key.account_seat_token(account.id, table.id)
            tokens[token_digest(mine)] = mine
        cookie = seat_cookie(connection, table.id)
        if cookie:
            tokens[token_digest(cookie)] = cookie
        call = self.master.journal.call
        member = await call(self.pool.reserved, table.id, frozenset(tokens))
        if member is None:
            return
        keep = await call(self.pool.keeps, table.id)
        seat = await take_reserved(actor, tokens[member.token], member, keep)
        if seat is None:
            return
        if not await call(self.pool.arrived, table.id, member.token):
            # given back while they sat down: the seat goes with it
            async with actor.lock:
                if actor.phase is Phase.LOBBY:
                    await give_back(actor, await call(self.pool.keeps, table.id))
            return
        if member.account is not None:
            accounts = self.site.accounts
            await accounts.call(accounts.store.own_seat, table.id, seat, member.account)
        group = await call(self.pool.group, table.id)
        if group is not None and sum(m.present for m in group.members) >= group.seats:
            await self.deal(table.id)  # full of present players: no need to wait

    async def forget(self, table_id: str, member: Member) -> None:
        """A player left a group for another size or speed: the account no longer owns the
        seat, and the seat goes back at the table if this process holds it (else at the
        deal, which gives back every seat whose player is not in the group)."""
        if member.account is not None:
            accounts = self.site.accounts
            await accounts.call(accounts.store.disown_seat, table_id, member.seat)
        actor = self.master.actors.get(table_id)
        leases = self.master.leases
        if actor is None or (leases is not None and not leases.holds(table_id)):
            return
        keep = await self.master.journal.call(self.pool.keeps, table_id)
        async with actor.lock:
            if actor.phase is Phase.LOBBY:
                await give_back(actor, keep)


async def give_back(actor: TableActor, keep: frozenset[str]) -> None:
    """Free every person's seat whose token digest is not in ``keep`` (players who never
    came or left the group); the caller holds the actor's lock, in the lobby."""
    table = actor.table
    changed = False
    for number, seat in enumerate(table.seats):
        if seat.kind != HUMAN or seat.token_hash in keep:
            continue
        await actor.open_seat_locked(
            number, "your seat was given back: you were not at the table")
        log.info("table %s: seat %d given back (nobody came)", table.id, number)
        changed = True
    if changed:
        actor.schedule()
        actor.broadcast()


async def take_reserved(
    actor: TableActor, token: str, member: Member, keep: frozenset[str]
) -> int | None:
    """The present player's seat at the table: the one they hold, else a free one (seats
    held for absent players are given back first); None when the table started or has no
    room."""
    async with actor.lock:
        if actor.phase is not Phase.LOBBY:
            return None
        held = actor.table.seat_of(token)
        if held is not None:
            return held
        await give_back(actor, keep)
    with suppress(LobbyError):
        number, _token = await actor.claim_seat(member.name, token, distinct=True)
        return number
    return None


async def deal_present(
    actor: TableActor, keep: frozenset[str], dealer: Dealer
) -> bool:
    """Deal the table to the players in ``keep`` (bots take every other seat); False when
    none of them sits there (nothing to deal). Unlisted while the pool seats strangers there,
    the table is public from the deal on: anyone may watch it (the lobby's *Watch*, the TV),
    as the spectator's view (no hidden card), and its record goes to the archive."""
    async with actor.lock:
        if actor.phase is not Phase.LOBBY:
            return True  # dealt already
        await give_back(actor, keep)
        if actor.table.host is None:
            return False
        await actor.deal_locked(dealer, public=True)
        return True
