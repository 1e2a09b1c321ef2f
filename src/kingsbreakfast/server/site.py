"""Everything a player keeps between games, wired into one app: accounts and sessions,
seats owned by accounts, results and ratings, chat, rematch and turn-based clocks.

:func:`install` adds the routes (docs/accounts.md lists them) and the hooks the table actor
and the match master call; the app's lobby routes ask :class:`Site` who a request is and
which seat credential it carries (a header token, an account's seat, a guest's cookie).
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, JsonValue

from .account_store import START_MU, START_SIGMA, Account
from .accounts import Accounts
from .chat import Chat
from .clocks import TurnClocks
from .history import my_games
from .lobby import LobbyError
from .master import Master
from .rating_plot import rating_svg
from .ratings import Ratings, ordinal, profile_body
from .rematch import Rematches
from .sessions import (
    SEAT_COOKIE_SECONDS,
    SESSION_COOKIE,
    SESSION_SECONDS,
    check_csrf,
    clear_cookie,
    csrf_value,
    same_origin,
    seat_cookie,
    seat_cookie_name,
    set_cookie,
    set_csrf,
)
from .tables import Table


async def secret_body(request: Request) -> dict[str, JsonValue]:
    """A body holding a password, read by hand: whatever is wrong with it, the refusal never
    repeats what was sent (the framework's own validation errors do). Not JSON, or not an
    object, reads as an empty object, whose missing fields are then refused by name."""
    if len(await request.body()) > 4096:
        raise LobbyError(413, "body_too_big", "a request body here has at most 4096 bytes")
    try:
        body = json.loads(await request.body())
    except (ValueError, UnicodeDecodeError):
        return {}
    return body if isinstance(body, dict) else {}


def body_schema(*names: str) -> dict[str, Any]:
    """The OpenAPI description of a body :func:`secret_body` reads."""
    properties = {name: {"type": "string"} for name in names}
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": {
        "type": "object", "properties": properties, "required": list(names),
    }}}}}


class ChatLine(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: JsonValue = None


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
    def __init__(self, master: Master, site_key: str | None = None) -> None:
        self.master = master
        self.accounts = Accounts(master)
        self.ratings = Ratings(self.accounts)
        self.chat = Chat(self.accounts)
        self.rematches = Rematches(self.accounts)
        self.clocks = TurnClocks(self.accounts)
        self._site_key = site_key or os.environ.get("KINGSBREAKFAST_SITE_KEY") or None
        master.hall.game_over = self.ratings.game_over
        master.hall.clock_started = self.clocks.started
        master.on_restore = self.clocks.restore

    async def open(self) -> None:
        await self.accounts.open(self._site_key)
        await self.ratings.catch_up()

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
        plan: SeatPlan,
    ) -> None:
        """The seat is the account's (from any device), or the guest's by an HttpOnly cookie."""
        if plan.account is not None:
            await self.accounts.call(
                self.accounts.store.own_seat, table_id, seat, plan.account.id
            )
        else:
            set_cookie(response, request, seat_cookie_name(table_id), token,
                       SEAT_COOKIE_SECONDS)

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

    async def left(self, request: Request, response: Response, table_id: str, seat: int) -> None:
        await self.accounts.call(self.accounts.store.disown_seat, table_id, seat)
        clear_cookie(response, request, seat_cookie_name(table_id))


def install(app: FastAPI, master: Master, site_key: str | None = None) -> Site:
    """Add the account, rating, history, chat and rematch routes to ``app``."""
    site = Site(master, site_key)
    accounts = site.accounts

    def answer(request: Request, body: dict[str, Any], status: int = 200) -> JSONResponse:
        csrf, fresh = csrf_value(request)
        response = JSONResponse(
            {**body, "csrf": csrf}, status_code=status, headers={"cache-control": "no-store"}
        )
        if fresh:
            set_csrf(response, request, csrf)
        return response

    async def session_answer(request: Request, account: Account, status: int) -> JSONResponse:
        cookie = await accounts.start_session(account, request.cookies.get(SESSION_COOKIE))
        response = answer(request, {"account": account_body(account)}, status)
        set_cookie(response, request, SESSION_COOKIE, cookie, SESSION_SECONDS)
        return response

    @app.get("/api/account", tags=["accounts"])
    async def who_am_i(request: Request) -> JSONResponse:
        """The logged-in account (or null) and the CSRF value to send back in X-CSRF-Token."""
        account = await accounts.current(request)
        return answer(request, {"account": None if account is None else account_body(account)})

    @app.post("/api/account/register", tags=["accounts"], status_code=201,
              openapi_extra=body_schema("name", "password"))
    async def register(request: Request) -> JSONResponse:
        """A new account, logged in at once."""
        check_csrf(request)
        body = await secret_body(request)
        address = request.client.host if request.client else "?"
        account = await accounts.register(body.get("name"), body.get("password"), address)
        return await session_answer(request, account, 201)

    @app.post("/api/account/login", tags=["accounts"],
              openapi_extra=body_schema("name", "password"))
    async def login(request: Request) -> JSONResponse:
        """A new session for this browser."""
        check_csrf(request)
        body = await secret_body(request)
        address = request.client.host if request.client else "?"
        account = await accounts.login(body.get("name"), body.get("password"), address)
        return await session_answer(request, account, 200)

    @app.post("/api/account/logout", tags=["accounts"], status_code=204)
    async def logout(request: Request) -> Response:
        check_csrf(request)
        cookie = request.cookies.get(SESSION_COOKIE)
        if cookie:
            await accounts.end_session(cookie)
        response = Response(status_code=204)
        clear_cookie(response, request, SESSION_COOKIE)
        return response

    @app.post("/api/account/password", tags=["accounts"],
              openapi_extra=body_schema("old", "new"))
    async def change_password(request: Request) -> JSONResponse:
        """Every session of the account ends; this browser gets a new one."""
        account = await _need_account(request)
        body = await secret_body(request)
        await accounts.change_password(account, body.get("old"), body.get("new"))
        return await session_answer(request, account, 200)

    async def _need_account(request: Request) -> Account:
        account = await site.writer(request)
        if account is None:
            raise LobbyError(401, "not_logged_in", "log in first")
        return account

    @app.get("/api/me/games", tags=["accounts"])
    async def games(request: Request) -> dict[str, list[dict[str, Any]]]:
        account = await accounts.current(request)
        if account is None:
            raise LobbyError(401, "not_logged_in", "log in first")
        return await my_games(accounts, account)

    @app.get("/api/leaderboard", tags=["accounts"])
    async def leaderboard(page: int = 1, size: int = 20) -> dict[str, Any]:
        """Accounts with a rated game, best conservative rating (μ − 3σ) first."""
        return await site.ratings.leaderboard(page, size)

    @app.get("/api/players/{name}", tags=["accounts"])
    async def profile(name: str) -> dict[str, Any]:
        account, totals, results = await site.ratings.profile(name[:64])
        return profile_body(account, totals, results)

    @app.get("/api/players/{name}/rating.svg", tags=["accounts"])
    async def rating_plot(name: str, title: str = "", desc: str = "") -> Response:
        """The rating history as SVG; ``title`` and ``desc`` are the page's translated
        words for screen readers."""
        account, _totals, results = await site.ratings.profile(name[:64])
        ratings = [round(ordinal(START_MU, START_SIGMA), 2)]  # where everyone starts
        ratings += [round(ordinal(r.mu, r.sigma), 2) for r in results if r.rated]
        svg = rating_svg(ratings, title[:120] or account.name, desc[:300])
        return Response(svg, media_type="image/svg+xml",
                        headers={"cache-control": "no-cache"})

    @app.get("/api/tables/{table_id}/chat", tags=["table"])
    async def chat_lines(table_id: str) -> list[dict[str, Any]]:
        table = await _found(table_id)
        return await site.chat.lines(table.id)

    @app.post("/api/tables/{table_id}/chat", tags=["table"], status_code=201)
    async def say(request: Request, table_id: str, body: ChatLine) -> dict[str, Any]:
        table = await _found(table_id)
        seat = await site.seat_of(request, table, request.headers.get("x-seat-token"))
        return await site.chat.say(table, seat, body.text)

    @app.post("/api/tables/{table_id}/rematch", tags=["table"])
    async def rematch(request: Request, table_id: str) -> JSONResponse:
        """One click of one player: the new table, their seat and token there."""
        table = await _found(table_id)
        seat = await site.seat_of(request, table, request.headers.get("x-seat-token"))
        again = await site.rematches.vote(table, seat)
        response = answer(request, {
            "table": again.table, "seat": again.seat, "token": again.token,
            "invite": f"/t/{again.table}", "votes": again.votes, "needed": again.needed,
            "started": again.started,
        })
        if table.seats[seat].kind == "human":
            owners = await accounts.call(accounts.store.seat_owners, again.table)
            if seat not in owners:
                set_cookie(response, request, seat_cookie_name(again.table), again.token,
                           SEAT_COOKIE_SECONDS)
        return response

    async def _found(table_id: str) -> Table:
        table = await master.find(table_id)
        if table is None:
            raise LobbyError(404, "no_table", "there is no such table", table=table_id[:40])
        return table

    return site
