"""Tournaments (docs/tournaments.md): the list, one tournament with its standings and
tables, making one (an account; the operator uses ``kingsbreakfast tournament-admin``),
and entering or leaving it. The page polls ``GET /api/tournaments/{id}?since=version``,
which answers 204 while nothing changed."""

from __future__ import annotations

import time
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.requests import HTTPConnection
from pydantic import BaseModel, ConfigDict, Field

from ..lobby import LobbyError
from ..tournaments.making import make_setup
from ..tournaments.service import Tournaments, refused
from ..tournaments.store import EntryRefused
from .deps import MasterDep, SiteDep
from .errors import ERRORS

router = APIRouter()


async def _tournaments(connection: HTTPConnection) -> Tournaments:
    return connection.app.state.tournaments  # type: ignore[no-any-return]


TournamentsDep = Annotated[Tournaments, Depends(_tournaments)]


class Making(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200)
    kind: Literal["swiss", "arena"] = "swiss"
    seats: int = Field(4, ge=3, le=5, description="size of every table (R2)")
    speed: Literal["live", "turn"] = "live"
    rated: bool = False
    rounds: int = Field(3, ge=1, le=9, description="Swiss: rounds to play")
    minutes: int = Field(30, ge=5, le=240, description="arena: how long it runs")
    starts_in: int = Field(300, ge=0, le=7 * 86400, description="seconds until it starts")
    bots: int = Field(0, ge=0, le=8, description="bots entered by name (the chef first)")
    bot_level: str = Field("chef", max_length=16, description="how every bot plays")


@router.get("/api/tournaments", tags=["tournaments"])
async def listing(tournaments: TournamentsDep) -> list[dict[str, Any]]:
    """The newest tournaments, open, running and over."""
    return await tournaments.listing()


@router.post("/api/tournaments", status_code=201, responses=ERRORS, tags=["tournaments"])
async def make(body: Making, request: Request, site: SiteDep,
               tournaments: TournamentsDep) -> dict[str, Any]:
    """Make a tournament (an account); its maker is not entered by it."""
    account = await site.writer(request)
    if account is None:
        raise LobbyError(401, "login_required", "log in to make a tournament")
    setup = make_setup(
        name=body.name, kind=body.kind, seats=body.seats, speed=body.speed, rated=body.rated,
        rounds=body.rounds, minutes=body.minutes, starts_in=body.starts_in, bots=body.bots,
        bot_level=body.bot_level, created_by=account.id, now=time.time(),
    )
    try:
        made = await tournaments.master.journal.call(tournaments.store.create, setup,
                                                     time.time())
    except EntryRefused as error:
        raise refused(error) from None
    tournaments.wake()
    return {"id": made.id}


@router.get("/api/tournaments/{tournament_id}", responses={
    **ERRORS, 204: {"description": "unchanged since the version asked about"}},
    tags=["tournaments"])
async def show(tournament_id: str, request: Request, site: SiteDep,
               tournaments: TournamentsDep,
               since: Annotated[int | None, Query(ge=0)] = None) -> Any:
    """One tournament: settings, entrants (bots marked), standings and tables; 204 when
    ``since`` is its version still."""
    if len(tournament_id) > 32:
        raise LobbyError(404, "no_tournament", "there is no such tournament")
    if since is not None and await tournaments.version(tournament_id) == since:
        return Response(status_code=204)
    account = await site.accounts.current(request)
    return await tournaments.show(tournament_id, None if account is None else account.id)


@router.post("/api/tournaments/{tournament_id}/start", status_code=204, responses=ERRORS,
             tags=["tournaments"])
async def start_now(tournament_id: str, request: Request, site: SiteDep, master: MasterDep,
                    tournaments: TournamentsDep) -> Response:
    """Its maker starts an open tournament now (an arena keeps its length)."""
    account = await site.writer(request)
    if account is None:
        raise LobbyError(401, "login_required", "log in first")
    if not await master.journal.call(tournaments.store.start_now, tournament_id[:32],
                                     account.id, time.time()):
        raise LobbyError(409, "not_yours", "only its maker may start an open tournament")
    tournaments.wake()
    return Response(status_code=204)


@router.post("/api/tournaments/{tournament_id}/entry", status_code=201, responses=ERRORS,
             tags=["tournaments"])
async def enter(tournament_id: str, request: Request, site: SiteDep, master: MasterDep,
                tournaments: TournamentsDep) -> dict[str, Any]:
    """Enter (an account): a Swiss before it starts, an arena until it ends."""
    account = await site.writer(request)
    if account is None:
        raise LobbyError(401, "login_required", "log in to enter a tournament")
    try:
        entrant = await master.journal.call(tournaments.store.enter, tournament_id[:32],
                                            account.name, account.id, False, time.time())
    except EntryRefused as error:
        raise refused(error) from None
    tournaments.wake()
    return {"entrant": entrant.number}


@router.delete("/api/tournaments/{tournament_id}/entry", status_code=204, responses=ERRORS,
               tags=["tournaments"])
async def leave(tournament_id: str, request: Request, site: SiteDep, master: MasterDep,
                tournaments: TournamentsDep) -> Response:
    """Leave: before the start, or an arena at any time (its games count)."""
    account = await site.writer(request)
    if account is None:
        raise LobbyError(401, "login_required", "log in first")
    try:
        await master.journal.call(tournaments.store.withdraw, tournament_id[:32], account.id,
                                  time.time())
    except EntryRefused as error:
        raise refused(error) from None
    return Response(status_code=204)


@router.get("/api/tournaments/{tournament_id}/seat", responses=ERRORS, tags=["tournaments"])
async def my_seat(tournament_id: str, request: Request, site: SiteDep,
                  tournaments: TournamentsDep) -> dict[str, Any]:
    """The caller's table now, with its seat token (as a rematch hands one): a program
    playing for an account plays its tournament games with it."""
    account = await site.accounts.current(request)
    if account is None:
        raise LobbyError(401, "login_required", "log in first")
    shown = await tournaments.show(tournament_id[:32], account.id)
    you = shown["you"]
    if you is None or you["table"] is None:
        raise LobbyError(404, "no_table", "you have no table in this tournament now")
    token = site.accounts.key.account_seat_token(account.id, you["table"])
    return {"table": you["table"], "seat": you["seat"], "token": token}
