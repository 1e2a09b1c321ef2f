"""Play now: one call seats a guest or an account at a table of strangers of the chosen size
and speed (the waiting and matching are :mod:`..matching`'s).

``POST /api/play-now`` answers at once with the table and seat (the seat's cookie is set, as a
join sets it); the page then waits at that table, which starts when it is full or, at the
stated deadline, with bots in the empty seats. ``GET /api/play-now`` says how long the wait
is before anyone asks; ``GET /api/play-now/tables/{id}`` tells a waiting page its deadline.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Annotated, Literal, cast

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from ..lobby import LobbyError, clean_name
from ..master import Master
from ..matching import BOT_LEVEL, SPEEDS, WAIT, Group, Member, Pool
from ..ratings import ordinal
from ..site import Site
from .deps import MasterDep, OpenersDep, SiteDep, address
from .errors import ERRORS

log = logging.getLogger("kingsbreakfast.server")
router = APIRouter()


class PlayNow(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field("", max_length=200, description="a guest's display name")
    seats: int = Field(4, ge=3, le=5, description="size of the table (R2: 3 to 5)")
    speed: Literal["live", "turn"] = Field(
        "live", description="live (a minute a move) or turn-based (a day a move)"
    )
    avoid: list[Annotated[str, Field(max_length=64)]] = Field(
        default_factory=list, max_length=200, description="names of players you muted"
    )


class Waiting(BaseModel):
    table: str
    seat: int
    invite: str
    seats: int
    speed: str
    players: int = Field(description="people seated so far, you included")
    deadline_ms: int = Field(description="when bots fill the empty seats (epoch ms)")


class Plan(BaseModel):
    wait_seconds: int
    speeds: dict[str, int] = Field(description="the turn clock of each speed, in seconds")


class Matchmaker:
    """The process's pool of waiting groups, the lock that seats one newcomer at a time, and
    the timers that start each group at its deadline."""

    def __init__(self) -> None:
        self.pool = Pool()
        self.lock = asyncio.Lock()
        self.timers: set[asyncio.Task[None]] = set()

    def prune(self, master: Master) -> None:
        """Forget members who left their waiting table, and groups whose table is gone or
        already dealt (the host started it early)."""
        for table_id, group in list(self.pool.groups.items()):
            actor = master.actors.get(table_id)
            if actor is None or actor.table.state is not None:
                self.pool.close(table_id)
                continue
            seats = actor.table.seats
            group.members = [m for m in group.members if seats[m.seat].holds(m.token)]

    async def start(self, master: Master, group: Group) -> None:
        """Deal the group's table: bots take the seats nobody took (the deal does that)."""
        self.pool.close(group.table)
        actor = master.actors.get(group.table)
        if actor is None or actor.table.state is not None:
            return
        host = actor.table.host
        token = next((m.token for m in group.members if m.seat == host
                      and actor.table.seats[m.seat].holds(m.token)), None)
        if token is None:
            log.info("play now: table %s has nobody left to start it", group.table)
            return
        try:
            await master.start(group.table, token)
        except LobbyError as refused:  # started meanwhile, or gone
            log.info("play now: table %s not started: %s", group.table, refused.code)

    def start_at_deadline(self, master: Master, group: Group) -> None:
        async def wait_then_start() -> None:
            await asyncio.sleep(max(0.0, group.deadline - time.time()))
            async with self.lock:
                if self.pool.groups.get(group.table) is group:
                    self.prune(master)
                    if group.table in self.pool.groups:
                        await self.start(master, group)

        task = asyncio.get_running_loop().create_task(wait_then_start())
        self.timers.add(task)
        task.add_done_callback(self.timers.discard)


def matchmaker(request: Request) -> Matchmaker:
    state = request.app.state
    found = getattr(state, "matchmaker", None)
    if found is None:
        found = state.matchmaker = Matchmaker()
    return cast(Matchmaker, found)


def _waiting(group: Group, seat: int) -> Waiting:
    return Waiting(
        table=group.table, seat=seat, invite=f"/t/{group.table}", seats=group.seats,
        speed=group.speed, players=len(group.members), deadline_ms=int(group.deadline * 1000),
    )


async def _already_seated(
    request: Request, site: Site, master: Master, group: Group
) -> tuple[int, str] | None:
    """The seat (and its token) this account or browser already holds at the group's
    table, if any."""
    actor = master.actors.get(group.table)
    if actor is None:
        return None
    try:
        token = await site.seat_token(request, actor.table, None)
    except LobbyError:
        return None
    seat = actor.table.seat_of(token)
    return None if seat is None else (seat, token)


@router.get("/api/play-now", response_model=Plan, tags=["play now"])
async def plan() -> Plan:
    """How long play now waits for strangers before bots fill the empty seats."""
    return Plan(wait_seconds=round(WAIT), speeds=dict(SPEEDS))


@router.post("/api/play-now", response_model=Waiting, status_code=201, responses=ERRORS,
             tags=["play now"])
async def play_now(
    body: PlayNow, request: Request, response: Response, master: MasterDep, site: SiteDep,
    openers: OpenersDep,
) -> Waiting:
    """Seat the caller at a table of strangers of this size and speed: a waiting one that
    suits them (never their own, never one with a player they muted or who muted them;
    accounts with their equals in rating when there are enough), else a new one."""
    account = await site.writer(request)
    name = clean_name(account.name if account else body.name)
    if account is None:  # a guest never sits under a name an account has
        await site.accounts.guest_may_use(name)
    rating = ordinal(account.mu, account.sigma) if account else None
    avoids = frozenset(n.strip().casefold() for n in body.avoid if n.strip())
    maker = matchmaker(request)
    async with maker.lock:
        maker.prune(master)
        # one person waits at one table: the same seat back for the same wish; asking for
        # another size or speed gives up the seat they waited in
        for group in list(maker.pool.groups.values()):
            held = await _already_seated(request, site, master, group)
            if held is None:
                continue
            seat, token = held
            if group.seats == body.seats and group.speed == body.speed:
                return _waiting(group, seat)
            await master.leave(group.table, token)
            group.members = [m for m in group.members if m.seat != seat]
        group_found = maker.pool.choose(
            body.seats, body.speed, name, account.id if account else None, rating, avoids
        )
        if group_found is None:
            await openers.admit(address(request.client))
            plan_ = await site.creating(request)
            table, seat, token = await master.create_table(
                name, seats=body.seats, rules={}, bot_level=BOT_LEVEL,
                clock_seconds=SPEEDS[body.speed], public=False, table_id=plan_.table_id,
                token=plan_.token,
            )
            await site.seated(request, response, table.id, seat, token, plan_, WAIT)
            group = maker.pool.open(table.id, body.seats, body.speed)
            group.members.append(Member(seat, token, name, account.id if account else None,
                                        rating, avoids))
            maker.start_at_deadline(master, group)
            return _waiting(group, seat)
        group = group_found
        actor = await master.held(group.table)
        joining = await site.joining(request, actor.table)
        seat, token = await master.join(group.table, name, joining.token, None)
        await site.seated(request, response, group.table, seat, token, joining, WAIT)
        group.members.append(Member(seat, token, name, account.id if account else None,
                                    rating, avoids))
        answer = _waiting(group, seat)
        if len(group.members) >= group.seats:
            await maker.start(master, group)
        return answer


@router.get("/api/play-now/tables/{table_id}", response_model=Waiting,
            responses={204: {"description": "no play-now group waits at this table"}},
            tags=["play now"])
async def waiting(table_id: str, request: Request) -> Waiting | Response:
    """A waiting play-now table: how many sit there and when the bots fill the rest; 204
    for any other table (every table page asks, so that is no error)."""
    group = matchmaker(request).pool.groups.get(table_id)
    if group is None:
        return Response(status_code=204)
    return _waiting(group, -1)
