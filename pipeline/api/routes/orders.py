"""`GET /v1/orders`; `POST /v1/orders/{id}/cancel` (an approver's decision, audited under
the key's name)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from starlette.exceptions import HTTPException

from pipeline.api.deps import Services, caller, needs
from pipeline.api.schemas import (
    CancelledOut,
    CancelRequest,
    ErrorBody,
    OrderOut,
    OrdersResponse,
)
from pipeline.bootstrap import utc_now
from servers import domain
from servers.errors import InvalidArgument
from servers.models import Order, OrderQuery

__all__ = ["order_out", "router"]

router = APIRouter(tags=["orders"])


def order_out(order: Order) -> OrderOut:
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


@router.post(
    "/orders/{order_id}/cancel",
    **needs("approver"),
    response_model=CancelledOut,
    responses={404: {"model": ErrorBody}, 422: {"model": ErrorBody}},
)
async def cancel(
    order_id: str, request: Request, services: Services, body: CancelRequest | None = None
) -> CancelledOut:
    """Cancel an open order now: a person's decision (an approver's key), written at once and
    audited under the key's name with the reason given. Cancelling a cancelled order changes
    nothing and says so; an id of no order is 404, one that is not an order id at all 422."""
    by = caller(request)
    reason = None if body is None or not (body.reason or "").strip() else body.reason
    try:
        done = await asyncio.to_thread(
            domain.cancel_order, services.slot, order_id, now=utc_now(), actor=by, reason=reason
        )
    except InvalidArgument as exc:
        if exc.code == "unknown_order":
            raise HTTPException(404, exc.message) from exc
        raise
    return CancelledOut(order=order_out(done.order), cancelled=done.cancelled, by=by)
