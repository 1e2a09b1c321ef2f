"""The browser client's words and pages: the languages it can be shown in, every string in
one of them, the rules page, and the client's page at each address it opens on (the
versioned static files themselves are mounted by the app)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Header, Request, Response

from kingsbreakfast.i18n import UnknownLanguageError
from kingsbreakfast.i18n import accept_language as i18n_accept_language

from .. import strings, web_assets
from ..lobby import LobbyError
from .errors import ERRORS

router = APIRouter()

CLIENT_PAGES = (
    "/", "/t/{table_id}", "/replay/{game_id}", "/rules", "/login", "/account", "/me",
    "/leaderboard", "/players/{name}",
    "/tournaments", "/tournaments/{tournament_id}",
    "/people",
)
"""Every address the client opens on: each serves the one client page."""


def static_dir() -> Path:
    return Path(str(resources.files("kingsbreakfast.web").joinpath("static")))


@router.get("/api/languages", response_model=list[dict[str, str]])
async def list_languages() -> list[dict[str, str]]:
    """Languages the browser client can be shown in."""
    return strings.languages()


@router.get("/api/language", response_model=dict[str, str])
async def preferred_language(
    accept_language: Annotated[str | None, Header()] = None,
) -> dict[str, str]:
    """The browser's preferred language among ours, from its Accept-Language header
    (used until the player picks one)."""
    return {"code": i18n_accept_language(accept_language)}


def _unknown_language() -> LobbyError:
    return LobbyError(
        404, "unknown_language", "there is no catalogue for this language",
        choices=[entry["code"] for entry in strings.languages()],
    )


@router.get("/api/rules/{language}", response_model=dict[str, str], responses=ERRORS)
async def rules_page(language: str) -> dict[str, str]:
    """The rules explained to a player in ``language``, as HTML for the rules page."""
    try:
        return {"language": language[:16], "html": strings.rules_html(language[:16])}
    except UnknownLanguageError:
        raise _unknown_language() from None


@router.get("/api/strings/{language}", response_model=dict[str, str], responses=ERRORS)
async def client_strings(language: str) -> dict[str, str]:
    """Every browser string (message id → text) in ``language``, English where untranslated."""
    try:
        return strings.catalog(static_dir(), language[:16])
    except UnknownLanguageError:
        raise _unknown_language() from None


def client_page(request: Request) -> Response:
    return web_assets.client_page(request)


for _page in CLIENT_PAGES:
    router.get(_page, include_in_schema=False)(client_page)
