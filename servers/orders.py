"""The `orders` tool group: replenishment orders, with writes that re-check live stock.

The write tools take the caller's run id from the request `_meta` key
`io.stockshot/run_id` (read through `ctx: Context`), not from a tool parameter, and keep it
on the order and in the audit log.

Under manual approval (`ToolDeps.approval`) the server itself holds every write for a person,
whoever the client is (the host, an agent on `serve`'s mount, a desktop client): a write call
becomes a proposal (one per SKU) and the answer says it is queued. It runs only when the call
names, in `_meta` `io.stockshot/proposal_id`, a proposal a person approved, and the check that
it is approved, unexpired, not yet executed and for exactly these arguments is made in the
write's own transaction. Such an order is written under the proposal's idempotency key, so a
repeated execution returns the same order. The one exception is an HTTP caller whose key may
write directly (`servers.toolkit.Caller.writes_directly`: an approver's, where the deployment
allows it). Every write and proposal names who acted (`servers.toolkit.actor_of`): the
authenticated HTTP caller, or the `_meta` key `io.stockshot/actor` of an in-process or stdio
caller.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent
from pydantic import BaseModel, ConfigDict, JsonValue, ValidationError

from servers import approvals, domain
from servers.errors import InvalidArgument
from servers.models import (
    BatchItem,
    CancelOutput,
    OrderList,
    ReplenishmentOutput,
    ReplenishmentRequest,
)
from servers.order_args import (
    AtMostArg,
    CreatedSinceArg,
    IdempotencyKeyArg,
    LimitArg,
    ObservedAtArg,
    ObservedOnHandArg,
    OptionalOrderSkuArg,
    OptionalSkuArg,
    OptionalWarehouseArg,
    QuantityArg,
    RunIdFilterArg,
    SkusArg,
    StatusArg,
)
from servers.toolkit import (
    CREATES,
    READ_ONLY,
    UNDOES,
    OrderIdArg,
    ToolContext,
    ToolDeps,
    WarehouseIdArg,
    actor_of,
    add_tool,
    caller_of,
    deps_of,
    proposal_id_of,
    run_id_of,
    success,
)
from store.models import JsonObject, OrderQuery

__all__ = [
    "CANCEL_TOOL",
    "CREATE_TOOL",
    "GROUP",
    "cancel_order",
    "create_replenishment",
    "instructions",
    "list_orders",
    "register",
]

GROUP = "orders"
CREATE_TOOL = "orders_create_replenishment"
CANCEL_TOOL = "orders_cancel"


class _CreateCall(BaseModel):
    """A create call's arguments as they decide what is ordered (the idempotency key aside):
    two calls are the same call when these are equal, however their JSON was spelled."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    warehouse_id: str
    sku: str | None = None
    skus: tuple[str, ...] | None = None
    quantity: int | None = None
    at_most: int | None = None
    observed_on_hand: int | None = None
    observed_at: datetime | None = None

    def same_as(self, stored: Mapping[str, JsonValue]) -> bool:
        """Whether a proposal's stored arguments are this call."""
        try:
            return _CreateCall.model_validate(dict(stored)) == self
        except ValidationError:
            return False


def _held_for_a_person(ctx: ToolContext, proposal_id: str | None) -> bool:
    """Whether this write call becomes a proposal: under manual approval, unless it executes
    an approved proposal or comes from an HTTP caller whose key may write directly (an
    approver's, where allowed: its write runs at once, audited under its name)."""
    if proposal_id is not None or deps_of(ctx).approval != "manual":
        return False
    caller = caller_of(ctx)
    return caller is None or not caller.writes_directly


def _all_refused(output: ReplenishmentOutput) -> CallToolResult:
    """A call for several SKUs that every SKU of refused: an error naming each reason."""
    reasons = "; ".join(str((item.refused or {}).get("message")) for item in output.results or [])
    return CallToolResult(
        content=[TextContent(type="text", text=f"refused: {reasons}")],
        structured_content=output.model_dump(mode="json", exclude_none=True),
        is_error=True,
    )


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
        + (
            " Writes on this server wait for a person's approval: a write call is answered "
            "with the proposal it became (queued), not an order; report it as waiting."
            if deps.approval == "manual"
            else ""
        )
    )


def _propose_create(
    deps: ToolDeps, call: _CreateCall, wanted: list[str], run_id: str | None, actor: str | None
) -> CallToolResult:
    base = call.model_dump(mode="json", exclude_none=True, exclude={"sku", "skus"})
    if call.skus is not None:
        base.pop("observed_on_hand", None)  # one screen value cannot be every SKU's
    # A proposal names a SKU stocked where it is to be ordered; the live numbers now let the
    # approver see the quantity it comes to.
    levels = [domain.live_level(deps.store, one, call.warehouse_id) for one in wanted]
    if call.quantity is not None:
        domain.check_quantity(call.quantity, deps.max_order_quantity)
    calls: list[tuple[JsonObject, JsonObject | None]] = [
        (
            {"sku": one, **base},
            {
                "on_hand": level.on_hand,
                "on_order": level.on_order,
                "reorder_point": level.reorder_point,
            },
        )
        for one, level in zip(wanted, levels, strict=True)
    ]
    held, refusals = approvals.hold(
        deps.store,
        CREATE_TOOL,
        calls,
        now=deps.clock(),
        ttl=deps.approval_ttl,
        run_id=run_id,
        requested_by=actor,
    )
    if call.sku is not None and refusals:
        raise refusals[0][1]
    skus = [str(p.arguments["sku"]) for p in held]
    what = f"an order of {', '.join(skus)} in {call.warehouse_id}"
    output = ReplenishmentOutput(
        warehouse_id=call.warehouse_id,
        queued=held or None,
        message=approvals.held_message(what, held) if held else None,
        results=[
            BatchItem(sku=str(arguments["sku"]), refused=exc.as_dict())
            for arguments, exc in refusals
        ]
        or None,
    )
    if not held:
        return _all_refused(output)
    return success(output, exclude_none=True)


def create_replenishment(
    warehouse_id: WarehouseIdArg,
    ctx: ToolContext,
    sku: OptionalOrderSkuArg = None,
    skus: SkusArg = None,
    quantity: QuantityArg = None,
    at_most: AtMostArg = None,
    observed_on_hand: ObservedOnHandArg = None,
    observed_at: ObservedAtArg = None,
    idempotency_key: IdempotencyKeyArg = None,
) -> Annotated[CallToolResult, ReplenishmentOutput]:
    deps = deps_of(ctx)
    wanted = [sku] if sku is not None else list(dict.fromkeys(skus or []))
    if (sku is None) == (skus is None) or not wanted:
        raise InvalidArgument(
            "give either sku (one SKU) or skus (a list of SKUs of this warehouse), "
            "not both and not neither",
            code="sku_or_skus",
            field="sku",
        )
    run_id, proposal_id, actor = run_id_of(ctx), proposal_id_of(ctx), actor_of(ctx)
    call = _CreateCall(
        warehouse_id=warehouse_id,
        sku=sku,
        skus=None if skus is None else tuple(wanted),
        quantity=quantity,
        at_most=at_most,
        observed_on_hand=observed_on_hand,
        observed_at=observed_at,
    )
    if _held_for_a_person(ctx, proposal_id):
        return _propose_create(deps, call, wanted, run_id, actor)
    requests = [
        ReplenishmentRequest(
            sku=one,
            warehouse_id=warehouse_id,
            quantity=quantity,
            at_most=at_most,
            observed_on_hand=observed_on_hand if sku is not None else None,
            observed_at=observed_at,
            idempotency_key=approvals.approval_key(proposal_id)
            if proposal_id is not None
            else domain.order_key(
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
    if proposal_id is not None:
        if sku is None:
            raise InvalidArgument(
                f"{proposal_id}: an approved proposal orders one SKU; give sku, not skus",
                code="proposal_one_sku",
                field="skus",
            )
        authorise = approvals.approved_check(proposal_id, CREATE_TOOL, call.same_as)
        result = domain.create_replenishment(
            deps.store, requests[0], max_quantity=deps.max_order_quantity, now=deps.clock(),
            authorise=authorise, actor=actor,
        )  # fmt: skip
        return success(result)
    if sku is not None:
        result = domain.create_replenishment(
            deps.store, requests[0], max_quantity=deps.max_order_quantity, now=deps.clock(),
            actor=actor,
        )  # fmt: skip
        return success(result)
    items = domain.create_replenishments(
        deps.store, requests, max_quantity=deps.max_order_quantity, now=deps.clock(), actor=actor
    )
    output = ReplenishmentOutput(warehouse_id=warehouse_id, results=items)
    if all(item.refused for item in items):
        return _all_refused(output)
    return success(output, exclude_none=True)


def list_orders(
    ctx: ToolContext,
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
    return success(domain.list_orders(deps_of(ctx).store, query))


def cancel_order(order_id: OrderIdArg, ctx: ToolContext) -> Annotated[CallToolResult, CancelOutput]:
    deps = deps_of(ctx)
    run_id, proposal_id, actor = run_id_of(ctx), proposal_id_of(ctx), actor_of(ctx)
    if _held_for_a_person(ctx, proposal_id):
        domain.get_order(deps.store, order_id)  # an unknown id is refused now
        held, refusals = approvals.hold(
            deps.store, CANCEL_TOOL, [({"order_id": order_id}, None)], now=deps.clock(),
            ttl=deps.approval_ttl, run_id=run_id, requested_by=actor,
        )  # fmt: skip
        if refusals:
            raise refusals[0][1]
        message = approvals.held_message(f"cancelling {order_id}", held)
        return success(CancelOutput(queued=held, message=message), exclude_none=True)
    authorise = None
    if proposal_id is not None:
        authorise = approvals.approved_check(
            proposal_id, CANCEL_TOOL, lambda stored: dict(stored) == {"order_id": order_id}
        )
    result = domain.cancel_order(
        deps.store, order_id, now=deps.clock(), run_id=run_id, authorise=authorise, actor=actor
    )
    return success(result)


def register(server: MCPServer[ToolDeps], deps: ToolDeps) -> None:
    add_tool(
        server,
        GROUP,
        create_replenishment,
        name=CREATE_TOOL,
        title="Create a replenishment order",
        description="Order more of one SKU (sku) or of several SKUs (skus) for one warehouse. "
        "The server re-reads live stock and open orders inside the write and refuses a SKU "
        "unless on_hand + on_order < reorder_point. Quantity from 1 to "
        f"{deps.max_order_quantity}; {domain.POLICY}. Returns the order and the live numbers "
        "it was checked against, or for skus one result per SKU.",
        annotations=CREATES,
    )
    add_tool(
        server,
        GROUP,
        list_orders,
        name="orders_list",
        title="List replenishment orders",
        description="Replenishment orders, newest first, filtered by SKU, warehouse, status, "
        "creation time or caller run id.",
        annotations=READ_ONLY,
    )
    add_tool(
        server,
        GROUP,
        cancel_order,
        name=CANCEL_TOOL,
        title="Cancel a replenishment order",
        description="Cancel an open order; its quantity no longer counts in on_order. "
        "Cancelling an order that is already cancelled changes nothing.",
        annotations=UNDOES,
    )
