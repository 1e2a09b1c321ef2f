"""The routes of accounts and ratings: sessions, registration, log-in and out, the
password, one's games, the leaderboard and a player's profile (docs/accounts.md).

A state-changing call of a logged-in browser carries the CSRF value its answer handed out
(``X-CSRF-Token``); every answer here sends the current one back.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import JsonValue

from ..account_store import START_MU, START_SIGMA, Account
from ..history import awaiting, my_games
from ..lobby import LobbyError
from ..personal_data import PersonalData
from ..rating_plot import rating_svg
from ..rating_rules import ordinal
from ..ratings import profile_body
from ..sessions import (
    SESSION_COOKIE,
    SESSION_SECONDS,
    check_csrf,
    clear_cookie,
    csrf_value,
    set_cookie,
    set_csrf,
)
from ..site import Site, account_body
from .deps import SiteDep, address
from .people import seen

router = APIRouter()


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


def answer(request: Request, body: dict[str, Any], status: int = 200) -> JSONResponse:
    """A JSON answer with the CSRF value (set as a cookie too when it is new), never
    cached."""
    csrf, fresh = csrf_value(request)
    response = JSONResponse(
        {**body, "csrf": csrf}, status_code=status, headers={"cache-control": "no-store"}
    )
    if fresh:
        set_csrf(response, request, csrf)
    return response


async def session_answer(
    site: Site, request: Request, account: Account, status: int
) -> JSONResponse:
    cookie = await site.accounts.start_session(account, request.cookies.get(SESSION_COOKIE))
    response = answer(request, {"account": account_body(account)}, status)
    set_cookie(response, request, SESSION_COOKIE, cookie, SESSION_SECONDS)
    return response


@router.get("/api/account", tags=["accounts"])
async def who_am_i(request: Request, site: SiteDep) -> JSONResponse:
    """The logged-in account (or null) and the CSRF value to send back in X-CSRF-Token."""
    account = await site.accounts.current(request)
    if account is not None:  # online now, for its friends (..people)
        await seen(request, site, account)
    return answer(request, {"account": None if account is None else account_body(account)})


@router.post("/api/account/register", tags=["accounts"], status_code=201,
             openapi_extra=body_schema("name", "password"))
async def register(request: Request, site: SiteDep) -> JSONResponse:
    """A new account, logged in at once."""
    check_csrf(request)
    body = await secret_body(request)
    account = await site.accounts.register(
        body.get("name"), body.get("password"), address(request.client), body.get("proof")
    )
    return await session_answer(site, request, account, 201)


@router.get("/api/account/challenge", tags=["accounts"])
async def challenge(request: Request, site: SiteDep) -> JSONResponse:
    """The proof of work the next registration from this address needs (``bits`` leading
    zero bits of SHA-256 over ``challenge \\n name \\n counter``; 0: none), sent back as
    ``proof: {challenge, counter}`` (docs/accounts.md)."""
    made, bits = await site.accounts.challenge(address(request.client))
    return answer(request, {"challenge": made, "bits": bits})


@router.post("/api/account/login", tags=["accounts"],
             openapi_extra=body_schema("name", "password"))
async def login(request: Request, site: SiteDep) -> JSONResponse:
    """A new session for this browser."""
    check_csrf(request)
    body = await secret_body(request)
    account = await site.accounts.login(
        body.get("name"), body.get("password"), address(request.client)
    )
    return await session_answer(site, request, account, 200)


@router.post("/api/account/logout", tags=["accounts"], status_code=204)
async def logout(request: Request, site: SiteDep) -> Response:
    check_csrf(request)
    cookie = request.cookies.get(SESSION_COOKIE)
    if cookie:
        await site.accounts.end_session(cookie)
    response = Response(status_code=204)
    clear_cookie(response, request, SESSION_COOKIE)
    return response


@router.post("/api/account/password", tags=["accounts"],
             openapi_extra=body_schema("old", "new"))
async def change_password(request: Request, site: SiteDep) -> JSONResponse:
    """Every session of the account ends; this browser gets a new one."""
    account = await site.writer(request)
    if account is None:
        raise LobbyError(401, "not_logged_in", "log in first")
    body = await secret_body(request)
    await site.accounts.change_password(account, body.get("old"), body.get("new"))
    return await session_answer(site, request, account, 200)


@router.get("/api/me/games", tags=["accounts"])
async def games(request: Request, site: SiteDep) -> dict[str, list[dict[str, Any]]]:
    account = await site.accounts.current(request)
    if account is None:
        raise LobbyError(401, "not_logged_in", "log in first")
    return await my_games(site.accounts, account)


@router.get("/api/me/awaiting", tags=["accounts"])
async def awaiting_games(request: Request, site: SiteDep) -> dict[str, Any]:
    """The games in play awaiting the account's move (the badge every page shows): their
    count and, soonest deadline first, each game's id, seat and deadline."""
    account = await site.accounts.current(request)
    if account is None:
        raise LobbyError(401, "not_logged_in", "log in first")
    await seen(request, site, account)  # every open page asks each minute: online now
    games = await awaiting(site.accounts, account)
    return {"count": len(games), "games": games}


@router.get("/api/me/data", tags=["accounts"])
async def my_data(request: Request, site: SiteDep) -> Response:
    """Everything the site holds about the account, as one JSON file to download
    (:mod:`..personal_data`)."""
    account = await site.accounts.current(request)
    if account is None:
        raise LobbyError(401, "not_logged_in", "log in first")
    reader = PersonalData(site.accounts.store.engine)
    data = await site.accounts.call(reader.everything, account.id, site.accounts.wall_clock())
    if data is None:
        raise LobbyError(401, "not_logged_in", "log in first")
    return Response(
        json.dumps(data, ensure_ascii=False, indent=1), media_type="application/json",
        headers={"content-disposition": 'attachment; filename="kingsbreakfast-account.json"',
                 "cache-control": "no-store"},
    )


@router.get("/api/leaderboard", tags=["accounts"])
async def leaderboard(site: SiteDep, page: int = 1, size: int = 20) -> dict[str, Any]:
    """Accounts with a rated game, best conservative rating (μ − 3σ) first."""
    return await site.ratings.leaderboard(page, size)


@router.get("/api/players/{name}", tags=["accounts"])
async def profile(name: str, site: SiteDep) -> dict[str, Any]:
    account, totals, results = await site.ratings.profile(name[:64])
    return profile_body(account, totals, results)


@router.get("/api/players/{name}/rating.svg", tags=["accounts"])
async def rating_plot(
    name: str, site: SiteDep, title: str = "", desc: str = ""
) -> Response:
    """The rating history as SVG; ``title`` and ``desc`` are the page's translated
    words for screen readers."""
    account, _totals, results = await site.ratings.profile(name[:64])
    ratings = [round(ordinal(START_MU, START_SIGMA), 2)]  # where everyone starts
    ratings += [round(ordinal(r.mu, r.sigma), 2) for r in results if r.rated]
    svg = rating_svg(ratings, title[:120] or account.name, desc[:300])
    return Response(svg, media_type="image/svg+xml",
                    headers={"cache-control": "no-cache"})
