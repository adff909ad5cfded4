"""The API's routes, one module per resource, gathered into one router."""

from __future__ import annotations

from fastapi import APIRouter, Depends

from pipeline.api.deps import require_key
from pipeline.api.openapi import ERRORS
from pipeline.api.routes import (
    approvals,
    dashboard,
    health,
    ingest,
    orders,
    profiles,
    runs,
    webhooks,
)

__all__ = ["api_router"]


def api_router() -> APIRouter:
    """Health and the dashboard at the root; everything else under `/v1`, behind the API key."""
    router = APIRouter()
    router.include_router(health.router)
    v1 = APIRouter(prefix="/v1", dependencies=[Depends(require_key)], responses=ERRORS)
    for module in (ingest, runs, orders, approvals, profiles, webhooks):
        v1.include_router(module.router)
    router.include_router(v1)
    router.include_router(dashboard.router)
    return router
