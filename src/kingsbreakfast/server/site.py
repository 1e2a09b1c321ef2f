"""Everything a player keeps between games, in one object: accounts and sessions, seats
owned by accounts, results and ratings, chat, rematch and turn-based clocks.

:class:`Site` subscribes its parts to the tables' events (a game over settles ratings, a
turn clock started or a table restored keeps turn-based deadlines); the routes
(:mod:`.routes.accounts`, :mod:`.routes.at_table`, docs/accounts.md) and the lobby's seat
calls ask it who a request is and which seat credential it carries (a header token, an
account's seat, a guest's cookie).
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
from dataclasses import dataclass
from typing import Any

from fastapi import Request, WebSocket
from fastapi.responses import Response

from .account_store import Account
from .accounts import Accounts
from .chat import Chat
from .clocks import TurnClocks
from .hint_gate import HintGate
from .limits import ServerLimits
from .lobby import LobbyError
from .master import Master
from .rating_rules import ordinal
from .ratings import Ratings
from .rematch import Rematches
from .sessions import (
    check_csrf,
    clear_seat_cookie,
    same_origin,
    seat_cookie,
    set_seat_cookie,
)
from .store import StorageError
from .tables import Table
from .waiting import WaitingRoom

log = logging.getLogger("kingsbreakfast.server")


@dataclass(frozen=True, slots=True)
class SeatPlan:
    """How a lobby call seats its caller: as an account (name, token and maybe the seat it
    holds already) or as a guest (everything None)."""

    account: Account | None = None
    table_id: str | None = None
    token: str | None = None
    existing: int | None = None


def account_body(account: Account) -> dict[str, Any]:
    return {
        "name": account.name, "rating": round(ordinal(account.mu, account.sigma), 2),
        "rated_games": account.rated_games,
    }


class Site:
    def __init__(
        self, master: Master, site_key: str | None = None, limits: ServerLimits | None = None
    ) -> None:
        self.master = master
        self.accounts = Accounts(master, limits=limits)
        self.hints = HintGate()
        self.ratings = Ratings(self.accounts)
        self.chat = Chat(self.accounts)
        self.rematches = Rematches(self.accounts)
        self.clocks = TurnClocks(self.accounts)
        self.waiting = WaitingRoom(self, self.accounts.store.engine)
        """Play now's seats and deals in this process (the pool is the site's)."""
        self._site_key = site_key or os.environ.get("KINGSBREAKFAST_SITE_KEY") or None
        master.events.game_over.connect(self.ratings.game_over)
        master.events.clock_started.connect(self.clocks.started)
        master.events.restored.connect(self.clocks.restore)
        master.events.timed_out.connect(self._timed_out)

    async def open(self) -> None:
        await self.accounts.open(self._site_key)
        await self.ratings.catch_up()
        self.waiting.start()

    def close(self) -> None:
        self.accounts.close()

    # -- who is asking, and for which seat --------------------------------------------------
    async def writer(self, request: Request) -> Account | None:
        """The account of a state-changing call, CSRF-checked; None for a guest."""
        account = await self.accounts.current(request)
        if account is not None:
            check_csrf(request)
        return account

    async def creating(self, request: Request) -> SeatPlan:
        account = await self.writer(request)
        if account is None:
            return SeatPlan()
        table_id = secrets.token_urlsafe(9)
        return SeatPlan(
            account, table_id, self.accounts.key.account_seat_token(account.id, table_id)
        )

    async def joining(self, request: Request, table: Table) -> SeatPlan:
        account = await self.writer(request)
        if account is None:
            return SeatPlan()
        token = self.accounts.key.account_seat_token(account.id, table.id)
        return SeatPlan(account, table.id, token, table.seat_of(token))

    async def seated(
        self, request: Request, response: Response, table_id: str, seat: int, token: str,
        plan: SeatPlan, waiting: float | None = None,
    ) -> None:
        """The seat is the account's (from any device), or the guest's by an HttpOnly cookie
        (``waiting``: at a play-now table, see :func:`.sessions.set_seat_cookie`)."""
        if plan.account is not None:
            await self.accounts.call(
                self.accounts.store.own_seat, table_id, seat, plan.account.id
            )
            where = request.client.host if request.client is not None else "unknown"
            await self.accounts.call(  # for the boosting review (:mod:`.boosting`)
                self.ratings.store.add_seat_address, table_id, plan.account.id,
                self.accounts.key.address_digest(where),
            )
        else:
            set_seat_cookie(response, request, table_id, token, waiting)

    async def seat_token(self, request: Request, table: Table, header: str | None) -> str:
        """The seat credential of a call: the header's token, else (CSRF-checked) the
        account's seat or the guest's cookie."""
        if header:
            return header
        check_csrf(request)
        token = await self._cookie_token(request, table)
        if token is None:
            raise LobbyError(403, "bad_token", "this token holds no seat at this table")
        return token

    async def _cookie_token(self, connection: Request | WebSocket, table: Table) -> str | None:
        account = await self.accounts.current(connection)
        if account is not None:
            token = self.accounts.key.account_seat_token(account.id, table.id)
            if table.seat_of(token) is not None:
                return token
        return seat_cookie(connection, table.id)

    async def hello_token(self, websocket: WebSocket, table: Table) -> str | None:
        """The seat a socket's cookies hold, for a hello that asks for it; never for a
        socket another site opened (the browser would send our cookies along)."""
        if not same_origin(websocket):
            return None
        return await self._cookie_token(websocket, table)

    async def seat_of(self, request: Request, table: Table, header: str | None) -> int:
        number = table.seat_of(await self.seat_token(request, table, header))
        if number is None:
            raise LobbyError(403, "bad_token", "this token holds no seat at this table")
        return number

    async def leaving(self, table: Table, seat: int, why: str = "left") -> None:
        """An account's player leaves a game in play (or its time ran out): it ranks last
        when the game is rated (:mod:`.ratings`). A guest's seat changes nothing for the
        accounts: guests never count, and the accounts' order among themselves stands."""
        state = table.state
        if state is None or state.is_over:
            return
        store = self.accounts.store
        owner = (await self.accounts.call(store.seat_owners, table.id)).get(seat)
        if owner is not None:
            await self.accounts.call(
                store.record_leaver, table.id, owner, seat, table.version, why
            )

    def _timed_out(self, event: tuple[Table, int]) -> None:
        table, seat = event
        task = asyncio.get_running_loop().create_task(self._timed_out_quietly(table, seat))
        self.master.hall.keep(task)

    async def _timed_out_quietly(self, table: Table, seat: int) -> None:
        try:
            await self.leaving(table, seat, "clock")
        except StorageError as error:
            log.warning("table %s: a seat's time out not stored (%s)", table.id, error)

    async def left(self, request: Request, response: Response, table_id: str, seat: int) -> None:
        await self.accounts.call(self.accounts.store.disown_seat, table_id, seat)
        clear_seat_cookie(response, request, table_id)
