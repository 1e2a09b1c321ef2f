"""The routes of an account's e-mail address and of a forgotten password
(:mod:`..recovery`, docs/accounts.md), and the client pages their mailed links open.

Every call here changes state and repeats the CSRF value (``X-CSRF-Token``), logged in or
not: the pages read it from ``GET /api/account`` first, as the log-in form does.
"""

from __future__ import annotations

from typing import Annotated, Any, cast

from fastapi import APIRouter, Depends, Request
from fastapi.requests import HTTPConnection
from fastapi.responses import JSONResponse

from kingsbreakfast.i18n import accept_language

from ..account_store import Account
from ..lobby import LobbyError
from ..recovery import Recovery, mail_language
from ..recovery_store import Email
from ..sessions import check_csrf
from .accounts import answer, body_schema, secret_body
from .deps import SiteDep, address
from .pages import client_page

router = APIRouter()

LINK_PAGES = ("/forgot", "/reset", "/verify-email")
"""The client pages of a forgotten password and of the mailed links."""


async def _recovery(connection: HTTPConnection) -> Recovery:
    return cast(Recovery, connection.app.state.recovery)


RecoveryDep = Annotated[Recovery, Depends(_recovery)]


def email_body(email: Email | None) -> dict[str, Any]:
    """What the account itself is shown of its address (nobody else is shown anything)."""
    if email is None:
        return {"email": None}
    return {"email": {"address": email.address, "verified": email.verified}}


async def _me(request: Request, site: SiteDep) -> Account:
    account = await site.writer(request) if request.method != "GET" else (
        await site.accounts.current(request)
    )
    if account is None:
        raise LobbyError(401, "not_logged_in", "log in first")
    return account


@router.get("/api/me/email", tags=["accounts"])
async def my_email(request: Request, site: SiteDep, recovery: RecoveryDep) -> JSONResponse:
    """The account's own address and whether it is verified (null: none), and whether this
    site sends mail at all (``mail``)."""
    account = await _me(request, site)
    body = email_body(await recovery.email(account))
    return answer(request, {**body, "mail": recovery.mailer is not None})


@router.put("/api/me/email", tags=["accounts"],
            openapi_extra=body_schema("address", "password", "language"))
async def set_email(request: Request, site: SiteDep, recovery: RecoveryDep) -> JSONResponse:
    """A new address (unverified until the link mailed to it is opened), or none (an empty
    address); either needs the current ``password``. Mails to it are written in
    ``language`` (else the browser's)."""
    account = await _me(request, site)
    body = await secret_body(request)
    lang = mail_language(
        body.get("language"), accept_language(request.headers.get("accept-language"))
    )
    email = await recovery.set_email(
        account, body.get("address"), lang, body.get("password"), address(request.client)
    )
    return answer(request, email_body(email))


@router.post("/api/email/verify", tags=["accounts"], openapi_extra=body_schema("token"))
async def verify_email(request: Request, recovery: RecoveryDep) -> JSONResponse:
    """Mark the address a verification link was mailed to as the account's, verified."""
    check_csrf(request)
    body = await secret_body(request)
    await recovery.verify(body.get("token"))
    return answer(request, {"verified": True})


@router.post("/api/password/forgot", tags=["accounts"], status_code=202,
             openapi_extra=body_schema("who"))
async def forgot_password(request: Request, recovery: RecoveryDep) -> JSONResponse:
    """Mail a reset link to the verified address of the account of this name or address,
    if there is one: the answer is the same whether there is or not."""
    check_csrf(request)
    body = await secret_body(request)
    await recovery.forgot(body.get("who"), address(request.client))
    return answer(request, {"asked": True}, 202)


@router.post("/api/password/reset", tags=["accounts"],
             openapi_extra=body_schema("token", "password"))
async def reset_password(request: Request, recovery: RecoveryDep) -> JSONResponse:
    """A new password through a mailed link (once); every session of the account ends."""
    check_csrf(request)
    body = await secret_body(request)
    await recovery.reset(body.get("token"), body.get("password"))
    return answer(request, {"reset": True})


for _page in LINK_PAGES:
    router.get(_page, include_in_schema=False)(client_page)
