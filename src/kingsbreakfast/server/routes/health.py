"""The operator's view: liveness, readiness (the database answers) and the Prometheus
metrics. None of them is in the OpenAPI schema."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from .. import metrics
from ..store import StorageError
from .deps import MasterDep

router = APIRouter(include_in_schema=False)


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """Liveness: the process answers."""
    return {"status": "ok"}


@router.get("/readyz")
async def readyz(master: MasterDep) -> JSONResponse:
    """Readiness: the database answers too (503 while it does not)."""
    try:
        await master.journal.call(master.storage.ping)
    except StorageError:
        return JSONResponse({"status": "database unavailable"}, status_code=503)
    return JSONResponse({"status": "ready"})


@router.get("/metrics")
async def prometheus() -> Response:
    return Response(metrics.exposition(), media_type=metrics.CONTENT_TYPE_LATEST)
