"""`GET /v1/orders`."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query

from pipeline.api.deps import Services, needs
from pipeline.api.schemas import OrderOut, OrdersResponse
from servers import domain
from servers.models import OrderQuery

__all__ = ["order_out", "router"]

router = APIRouter(tags=["orders"])


def order_out(order: Any) -> OrderOut:
    return OrderOut.model_validate(order.model_dump(mode="json"))


@router.get("/orders", **needs("viewer"), response_model=OrdersResponse)
async def orders(
    services: Services,
    status: Literal["open", "cancelled"] | None = None,
    sku: str | None = None,
    warehouse_id: str | None = None,
    run_id: str | None = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> OrdersResponse:
    """Replenishment orders, newest first."""
    query = OrderQuery(
        status=status, sku=sku, warehouse_id=warehouse_id, run_id=run_id, limit=limit
    )
    found = await asyncio.to_thread(domain.list_orders, services.slot, query)
    return OrdersResponse(orders=[order_out(o) for o in found.orders])
