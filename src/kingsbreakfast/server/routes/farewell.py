"""The route that deletes an account (:mod:`..farewell`, docs/accounts.md)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..farewell import Farewell
from ..lobby import LobbyError
from ..sessions import SESSION_COOKIE, clear_cookie
from .accounts import answer, body_schema, secret_body
from .deps import MasterDep, SiteDep, address

router = APIRouter()


@router.post("/api/account/delete", tags=["accounts"], openapi_extra=body_schema("password"))
async def delete_account(request: Request, site: SiteDep, master: MasterDep) -> JSONResponse:
    """Delete the logged-in account, its password asked again: every session ends on every
    process, games in play are left (a bot plays the seat on), finished games stay under
    the answered pseudonym, and the name stays reserved for 30 days."""
    account = await site.writer(request)
    if account is None:
        raise LobbyError(401, "not_logged_in", "log in first")
    body = await secret_body(request)
    pseudonym = await Farewell(site, master).delete(
        account, body.get("password"), address(request.client)
    )
    response = answer(request, {"deleted": True, "pseudonym": pseudonym})
    clear_cookie(response, request, SESSION_COOKIE)
    return response
