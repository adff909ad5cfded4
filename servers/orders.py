"""The `orders` tool group: replenishment orders, with writes that re-check live stock.

The write tools take the caller's run id from the request `_meta` key
`io.stockshot/run_id` (read through `ctx: Context`), not from a tool parameter, and keep it
on the order and in the audit log.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from servers import domain
from servers.errors import InvalidArgument, Refused, StoreError
from servers.models import (
    CancelResult,
    OrderList,
    OrderQuery,
    OrderStatus,
    ReplenishmentOutput,
    ReplenishmentRequest,
)
from servers.toolkit import (
    READ_ONLY,
    OrderIdArg,
    ToolDeps,
    WarehouseIdArg,
    group_meta,
    refused,
    run_id_of,
    store_failed,
    success,
)

__all__ = ["GROUP", "instructions", "register"]

GROUP = "orders"

QuantityArg = Annotated[
    int | None,
    Field(
        description="Units to order, a whole number of at least 1 and at most the per-order "
        "limit given in the tool description, like 200. Leave it out to let the server's "
        "policy decide from the live numbers (projected stock up to twice the reorder point).",
        json_schema_extra={"minimum": 1},
    ),
]
AtMostArg = Annotated[
    int | None,
    Field(
        description="Without a quantity: the most units the policy's quantity may come to, "
        "like 20 (the task said 'at most 20 each'). With a quantity, that quantity must not "
        "exceed it.",
        json_schema_extra={"minimum": 1},
    ),
]
OptionalOrderSkuArg = Annotated[
    str | None,
    Field(
        description="The SKU to order, like SKU-10402; not a warehouse id. Give sku or skus.",
        min_length=1,
        max_length=64,
    ),
]
SkusArg = Annotated[
    list[str] | None,
    Field(
        description='Several SKUs of this one warehouse, like ["SKU-10232", "SKU-10318"]: '
        "each is re-checked and ordered on its own, with a result per SKU. Give sku or skus.",
        max_length=100,
    ),
]
ObservedOnHandArg = Annotated[
    int | None,
    Field(
        description="The on_hand the screenshot showed for this SKU, like 60. Recorded with "
        "the order and quoted when the live re-check refuses.",
    ),
]
ObservedAtArg = Annotated[
    datetime | None,
    Field(
        description="When the screenshot was taken, ISO 8601 with a UTC offset, like "
        "2026-11-27T09:14:52+08:00.",
    ),
]
IdempotencyKeyArg = Annotated[
    str | None,
    Field(
        description="A key unique to this intended order, like run-42-SKU-10402-WH-01. "
        "Resending the same key returns the same order instead of creating a second one; "
        "reuse it when retrying.",
        min_length=1,
        max_length=200,
    ),
]
OptionalSkuArg = Annotated[
    str | None, Field(description="Only orders for this SKU, like SKU-10402.", max_length=64)
]
OptionalWarehouseArg = Annotated[
    str | None,
    Field(description="Only orders for this warehouse id, like WH-01; not a SKU.", max_length=64),
]
StatusArg = Annotated[
    OrderStatus | None, Field(description="Only orders with this status: open or cancelled.")
]
CreatedSinceArg = Annotated[
    datetime | None,
    Field(
        description="Only orders created at or after this time, ISO 8601, "
        "like 2026-11-27T00:00:00Z."
    ),
]
RunIdFilterArg = Annotated[
    str | None,
    Field(description="Only orders created by this caller run id, like run-42.", max_length=200),
]
LimitArg = Annotated[
    int, Field(description="At most this many orders, newest first.", ge=1, le=500)
]


def order_key(
    given: str | None, *, run_id: str | None, warehouse_id: str, sku: str, batch: bool
) -> str | None:
    """The idempotency key one order is written under. The caller's own key (a batch's gets
    `:SKU` appended per SKU); without one, a call made within a run is keyed by run,
    warehouse and SKU, so a run executed again under the same id (a job retried after its
    worker died) gets its orders back instead of ordering twice."""
    if given is not None:
        return f"{given}:{sku}" if batch else given
    return None if run_id is None else f"{run_id}:{warehouse_id}:{sku}"


def instructions(deps: ToolDeps) -> str:
    return (
        "Order tools create and cancel replenishment orders. Query live stock "
        "(inventory_query_stock) before ordering; a screenshot is a past view and stock may "
        "have changed since. Order only when live on_hand + on_order < reorder_point; the "
        "server re-checks live stock inside the write and refuses otherwise, so a refusal "
        "means the SKU is not low now: report it, do not resend the same call. Pass "
        "observed_on_hand and observed_at from the screenshot so a refusal can quote them. "
        f"Quantities run from 1 to {deps.max_order_quantity} units per order. Give every "
        "intended order its own idempotency_key and reuse that key when retrying it. "
        "Check orders_list for an open order before creating another for the same SKU and "
        "warehouse. Cancel only when the user asks."
    )


def register(server: MCPServer, deps: ToolDeps) -> None:
    meta = group_meta(GROUP)

    @server.tool(
        name="orders_create_replenishment",
        title="Create a replenishment order",
        description="Order more of one SKU (sku) or of several SKUs (skus) for one warehouse. "
        "The server re-reads live stock and open orders inside the write and refuses a SKU "
        "unless on_hand + on_order < reorder_point. Quantity from 1 to "
        f"{deps.max_order_quantity}; {domain.POLICY}. Returns the order and the live numbers "
        "it was checked against, or for skus one result per SKU.",
        annotations=ToolAnnotations(
            read_only_hint=False,
            destructive_hint=False,
            idempotent_hint=False,
            open_world_hint=False,
        ),
        meta=meta,
    )
    def create_replenishment(
        warehouse_id: WarehouseIdArg,
        ctx: Context,
        sku: OptionalOrderSkuArg = None,
        skus: SkusArg = None,
        quantity: QuantityArg = None,
        at_most: AtMostArg = None,
        observed_on_hand: ObservedOnHandArg = None,
        observed_at: ObservedAtArg = None,
        idempotency_key: IdempotencyKeyArg = None,
    ) -> Annotated[CallToolResult, ReplenishmentOutput]:
        wanted = [sku] if sku is not None else list(dict.fromkeys(skus or []))
        if (sku is None) == (skus is None) or not wanted:
            return refused(
                InvalidArgument(
                    "give either sku (one SKU) or skus (a list of SKUs of this warehouse), "
                    "not both and not neither",
                    code="sku_or_skus",
                    field="sku",
                ),
                write=True,
            )
        run_id = run_id_of(ctx)
        requests = [
            ReplenishmentRequest(
                sku=one,
                warehouse_id=warehouse_id,
                quantity=quantity,
                at_most=at_most,
                observed_on_hand=observed_on_hand if sku is not None else None,
                observed_at=observed_at,
                idempotency_key=order_key(
                    idempotency_key,
                    run_id=run_id,
                    warehouse_id=warehouse_id,
                    sku=one,
                    batch=sku is None,
                ),
                run_id=run_id,
            )
            for one in wanted
        ]
        try:
            if sku is not None:
                result = domain.create_replenishment(
                    deps.store, requests[0], max_quantity=deps.max_order_quantity, now=deps.clock()
                )
                return success(result)
            items = domain.create_replenishments(
                deps.store, requests, max_quantity=deps.max_order_quantity, now=deps.clock()
            )
        except Refused as exc:
            return refused(exc, write=True)
        except StoreError as exc:
            return store_failed(exc, write=True)
        output = ReplenishmentOutput(warehouse_id=warehouse_id, results=items)
        if all(item.refused for item in items):
            reasons = "; ".join(str((item.refused or {}).get("message")) for item in items)
            return CallToolResult(
                content=[TextContent(type="text", text=f"refused: {reasons}")],
                structured_content=output.model_dump(mode="json", exclude_none=True),
                is_error=True,
            )
        return success(output, exclude_none=True)

    @server.tool(
        name="orders_list",
        title="List replenishment orders",
        description="Replenishment orders, newest first, filtered by SKU, warehouse, status, "
        "creation time or caller run id.",
        annotations=READ_ONLY,
        meta=meta,
    )
    def list_orders(
        sku: OptionalSkuArg = None,
        warehouse_id: OptionalWarehouseArg = None,
        status: StatusArg = None,
        created_since: CreatedSinceArg = None,
        run_id: RunIdFilterArg = None,
        limit: LimitArg = 50,
    ) -> Annotated[CallToolResult, OrderList]:
        query = OrderQuery(
            sku=sku,
            warehouse_id=warehouse_id,
            status=status,
            created_since=created_since,
            run_id=run_id,
            limit=limit,
        )
        try:
            return success(domain.list_orders(deps.store, query))
        except Refused as exc:
            return refused(exc)
        except StoreError as exc:
            return store_failed(exc)

    @server.tool(
        name="orders_cancel",
        title="Cancel a replenishment order",
        description="Cancel an open order; its quantity no longer counts in on_order. "
        "Cancelling an order that is already cancelled changes nothing.",
        annotations=ToolAnnotations(
            read_only_hint=False,
            destructive_hint=True,
            idempotent_hint=True,
            open_world_hint=False,
        ),
        meta=meta,
    )
    def cancel_order(order_id: OrderIdArg, ctx: Context) -> Annotated[CallToolResult, CancelResult]:
        try:
            result = domain.cancel_order(
                deps.store, order_id, now=deps.clock(), run_id=run_id_of(ctx)
            )
        except Refused as exc:
            return refused(exc, write=True)
        except StoreError as exc:
            return store_failed(exc, write=True)
        return success(result)
