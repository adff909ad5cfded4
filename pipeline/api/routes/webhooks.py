"""`GET /v1/webhooks/deliveries`: the log of what was sent to each webhook receiver."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Query

from pipeline.api.deps import Services, needs
from pipeline.api.schemas import AttemptOut, DeliveriesResponse, DeliveryOut
from pipeline.webhooks import delivery_log

__all__ = ["router"]

router = APIRouter(tags=["webhooks"])


@router.get("/webhooks/deliveries", **needs("admin"), response_model=DeliveriesResponse)
async def deliveries(
    services: Services, limit: Annotated[int, Query(ge=1, le=1000)] = 100
) -> DeliveriesResponse:
    """The latest webhook deliveries, newest first: the event, the receiver, whether it was
    delivered, and each attempt with the receiver's status or the error. Kept for
    STOCKSHOT_WEBHOOK_RETENTION_DAYS."""
    logged = await asyncio.to_thread(delivery_log, services.slot, limit=limit)
    return DeliveriesResponse(
        deliveries=[
            DeliveryOut(
                **one.delivery.model_dump(),
                tries=[
                    AttemptOut(at=at, status_code=code, error=error)
                    for at, code, error in one.tries
                ],
            )
            for one in logged
        ]
    )
