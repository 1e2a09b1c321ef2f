"""The lobby's routes: list, open, look at, join, leave and start tables, a game's seat
history, the archive, and a finished game's record and replay.

Seat tokens travel in the ``X-Seat-Token`` header, never in a URL, so access logs never
hold one.
"""

from __future__ import annotations

from typing import Annotated, Any, Final

from fastapi import APIRouter, Header, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field, JsonValue

from kingsbreakfast.bots import OPPONENT_LEVELS

from ..consent import seat_history
from ..lobby import check_table, clean_name
from ..master import ArchivedGame, ReplayStep
from ..tables import Table
from ..wire import TableInfo
from .deps import MasterDep, OpenersDep, SiteDep, address
from .errors import ERRORS
from .people import keep_apart

router = APIRouter()

LOBBY_PAGE: Final = 50
"""Tables in one page of the lobby list (``limit`` may ask for up to ``LOBBY_PAGE_MAX``)."""
LOBBY_PAGE_MAX: Final = 100


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


def _grant(info: TableInfo, table: Table, seat: int, token: str) -> SeatGrant:
    return SeatGrant(
        table=info, seat=seat, token=token, invite=f"/t/{table.id}", pending=False
    )


# -- the lobby ------------------------------------------------------------------------------
@router.get("/api/tables", response_model=list[TableInfo])
async def list_tables(
    master: MasterDep,
    response: Response,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    limit: Annotated[int, Query(ge=1, le=LOBBY_PAGE_MAX)] = LOBBY_PAGE,
) -> list[TableInfo]:
    """Public tables waiting for players or in play, a page at a time (the header
    ``X-Total-Count`` says how many there are in all)."""
    every = await master.lobby_tables()
    response.headers["X-Total-Count"] = str(len(every))
    return every[offset:offset + limit]


@router.post("/api/tables", response_model=SeatGrant, status_code=201, responses=ERRORS)
async def create_table(
    body: CreateTable, request: Request, response: Response, master: MasterDep,
    site: SiteDep, openers: OpenersDep,
) -> SeatGrant:
    """Open a table; the creator hosts it from seat 0 (a logged-in player's seat is
    their account's). A few tables a minute from one address, 429 beyond; a request
    refused for its content costs nothing from the address's allowance."""
    check_table(body.seats, body.rules, body.bot_level, body.clock_seconds)
    plan = await site.creating(request)
    display = clean_name(plan.account.name if plan.account else body.name)
    if plan.account is None:  # a guest never sits under a name an account has
        await site.accounts.guest_may_use(display)
    await openers.admit(address(request.client))
    table, seat, token = await master.create_table(
        plan.account.name if plan.account else body.name, seats=body.seats,
        rules=body.rules, bot_level=body.bot_level, clock_seconds=body.clock_seconds,
        public=body.public, table_id=plan.table_id, token=plan.token,
    )
    await site.seated(request, response, table.id, seat, token, plan)
    return _grant(table.public_info(), table, seat, token)  # (nobody is connected yet)


@router.get("/api/tables/{table_id}", response_model=TableInfo, responses=ERRORS)
async def get_table(table_id: str, master: MasterDep) -> TableInfo:
    return (await master.held(table_id)).public_info()


@router.post(
    "/api/tables/{table_id}/join", response_model=SeatGrant, status_code=201,
    responses=ERRORS,
)
async def join_table(
    table_id: str, body: JoinTable, request: Request, response: Response,
    master: MasterDep, site: SiteDep,
    x_seat_token: Annotated[str | None, Header(max_length=64)] = None,
) -> SeatGrant:
    """Take the first free seat by the invite link (an account keeps the seat it has).
    During play a freed seat is only asked for (202, ``pending``): the host accepts or
    declines at the table. Send the token you already hold here, if any: one person
    holds one seat."""
    plan = await site.joining(request, (await master.held(table_id)).table)
    if plan.existing is not None and plan.token is not None:
        seat, token = plan.existing, plan.token
    else:
        if plan.account is None:  # a guest never sits under a name an account has
            await site.accounts.guest_may_use(clean_name(body.name))
        else:  # never at one table with an account it blocked, or that blocked it
            await keep_apart(site, plan.account, table_id)
        seat, token = await master.join(
            table_id, plan.account.name if plan.account else body.name, plan.token,
            x_seat_token,
        )
    actor = await master.held(table_id)
    table = actor.table
    grant = _grant(actor.public_info(), table, seat, token)
    if not table.seats[seat].holds(token):  # asked for only: nothing is seated yet
        grant.pending = True
        response.status_code = 202
        return grant
    await site.seated(request, response, table_id, seat, token, plan)
    return grant


@router.get(
    "/api/tables/{table_id}/holders", response_model=list[HolderInfo], responses=ERRORS
)
async def seat_holders(table_id: str, master: MasterDep) -> list[HolderInfo]:
    """Who held each seat from which version on: the game's history of seats."""
    return [
        HolderInfo(seat=h.seat, since=h.since, kind=h.kind, name=h.name)
        for h in await seat_history(master.journal, table_id)
    ]


@router.post("/api/tables/{table_id}/leave", status_code=204, responses=ERRORS)
async def leave_table(
    table_id: str, request: Request, master: MasterDep, site: SiteDep,
    x_seat_token: Annotated[str | None, Header(max_length=64)] = None,
) -> Response:
    """Free your seat; your token stops working at once. Without the header, the seat
    this browser's cookies hold (with the CSRF header)."""
    table = (await master.held(table_id)).table
    token = await site.seat_token(request, table, x_seat_token)
    seat = table.seat_of(token)
    if seat is not None:  # an account leaving a game in play loses it (docs/accounts.md)
        await site.leaving(table, seat)
    await master.leave(table_id, token)
    response = Response(status_code=204)
    if seat is not None:
        await site.left(request, response, table_id, seat)
    return response


@router.post("/api/tables/{table_id}/start", response_model=TableInfo, responses=ERRORS)
async def start_table(
    table_id: str, request: Request, master: MasterDep, site: SiteDep,
    x_seat_token: Annotated[str | None, Header(max_length=64)] = None,
) -> TableInfo:
    """The host deals; bots take the empty seats."""
    token = await site.seat_token(request, (await master.held(table_id)).table, x_seat_token)
    await master.start(table_id, token)
    return (await master.held(table_id)).public_info()


# -- finished games -------------------------------------------------------------------------
@router.get("/api/archive", response_model=list[ArchivedGame], responses=ERRORS)
async def archive(master: MasterDep) -> list[ArchivedGame]:
    """Recently finished public games."""
    return await master.archive()


@router.get("/games/{game_id}/record", responses=ERRORS)
async def game_record(game_id: str, master: MasterDep) -> dict[str, Any]:
    """The full ``kingsbreakfast/1`` record, once the game is over (409 before)."""
    return await master.record(game_id)


# no response model: the engine's score shape is a plain TypedDict pydantic cannot read
@router.get("/games/{game_id}/replay/{step}", response_model=None, responses=ERRORS)
async def game_replay(game_id: str, step: int, master: MasterDep) -> ReplayStep:
    """A finished game as it stood after ``step`` actions, every hand shown."""
    return await master.replay_step(game_id, step)
