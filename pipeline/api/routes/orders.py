"""`GET /v1/orders`; `POST /v1/orders/{id}/cancel` (an approver's decision, audited under
the key's name)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from starlette.exceptions import HTTPException

from pipeline.api.deps import AppServices, Services, caller, needs
from pipeline.api.plain import order_facts
from pipeline.api.schemas import (
    CancelledOut,
    CancelRequest,
    ErrorBody,
    OrderOut,
    OrdersResponse,
)
from pipeline.api.screens import run_screens, source_out
from pipeline.bootstrap import utc_now
from pipeline.host import AttachmentInfo
from servers import domain
from servers.errors import InvalidArgument
from store.models import AuditEntry, Order, OrderQuery, Proposal, ProposalQuery

__all__ = ["order_out", "router"]

router = APIRouter(tags=["orders"])


def order_out(order: Order) -> OrderOut:
    return OrderOut.model_validate(order.model_dump(mode="json"))


def order_view(
    order: Order,
    proposal: Proposal | None,
    audit: list[AuditEntry],
    screens: dict[str, list[AttachmentInfo]],
) -> OrderOut:
    """An order with what stands behind it: its proposal, approver, who cancelled it and why,
    its source and the screenshot it was read from."""
    facts = order_facts(order, proposal, audit)
    return OrderOut.model_validate(
        {
            **order.model_dump(mode="json"),
            "proposal_id": facts.proposal_id,
            "approved_by": facts.approved_by,
            "ordered_by": facts.ordered_by,
            "cancelled_by": facts.cancelled_by,
            "cancel_reason": facts.cancel_reason,
            "source": source_out(
                facts.source, screens.get(facts.source.run_id or "", [])
            ).model_dump(mode="json"),
        }
    )


def _behind(
    services: AppServices, found: list[Order]
) -> tuple[dict[str, Proposal], dict[str, list[AuditEntry]]]:
    """The proposals that wrote these orders and their audit entries, by order id."""
    ids = tuple(o.id for o in found)
    if not ids:
        return {}, {}
    with services.slot.reading() as tx:
        proposals = tx.proposals(ProposalQuery(order_ids=ids, limit=len(ids)))
        entries = tx.audit(limit=20 * len(ids), order_ids=ids)
    audit: dict[str, list[AuditEntry]] = {}
    for entry in entries:
        audit.setdefault(entry.order_id or "", []).append(entry)
    return {p.order_id: p for p in proposals if p.order_id}, audit


@router.get("/orders", **needs("viewer"), response_model=OrdersResponse)
async def orders(
    services: Services,
    status: Literal["open", "cancelled"] | None = None,
    sku: str | None = None,
    warehouse_id: str | None = None,
    run_id: str | None = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> OrdersResponse:
    """Replenishment orders from every source (runs, approved proposals, MCP clients), newest
    first, each with its proposal, who approved it, who cancelled it and why, and its source:
    the run and the screenshot it was read from."""
    query = OrderQuery(
        status=status, sku=sku, warehouse_id=warehouse_id, run_id=run_id, limit=limit
    )
    found = (await asyncio.to_thread(domain.list_orders, services.slot, query)).orders
    proposals, audit = await asyncio.to_thread(_behind, services, found)
    runs = [o.run_id for o in found] + [p.run_id for p in proposals.values()]
    screens = await run_screens(services, runs)
    return OrdersResponse(
        orders=[order_view(o, proposals.get(o.id), audit.get(o.id, []), screens) for o in found]
    )


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
