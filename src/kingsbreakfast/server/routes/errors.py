"""How a refused request is answered: ``{"error": {code, message, params}}`` with its HTTP
status, the same shape for lobby refusals, limits and a database that is away. An address
nobody serves answers a browser's page request with the client's page and status 404 (the
client draws "Page not found" in the player's language), and everything else, the API first,
with JSON as before."""

from __future__ import annotations

import math
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, JsonValue
from starlette.exceptions import HTTPException

from .. import metrics, web_assets
from ..limits import Refused
from ..lobby import LobbyError
from ..store import StorageError


class ErrorBody(BaseModel):
    code: str
    message: str
    params: dict[str, JsonValue]


class ErrorReply(BaseModel):
    error: ErrorBody


ERRORS: Final[dict[int | str, dict[str, Any]]] = {
    code: {"model": ErrorReply} for code in (403, 404, 409, 413, 422, 429, 503)
}
"""The refusals a lobby route may answer, for the OpenAPI schema."""


def error_reply(
    status: int, code: str, message: str, params: dict[str, JsonValue]
) -> JSONResponse:
    """The error shape; a refusal that says when to come back (``retry_after``) says it in
    HTTP's ``Retry-After`` header too (whole seconds, rounded up), so that a client or a
    proxy that knows nothing of our shape still waits long enough before trying again."""
    wait = params.get("retry_after")
    headers = None
    if isinstance(wait, int | float) and not isinstance(wait, bool):
        headers = {"Retry-After": str(max(1, math.ceil(wait)))}
    return JSONResponse(
        {"error": {"code": code, "message": message, "params": params}}, status_code=status,
        headers=headers,
    )


_NOT_PAGES: Final = ("/api/", "/ws/", "/assets/", "/static/", "/games/")
"""Where the API, the socket and the files live: an unknown address there is a program's
mistake, answered in JSON, never with a page."""


def wants_page(request: Request) -> bool:
    """A browser asking for a page (a GET for HTML) outside the API and the files."""
    path = request.url.path
    return (
        request.method in ("GET", "HEAD")
        and not path.startswith(_NOT_PAGES)
        and "text/html" in request.headers.get("accept", "")
    )


def install_errors(app: FastAPI) -> None:
    """Answer the server's refusals in the one error shape."""

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> Response:
        if error.status_code == 404 and wants_page(request):
            page = web_assets.client_page(request)
            page.status_code = 404
            return page
        return await http_exception_handler(request, error)

    @app.exception_handler(Refused)
    async def refused(_request: Request, error: Refused) -> JSONResponse:
        metrics.refused(error.code)
        status = 413 if error.code == "body_too_large" else 429
        return error_reply(status, error.code, error.message, dict(error.params))

    @app.exception_handler(LobbyError)
    async def lobby_error(_request: Request, error: LobbyError) -> JSONResponse:
        return error_reply(error.status, error.code, error.message, error.params)

    @app.exception_handler(StorageError)
    async def storage_error(_request: Request, error: StorageError) -> JSONResponse:
        return error_reply(
            503, error.code, "the database is not answering; try again",
            {"retryable": True},
        )
