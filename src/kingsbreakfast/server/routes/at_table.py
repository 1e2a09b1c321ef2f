"""What a seated player does at a table beside moving: chat, a rematch vote and a hint.

Each call names its seat by the seat's credential (the ``X-Seat-Token`` header, or the
account's or guest's cookie, CSRF-checked), as the lobby's seat calls do.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, JsonValue

from ..actor import TableActor
from ..lobby import LobbyError
from ..master import Master
from ..sessions import set_seat_cookie
from .accounts import answer
from .deps import MasterDep, SiteDep

router = APIRouter()


class ChatLine(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: JsonValue = None


async def _found(master: Master, table_id: str) -> TableActor:
    actor = await master.find(table_id)
    if actor is None:
        raise LobbyError(404, "no_table", "there is no such table", table=table_id[:40])
    return actor


@router.get("/api/tables/{table_id}/chat", tags=["table"])
async def chat_lines(
    request: Request, table_id: str, master: MasterDep, site: SiteDep
) -> list[dict[str, Any]]:
    actor = await _found(master, table_id)
    reader = await site.accounts.current(request)  # an account never reads whom it blocked
    return await site.chat.lines(actor.table.id, None if reader is None else reader.id)


@router.post("/api/tables/{table_id}/chat", tags=["table"], status_code=201)
async def say(
    request: Request, table_id: str, body: ChatLine, master: MasterDep, site: SiteDep
) -> dict[str, Any]:
    actor = await _found(master, table_id)
    seat = await site.seat_of(request, actor.table, request.headers.get("x-seat-token"))
    return await site.chat.say(actor, seat, body.text)


@router.post("/api/tables/{table_id}/rematch", tags=["table"])
async def rematch(
    request: Request, table_id: str, master: MasterDep, site: SiteDep
) -> JSONResponse:
    """One click of one player: the new table, their seat and token there."""
    actor = await _found(master, table_id)
    table = actor.table
    seat = await site.seat_of(request, table, request.headers.get("x-seat-token"))
    again = await site.rematches.vote(actor, seat)
    response = answer(request, {
        "table": again.table, "seat": again.seat, "token": again.token,
        "invite": f"/t/{again.table}", "votes": again.votes, "needed": again.needed,
        "started": again.started,
    })
    if table.seats[seat].kind == "human":
        accounts = site.accounts
        owners = await accounts.call(accounts.store.seat_owners, again.table)
        if seat not in owners:
            set_seat_cookie(response, request, again.table, again.token)
    return response


@router.post("/api/tables/{table_id}/hint")
async def hint(
    table_id: str, request: Request, master: MasterDep, site: SiteDep,
    x_seat_token: Annotated[str | None, Header(max_length=64)] = None,
) -> list[dict[str, Any]]:
    """Your legal moves, best first (by the expected result, then points), with your final
    points, your share of the win, the win chance each gives up against the first, whether
    the points (``exact``) and the result (``result``) are settled, and the move's reason as
    a key with parameters (``reason``) for the browser to write in its language. Never at a
    rated table (409 ``no_hints_rated``); elsewhere a few at once, then one every few
    seconds per seat (429 ``hint_rate``)."""
    # Only the seat's own view goes in, so a hint never reveals a card the player could not
    # see; spectators get none. The answer is the list the terminal's ``h`` key shows
    # (bots/hint.py). A POST, so a cookie-borne credential passes the CSRF check.
    table = (await master.held(table_id)).table
    token = await site.seat_token(request, table, x_seat_token)
    seat = table.seat_of(token)
    if seat is None:
        raise LobbyError(403, "bad_token", "this token holds no seat at this table")
    # none at a rated table, a few per seat elsewhere, valued in a thread (hint_gate.py)
    owners = await site.accounts.call(site.accounts.store.seat_owners, table.id)
    site.hints.allowed(owners)
    state = table.state
    if state is None or state.is_over or state.to_move != seat:
        raise LobbyError(409, "no_hint", "a hint is given only on your own turn")
    return await site.hints.advise(table.id, seat, owners, state.view(seat))
