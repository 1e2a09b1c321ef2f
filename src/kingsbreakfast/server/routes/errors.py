"""How a refused request is answered: ``{"error": {code, message, params}}`` with its HTTP
status, the same shape for lobby refusals, limits and a database that is away."""

from __future__ import annotations

from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, JsonValue

from .. import metrics
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
    return JSONResponse(
        {"error": {"code": code, "message": message, "params": params}}, status_code=status
    )


def install_errors(app: FastAPI) -> None:
    """Answer the server's refusals in the one error shape."""

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
