"""`/healthz` and `/readyz`."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from pipeline import __version__
from pipeline.api.deps import AppServices, Services
from pipeline.api.schemas import Health, Readiness
from pipeline.models import JsonObject
from store.errors import StoreError

__all__ = ["router"]

router = APIRouter(tags=["health"])


def _readiness(services: AppServices) -> tuple[bool, JsonObject]:
    checks: JsonObject = {}
    ready = True
    try:
        with services.slot.reading() as tx:
            warehouses = len(tx.warehouses())
        checks["store"] = {"ok": True, "warehouses": warehouses}
    except StoreError as exc:
        checks["store"] = {"ok": False, "message": str(exc)}
        ready = False
    if services.jobs is None:
        checks["ocr"] = {"ok": False, "message": "the OCR engine is not loaded"}
        ready = False
    else:
        checks["ocr"] = {"ok": True, "engine": services.jobs.engine}
        checks["jobs"] = {"ok": True, "kind": services.jobs.name}
    checks["mcp"] = {"ok": True, "groups": list(services.servers)}
    return ready, checks


@router.get("/healthz", response_model=Health)
async def healthz() -> Health:
    """The process answers."""
    return Health(version=__version__)


@router.get(
    "/readyz",
    response_model=Readiness,
    responses={503: {"model": Readiness, "description": "not ready yet"}},
)
async def readyz(services: Services) -> JSONResponse:
    """The store answers and the OCR engine is loaded."""
    ready, checks = await asyncio.to_thread(_readiness, services)
    body = Readiness(ready=ready, checks=checks).model_dump()
    return JSONResponse(body, status_code=200 if ready else 503)
