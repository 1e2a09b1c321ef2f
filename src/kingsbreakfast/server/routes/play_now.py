"""Play now: one call seats a guest or an account at a table of strangers of the chosen size
and speed (the waiting and matching are :mod:`..matching`'s).

``POST /api/play-now`` answers at once with the table and seat (the seat's cookie is set, as a
join sets it), the seat reserved in the site's pool (:mod:`..play_pool`); the page then opens
the table's socket within a few seconds, which makes the seat its own
(:mod:`..waiting`), and waits there until the table is full of present players or, at the
stated deadline, is dealt with bots in the empty seats. ``GET /api/play-now`` says how long the wait
is before anyone asks; ``GET /api/play-now/tables/{id}`` tells a waiting page its deadline.
"""

from __future__ import annotations

import logging
import secrets
from typing import Annotated, Literal

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from ..lobby import clean_name
from ..matching import BOT_LEVEL, SPEEDS, WAIT, Group
from ..play_pool import Wish
from ..rating_rules import ordinal
from ..sessions import SEAT_COOKIE, set_seat_cookie
from ..tables import new_token, token_digest
from .deps import MasterDep, OpenersDep, SiteDep, address
from .errors import ERRORS
from .people import avoided

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


def _waiting(group: Group, seat: int) -> Waiting:
    return Waiting(
        table=group.table, seat=seat, invite=f"/t/{group.table}", seats=group.seats,
        speed=group.speed, players=len(group.members), deadline_ms=int(group.deadline * 1000),
    )


def _held_tokens(request: Request) -> frozenset[str]:
    """Digests of the seat cookies this browser sends to play now (one per table it waits
    at, :func:`~..sessions.set_seat_cookie`): the same browser gets its seat back."""
    return frozenset(
        token_digest(value) for name, value in request.cookies.items()
        if name.startswith(SEAT_COOKIE) and value and len(value) <= 64
    )


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
    avoids |= await avoided(site, account)  # blocks, either way: never one group
    room = site.waiting
    keys = site.accounts.key
    guest_token = new_token()
    wish = Wish(body.seats, body.speed, name, account.id if account else None, rating, avoids,
                _held_tokens(request))

    def token_for(table_id: str) -> str:
        return keys.account_seat_token(account.id, table_id) if account else guest_token

    async with room.lock:
        again = await master.journal.call(room.pool.again, wish)
        if again is not None:  # one person waits at one table: the same seat back
            return _waiting(again.group, again.seat)
        await openers.admit(address(request.client))  # a seat counts as a table opened
        stored: str | None = None  # a table stored for a new group, before the group
        try:
            while True:
                seating = await master.journal.call(
                    room.pool.seat, wish, stored, WAIT, token_for, token_digest
                )
                if seating is not None:
                    break
                stored = secrets.token_urlsafe(9)  # no group suits: its table comes first
                await master.create_table(
                    name, seats=body.seats, rules={}, bot_level=BOT_LEVEL,
                    clock_seconds=SPEEDS[body.speed], public=False, table_id=stored,
                    token=token_for(stored),
                )
        except BaseException:
            if stored is not None:
                await master.discard_lobby(stored)
            raise
        if stored is not None and not seating.opened:  # a group opened meanwhile: joined
            await master.discard_lobby(stored)
        group, token = seating.group, seating.token
    if seating.again or token is None:
        return _waiting(group, seating.seat)
    if seating.left is not None and seating.left_table is not None:
        await room.forget(seating.left_table, seating.left)
    if account is None:  # an account's seat becomes its own once present (..waiting)
        set_seat_cookie(response, request, group.table, token, WAIT)
    return _waiting(group, seating.seat)


@router.get("/api/play-now/tables/{table_id}", response_model=Waiting,
            responses={204: {"description": "no play-now group waits at this table"}},
            tags=["play now"])
async def waiting(table_id: str, master: MasterDep, site: SiteDep) -> Waiting | Response:
    """A waiting play-now table: how many sit there and when the bots fill the rest; 204
    for any other table (every table page asks, so that is no error)."""
    if len(table_id) > 32:
        return Response(status_code=204)
    group = await master.journal.call(site.waiting.pool.group, table_id)
    if group is None:
        return Response(status_code=204)
    return _waiting(group, -1)
