"""The ASGI app: a small JSON lobby API (with an OpenAPI schema), the play WebSocket and the
browser client's static files.

Seat tokens travel in the ``X-Seat-Token`` header or the WebSocket's first frame, never in a
URL, so access logs never hold one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Final

from fastapi import FastAPI, Header, Query, Request, WebSocket
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, JsonValue

from kingsbreakfast.bots import OPPONENT_LEVELS
from kingsbreakfast.i18n import UnknownLanguageError
from kingsbreakfast.i18n import accept_language as i18n_accept_language

from . import collector, metrics, strings, web_assets
from .consent import seat_history
from .hints import register_hint
from .limits import BodyLimit, PerAddress, Refused, ServerLimits, SocketGate
from .lobby import check_table, clean_name
from .master import ArchivedGame, LobbyError, Master, ReplayStep
from .site import Site, install
from .storage import DEFAULT_URL, Storage, StorageError
from .tables import Table
from .transport import OUTBOX_FRAMES, SocketOutbox, send_and_close, session
from .wire import CLOSE_CROWDED, CLOSE_NO_TABLE, CLOSE_TRY_LATER, TableInfo

__all__ = ["OUTBOX_FRAMES", "SocketOutbox", "create_app", "static_dir"]

log = logging.getLogger("kingsbreakfast.server")

def static_dir() -> Path:
    return Path(str(resources.files("kingsbreakfast.web").joinpath("static")))


# -- request and answer bodies (the OpenAPI schema is built from these) -------------------


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(description="the host's display name", max_length=200)
    seats: int = Field(4, ge=3, le=5, description="number of seats (R2: 3 to 5)")
    rules: dict[str, JsonValue] = Field(default_factory=dict, description="variant switches")
    bot_level: str = Field("easy", description=f"one of {', '.join(OPPONENT_LEVELS)}")
    clock_seconds: int | None = Field(
        None, ge=5, le=14 * 24 * 3600,
        description="turn clock: 5–3600 s, or whole hours up to 14 days (turn-based)",
    )
    public: bool = Field(True, description="listed in the public table list")


class JoinTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(description="display name", max_length=200)


class SeatGrant(BaseModel):
    table: TableInfo
    seat: int
    token: str = Field(description="keep it secret: it acts for this seat only")
    invite: str = Field(description="the link to share with friends")
    pending: bool = Field(
        False, description="the seat was freed during play: the host must accept first"
    )


class HolderInfo(BaseModel):
    seat: int
    since: int = Field(description="the game's version from which this holder held the seat")
    kind: str = Field(description="human or bot")
    name: str = Field(description="a person's display name; empty for a bot")


class ErrorBody(BaseModel):
    code: str
    message: str
    params: dict[str, JsonValue]


class ErrorReply(BaseModel):
    error: ErrorBody


ERRORS: Final[dict[int | str, dict[str, Any]]] = {
    code: {"model": ErrorReply} for code in (403, 404, 409, 413, 422, 429, 503)
}
LOBBY_PAGE: Final = 50
"""Tables in one page of the lobby list (``limit`` may ask for up to ``LOBBY_PAGE_MAX``)."""
LOBBY_PAGE_MAX: Final = 100


def _error(status: int, code: str, message: str, params: dict[str, JsonValue]) -> JSONResponse:
    return JSONResponse(
        {"error": {"code": code, "message": message, "params": params}}, status_code=status
    )


def create_app(
    db_url: str = DEFAULT_URL,
    *,
    bot_delay: float = 0.6,
    zombie_grace: float = 30.0,
    master: Master | None = None,
    lease_seconds: float | None = None,
    migrate: bool = True,
    limits: ServerLimits | None = None,
    site_key: str | None = None,
) -> FastAPI:
    """The whole server as one ASGI app (give ``master`` to share one with a test). With
    ``lease_seconds`` the process shares its PostgreSQL database with others, holding each
    table it serves by a lease of that length (docs/deploy.md)."""
    bounds = limits or ServerLimits()
    the_master = master or Master(
        Storage(db_url), bot_delay=bot_delay, zombie_grace=zombie_grace,
        lease_seconds=lease_seconds, lobby_expiry=bounds.lobby_expiry,
    )
    gate = SocketGate(bounds.sockets_per_address, bounds.sockets_per_table)
    openers = PerAddress(bounds.tables_per_minute, bounds.tables_burst)
    metrics.watch(lambda: len(the_master.tables), lambda: gate.open)
    site: Site

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await the_master.open(migrate=migrate)
        await site.open()
        thresholds = collector.take_over()
        passes = asyncio.get_running_loop().create_task(collector.full_passes())
        try:
            yield
        finally:
            passes.cancel()
            collector.give_back(thresholds)
            await the_master.close()
            site.close()

    app = FastAPI(
        title="King's Breakfast server",
        version="1",
        description="Lobby API of the King's Breakfast game server; play is over WebSocket "
        "at /ws/tables/{id} (see docs/server.md).",
        lifespan=lifespan,
    )
    app.state.master = the_master
    site = install(app, the_master, site_key)
    app.state.site = site
    app.state.gate = gate
    app.add_middleware(BodyLimit, limit=bounds.body_bytes)
    register_hint(app, the_master)

    @app.exception_handler(Refused)
    async def refused(_request: Request, error: Refused) -> JSONResponse:
        metrics.refused(error.code)
        status = 413 if error.code == "body_too_large" else 429
        return _error(status, error.code, error.message, dict(error.params))

    @app.exception_handler(LobbyError)
    async def lobby_error(_request: Request, error: LobbyError) -> JSONResponse:
        return _error(error.status, error.code, error.message, error.params)

    @app.exception_handler(StorageError)
    async def storage_error(_request: Request, error: StorageError) -> JSONResponse:
        return _error(
            503, error.code, "the database is not answering; try again",
            {"retryable": True},
        )

    # -- lobby --------------------------------------------------------------------------
    @app.get("/api/tables", response_model=list[TableInfo])
    async def list_tables(
        response: Response,
        offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
        limit: Annotated[int, Query(ge=1, le=LOBBY_PAGE_MAX)] = LOBBY_PAGE,
    ) -> list[TableInfo]:
        """Public tables waiting for players or in play, a page at a time (the header
        ``X-Total-Count`` says how many there are in all)."""
        every = await the_master.lobby_tables()
        response.headers["X-Total-Count"] = str(len(every))
        return every[offset:offset + limit]

    @app.post("/api/tables", response_model=SeatGrant, status_code=201, responses=ERRORS)
    async def create_table(body: CreateTable, request: Request, response: Response) -> SeatGrant:
        """Open a table; the creator hosts it from seat 0 (a logged-in player's seat is
        their account's). A few tables a minute from one address, 429 beyond; a request
        refused for its content costs nothing from the address's allowance."""
        check_table(body.seats, body.rules, body.bot_level, body.clock_seconds)
        plan = await site.creating(request)
        clean_name(plan.account.name if plan.account else body.name)
        openers.take(_address(request.client))
        table, seat, token = await the_master.create_table(
            plan.account.name if plan.account else body.name, seats=body.seats,
            rules=body.rules, bot_level=body.bot_level, clock_seconds=body.clock_seconds,
            public=body.public, table_id=plan.table_id, token=plan.token,
        )
        await site.seated(request, response, table.id, seat, token, plan)
        return _grant(table, seat, token)

    @app.get("/api/tables/{table_id}", response_model=TableInfo, responses=ERRORS)
    async def get_table(table_id: str) -> TableInfo:
        return (await the_master.held(table_id)).public_info()

    @app.post(
        "/api/tables/{table_id}/join", response_model=SeatGrant, status_code=201,
        responses=ERRORS,
    )
    async def join_table(
        table_id: str, body: JoinTable, request: Request, response: Response,
        x_seat_token: Annotated[str | None, Header(max_length=64)] = None,
    ) -> SeatGrant:
        """Take the first free seat by the invite link (an account keeps the seat it has).
        During play a freed seat is only asked for (202, ``pending``): the host accepts or
        declines at the table. Send the token you already hold here, if any: one person
        holds one seat."""
        plan = await site.joining(request, await the_master.held(table_id))
        if plan.existing is not None and plan.token is not None:
            seat, token = plan.existing, plan.token
        else:
            seat, token = await the_master.join(
                table_id, plan.account.name if plan.account else body.name, plan.token,
                x_seat_token,
            )
        table = await the_master.held(table_id)
        grant = _grant(table, seat, token)
        if not table.seats[seat].holds(token):  # asked for only: nothing is seated yet
            grant.pending = True
            response.status_code = 202
            return grant
        await site.seated(request, response, table_id, seat, token, plan)
        return grant

    @app.get(
        "/api/tables/{table_id}/holders", response_model=list[HolderInfo], responses=ERRORS
    )
    async def seat_holders(table_id: str) -> list[HolderInfo]:
        """Who held each seat from which version on: the game's history of seats."""
        return [
            HolderInfo(seat=h.seat, since=h.since, kind=h.kind, name=h.name)
            for h in await seat_history(the_master.journal, table_id)
        ]

    @app.post("/api/tables/{table_id}/leave", status_code=204, responses=ERRORS)
    async def leave_table(
        table_id: str, request: Request,
        x_seat_token: Annotated[str | None, Header(max_length=64)] = None,
    ) -> Response:
        """Free your seat; your token stops working at once. Without the header, the seat
        this browser's cookies hold (with the CSRF header)."""
        table = await the_master.held(table_id)
        token = await site.seat_token(request, table, x_seat_token)
        seat = table.seat_of(token)
        await the_master.leave(table_id, token)
        response = Response(status_code=204)
        if seat is not None:
            await site.left(request, response, table_id, seat)
        return response

    @app.post("/api/tables/{table_id}/start", response_model=TableInfo, responses=ERRORS)
    async def start_table(
        table_id: str, request: Request,
        x_seat_token: Annotated[str | None, Header(max_length=64)] = None,
    ) -> TableInfo:
        """The host deals; bots take the empty seats."""
        token = await site.seat_token(request, await the_master.held(table_id), x_seat_token)
        await the_master.start(table_id, token)
        return (await the_master.held(table_id)).public_info()

    @app.get("/api/archive", response_model=list[ArchivedGame], responses=ERRORS)
    async def archive() -> list[ArchivedGame]:
        """Recently finished public games."""
        return await the_master.archive()

    @app.get("/games/{game_id}/record", responses=ERRORS)
    async def game_record(game_id: str) -> dict[str, Any]:
        """The full ``kingsbreakfast/1`` record, once the game is over (409 before)."""
        return await the_master.record(game_id)

    # no response model: the engine's score shape is a plain TypedDict pydantic cannot read
    @app.get("/games/{game_id}/replay/{step}", response_model=None, responses=ERRORS)
    async def game_replay(game_id: str, step: int) -> ReplayStep:
        """A finished game as it stood after ``step`` actions, every hand shown."""
        return await the_master.replay_step(game_id, step)

    # -- the client's strings (translation layer) ----------------------------------------
    @app.get("/api/languages", response_model=list[dict[str, str]])
    async def list_languages() -> list[dict[str, str]]:
        """Languages the browser client can be shown in."""
        return strings.languages()

    @app.get("/api/language", response_model=dict[str, str])
    async def preferred_language(
        accept_language: Annotated[str | None, Header()] = None,
    ) -> dict[str, str]:
        """The browser's preferred language among ours, from its Accept-Language header
        (used until the player picks one)."""
        return {"code": i18n_accept_language(accept_language)}

    @app.get("/api/rules/{language}", response_model=dict[str, str], responses=ERRORS)
    async def rules_page(language: str) -> dict[str, str]:
        """The rules explained to a player in ``language``, as HTML for the rules page."""
        try:
            return {"language": language[:16], "html": strings.rules_html(language[:16])}
        except UnknownLanguageError:
            raise LobbyError(
                404, "unknown_language", "there is no catalogue for this language",
                choices=[entry["code"] for entry in strings.languages()],
            ) from None

    @app.get("/api/strings/{language}", response_model=dict[str, str], responses=ERRORS)
    async def client_strings(language: str) -> dict[str, str]:
        """Every browser string (message id → text) in ``language``, English where untranslated."""
        try:
            return strings.catalog(static_dir(), language[:16])
        except UnknownLanguageError:
            raise LobbyError(
                404, "unknown_language", "there is no catalogue for this language",
                choices=[entry["code"] for entry in strings.languages()],
            ) from None

    # -- play ---------------------------------------------------------------------------
    # -- the operator's view ------------------------------------------------------------
    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, str]:
        """Liveness: the process answers."""
        return {"status": "ok"}

    @app.get("/readyz", include_in_schema=False)
    async def readyz() -> JSONResponse:
        """Readiness: the database answers too (503 while it does not)."""
        try:
            await the_master.journal.call(the_master.storage.ping)
        except StorageError:
            return JSONResponse({"status": "database unavailable"}, status_code=503)
        return JSONResponse({"status": "ready"})

    @app.get("/metrics", include_in_schema=False)
    async def prometheus() -> Response:
        return Response(metrics.exposition(), media_type=metrics.CONTENT_TYPE_LATEST)

    # -- play ---------------------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        address, key = _address(websocket.client), table_id[:40]
        try:
            gate.enter(address, key)
        except Refused as crowded:
            metrics.refused(crowded.code)
            await send_and_close(websocket, crowded.code, crowded.message, CLOSE_CROWDED)
            return
        try:
            await _play(websocket, table_id)
        finally:
            gate.leave(address, key)

    async def _play(websocket: WebSocket, table_id: str) -> None:
        try:
            table = await the_master.find(table_id)
        except (LobbyError, StorageError) as error:  # held elsewhere, or the store is away
            await send_and_close(
                websocket, error.code, "the table cannot be served right now; reconnect",
                CLOSE_TRY_LATER,
            )
            return
        if table is None:
            await send_and_close(websocket, "no_table", "there is no such table", CLOSE_NO_TABLE)
            return
        await session(the_master, table, websocket, await site.hello_token(websocket, table))

    # -- the browser client -----------------------------------------------------------
    static = static_dir()
    web_assets.install(app, static)  # versioned assets, compression, security headers
    app.mount("/static", StaticFiles(directory=static), name="static")

    def index(request: Request) -> Response:
        return web_assets.client_page(request)

    app.get("/", include_in_schema=False)(index)
    app.get("/t/{table_id}", include_in_schema=False)(index)
    app.get("/replay/{game_id}", include_in_schema=False)(index)
    app.get("/rules", include_in_schema=False)(index)
    for page in ("/login", "/account", "/me", "/leaderboard"):
        app.get(page, include_in_schema=False)(index)
    app.get("/players/{name}", include_in_schema=False)(index)
    return app


def _address(client: Any) -> str:
    """The peer's address (the proxy's view of it when uvicorn trusts the proxy)."""
    return str(client.host) if client is not None else "unknown"


def _grant(table: Table, seat: int, token: str) -> SeatGrant:
    return SeatGrant(
        table=table.public_info(), seat=seat, token=token, invite=f"/t/{table.id}", pending=False
    )


