"""The routes of notices (:mod:`..notices`, docs/accounts.md, Notices): the account's
switches per kind and channel, the browsers it allowed Web Push on, and the site's VAPID
public key a browser subscribes with.

A subscription's keys are the browser's: they come in here and go out only encrypted into
the push service's messages, never in an answer, a log line or the data download.
"""

from __future__ import annotations

from typing import Annotated, Any, cast

from fastapi import APIRouter, Depends, Request
from fastapi.requests import HTTPConnection
from fastapi.responses import JSONResponse, Response

from kingsbreakfast.i18n import accept_language

from ..account_store import Account
from ..lobby import LobbyError
from ..notice_store import CHANNELS, KINDS, Device
from ..notices import Notices
from ..recovery import mail_language
from .accounts import answer, secret_body
from .deps import SiteDep

router = APIRouter()


async def _notices(connection: HTTPConnection) -> Notices:
    return cast(Notices, connection.app.state.notices)


NoticesDep = Annotated[Notices, Depends(_notices)]


async def _me(request: Request, site: SiteDep) -> Account:
    account = await site.writer(request) if request.method != "GET" else (
        await site.accounts.current(request)
    )
    if account is None:
        raise LobbyError(401, "not_logged_in", "log in first")
    return account


async def _state(notices: Notices, account: Account) -> dict[str, Any]:
    email = await notices.accounts.call(notices.emails.email, account.id)
    return {
        "switches": await notices.accounts.call(notices.store.switches, account.id),
        "devices": len(await notices.accounts.call(notices.store.devices, account.id)),
        "mail": notices.mailer is not None,
        "email_verified": email is not None and email.verified,
    }


def _bad(what: str) -> LobbyError:
    return LobbyError(422, "bad_notices", "the notice switches are not as expected",
                      field=what)


@router.get("/api/push/key", tags=["notices"])
async def push_key(notices: NoticesDep) -> JSONResponse:
    """The site's VAPID public key (base64url, an uncompressed P-256 point): a browser's
    ``applicationServerKey``."""
    key = notices.pusher.public_key if notices.pusher is not None else None
    return JSONResponse({"key": key}, headers={"cache-control": "no-store"})


@router.get("/api/me/notices", tags=["notices"])
async def my_notices(request: Request, site: SiteDep, notices: NoticesDep) -> JSONResponse:
    """Each kind by each channel, on or off; how many devices take push; whether the site
    mails and the account's address is verified (mail goes nowhere else)."""
    account = await _me(request, site)
    return answer(request, await _state(notices, account))


@router.put("/api/me/notices", tags=["notices"])
async def set_notices(request: Request, site: SiteDep, notices: NoticesDep) -> JSONResponse:
    """Switch kinds on or off: ``{"switches": {"your_turn": {"mail": false}, ...}}``; kinds
    and channels left out stay as they are."""
    account = await _me(request, site)
    body = await secret_body(request)
    switches = body.get("switches")
    if not isinstance(switches, dict):
        raise _bad("switches")
    changes: dict[tuple[str, str], bool] = {}
    for kind, channels in switches.items():
        if kind not in KINDS or not isinstance(channels, dict):
            raise _bad(str(kind)[:16])
        for channel, on in channels.items():
            if channel not in CHANNELS or not isinstance(on, bool):
                raise _bad(str(channel)[:8])
            changes[(kind, channel)] = on
    await notices.accounts.call(notices.store.set_switches, account.id, changes)
    return answer(request, await _state(notices, account))


@router.post("/api/me/push", tags=["notices"])
async def subscribe(request: Request, site: SiteDep, notices: NoticesDep) -> JSONResponse:
    """This browser takes push for the account: the ``PushSubscription`` as its ``toJSON``
    gives it (``endpoint``, ``keys.p256dh``, ``keys.auth``), and the ``language`` its
    notices are written in (else the browser's)."""
    account = await _me(request, site)
    body = await secret_body(request)
    pusher = notices.pusher
    if pusher is None:
        raise LobbyError(503, "push_unavailable", "this site sends no push notices")
    keys = body.get("keys")
    keys = keys if isinstance(keys, dict) else {}
    endpoint, p256dh, auth = body.get("endpoint"), keys.get("p256dh"), keys.get("auth")
    pusher.check_device(endpoint, p256dh, auth)
    lang = mail_language(
        body.get("language"), accept_language(request.headers.get("accept-language"))
    )
    device = Device(str(endpoint), str(p256dh), str(auth), lang)
    await notices.accounts.call(notices.store.subscribe, account.id, device,
                                notices.master.hall.wall_clock())
    return answer(request, await _state(notices, account))


@router.delete("/api/me/push", tags=["notices"], status_code=204)
async def unsubscribe(request: Request, site: SiteDep, notices: NoticesDep) -> Response:
    """This browser takes no more push for the account (``endpoint``)."""
    account = await _me(request, site)
    endpoint = (await secret_body(request)).get("endpoint")
    if isinstance(endpoint, str):
        await notices.accounts.call(notices.store.unsubscribe, account.id, endpoint)
    return Response(status_code=204)
