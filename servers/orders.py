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

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Annotated

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import CallToolResult, TextContent
from pydantic import BaseModel, ConfigDict, JsonValue, ValidationError

from servers import approvals, domain
from servers.errors import InvalidArgument, Refused
from servers.models import (
    BatchItem,
    CancelOutput,
    OrderList,
    QueuedProposal,
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
    ToolDeps,
    WarehouseIdArg,
    actor_of,
    caller_of,
    failed,
    group_tool,
    proposal_id_of,
    read_result,
    refused,
    run_id_of,
    success,
)
from store.errors import StoreError
from store.models import JsonObject, OrderQuery
from store.protocol import StoreWriter

__all__ = ["CANCEL_TOOL", "CREATE_TOOL", "GROUP", "instructions", "register"]

GROUP = "orders"
CREATE_TOOL = "orders_create_replenishment"
CANCEL_TOOL = "orders_cancel"


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


def _queued(
    deps: ToolDeps,
    tool: str,
    calls: list[tuple[JsonObject, JsonObject | None]],
    run_id: str | None,
    requested_by: str | None = None,
) -> tuple[list[QueuedProposal], list[tuple[JsonObject, Refused]]]:
    """Hold each call for a person (its arguments, and the live numbers read now), asked for
    by `requested_by`: the proposal each became or was waiting as already, and the calls the
    live re-check refused instead, each with its refusal."""
    now = deps.clock()
    held: list[QueuedProposal] = []
    refusals: list[tuple[JsonObject, Refused]] = []
    for arguments, live in calls:
        observation = None
        if arguments.get("observed_on_hand") is not None:
            observation = {
                "sku": arguments.get("sku"),
                "warehouse_id": arguments.get("warehouse_id"),
                "on_hand": arguments["observed_on_hand"],
                "captured_at": arguments.get("observed_at"),
            }
        try:
            proposed = approvals.propose(
                deps.store,
                tool=tool,
                arguments=arguments,
                now=now,
                ttl=deps.approval_ttl,
                run_id=run_id,
                observation=observation,
                live=live,
                requested_by=requested_by,
            )
        except Refused as exc:
            refusals.append((arguments, exc))
            continue
        proposal = proposed.proposal
        held.append(
            QueuedProposal(
                proposal_id=proposal.id,
                tool=tool,
                arguments=proposal.arguments,
                expires_at=proposal.expires_at,
                waiting_since=proposed.waiting_since,
            )
        )
    return held, refusals


def queued_message(what: str, held: list[QueuedProposal]) -> str:
    """What a held write answers: which proposals it became, which were waiting already (and
    since when), and that it must not be sent again."""
    new = [p.proposal_id for p in held if p.waiting_since is None]
    waiting = [
        f"{p.proposal_id} since {p.waiting_since.isoformat(timespec='seconds')}"
        for p in held
        if p.waiting_since is not None
    ]
    parts = []
    if new:
        parts.append(f"queued for approval, not executed: {what} is held as {', '.join(new)}")
    if waiting:
        parts.append(
            f"{'already' if not new else 'and already'} waiting for approval, not executed: "
            f"{what} {'was' if not new else 'partly was'} asked before and waits as "
            f"{', '.join(waiting)}"
        )
    return (
        "; ".join(parts) + ". Writes on this server need a person's approval (stockshot "
        "approvals list, or the dashboard's inbox); do not send it again. Report it as "
        "waiting for approval."
    )


def _writes_directly(ctx: Context) -> bool:
    """An HTTP caller whose key may write without a proposal (an approver's, where allowed):
    its write runs at once, audited under its name."""
    caller = caller_of(ctx)
    return caller is not None and caller.writes_directly


def _same_call(stored: Mapping[str, JsonValue], call: _CreateCall) -> bool:
    try:
        return _CreateCall.model_validate(dict(stored)) == call
    except ValidationError:
        return False


def _checked(
    proposal_id: str, tool: str, same: Callable[[Mapping[str, JsonValue]], bool]
) -> Callable[[StoreWriter], object]:
    def check(tx: StoreWriter) -> object:
        return approvals.check_approved(tx, proposal_id, tool=tool, same_arguments=same)

    return check


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


def register(server: MCPServer, deps: ToolDeps) -> None:
    def _propose_create(
        call: _CreateCall, wanted: list[str], run_id: str | None, actor: str | None
    ) -> CallToolResult:
        base = call.model_dump(mode="json", exclude_none=True, exclude={"sku", "skus"})
        if call.skus is not None:
            base.pop("observed_on_hand", None)  # one screen value cannot be every SKU's
        try:
            # A proposal names a SKU stocked where it is to be ordered; the live numbers now
            # let the approver see the quantity it comes to.
            levels = [domain.live_level(deps.store, one, call.warehouse_id) for one in wanted]
            if call.quantity is not None:
                domain.check_quantity(call.quantity, deps.max_order_quantity)
        except (Refused, StoreError) as exc:
            return failed(exc, write=True)
        try:
            held, refusals = _queued(
                deps,
                CREATE_TOOL,
                [
                    (
                        {"sku": one, **base},
                        {
                            "on_hand": level.on_hand,
                            "on_order": level.on_order,
                            "reorder_point": level.reorder_point,
                        },
                    )
                    for one, level in zip(wanted, levels, strict=True)
                ],
                run_id,
                requested_by=actor,
            )
        except StoreError as exc:
            return failed(exc, write=True)
        if call.sku is not None and refusals:
            return failed(refusals[0][1], write=True)
        skus = [str(p.arguments["sku"]) for p in held]
        what = f"an order of {', '.join(skus)} in {call.warehouse_id}"
        output = ReplenishmentOutput(
            warehouse_id=call.warehouse_id,
            queued=held or None,
            message=queued_message(what, held) if held else None,
            results=[
                BatchItem(sku=str(arguments["sku"]), refused=exc.as_dict())
                for arguments, exc in refusals
            ]
            or None,
        )
        if not held:
            return _all_refused(output)
        return success(output, exclude_none=True)

    @group_tool(
        server,
        GROUP,
        name=CREATE_TOOL,
        title="Create a replenishment order",
        description="Order more of one SKU (sku) or of several SKUs (skus) for one warehouse. "
        "The server re-reads live stock and open orders inside the write and refuses a SKU "
        "unless on_hand + on_order < reorder_point. Quantity from 1 to "
        f"{deps.max_order_quantity}; {domain.POLICY}. Returns the order and the live numbers "
        "it was checked against, or for skus one result per SKU.",
        annotations=CREATES,
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
        proposal_id = proposal_id_of(ctx)
        call = _CreateCall(
            warehouse_id=warehouse_id,
            sku=sku,
            skus=None if skus is None else tuple(wanted),
            quantity=quantity,
            at_most=at_most,
            observed_on_hand=observed_on_hand,
            observed_at=observed_at,
        )
        actor = actor_of(ctx)
        if proposal_id is None and deps.approval == "manual" and not _writes_directly(ctx):
            return _propose_create(call, wanted, run_id, actor)
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
                else order_key(
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
            if proposal_id is not None:
                if sku is None:
                    raise InvalidArgument(
                        f"{proposal_id}: an approved proposal orders one SKU; give sku, not skus",
                        code="proposal_one_sku",
                        field="skus",
                    )
                result = domain.create_replenishment(
                    deps.store,
                    requests[0],
                    max_quantity=deps.max_order_quantity,
                    now=deps.clock(),
                    authorise=_checked(proposal_id, CREATE_TOOL, lambda a: _same_call(a, call)),
                    actor=actor,
                )
                return success(result)
            if sku is not None:
                result = domain.create_replenishment(
                    deps.store, requests[0], max_quantity=deps.max_order_quantity,
                    now=deps.clock(), actor=actor,
                )  # fmt: skip
                return success(result)
            items = domain.create_replenishments(
                deps.store, requests, max_quantity=deps.max_order_quantity, now=deps.clock(),
                actor=actor,
            )  # fmt: skip
        except (Refused, StoreError) as exc:
            return failed(exc, write=True)
        output = ReplenishmentOutput(warehouse_id=warehouse_id, results=items)
        if all(item.refused for item in items):
            return _all_refused(output)
        return success(output, exclude_none=True)

    @group_tool(
        server,
        GROUP,
        name="orders_list",
        title="List replenishment orders",
        description="Replenishment orders, newest first, filtered by SKU, warehouse, status, "
        "creation time or caller run id.",
        annotations=READ_ONLY,
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
        return read_result(lambda: domain.list_orders(deps.store, query))

    @group_tool(
        server,
        GROUP,
        name=CANCEL_TOOL,
        title="Cancel a replenishment order",
        description="Cancel an open order; its quantity no longer counts in on_order. "
        "Cancelling an order that is already cancelled changes nothing.",
        annotations=UNDOES,
    )
    def cancel_order(order_id: OrderIdArg, ctx: Context) -> Annotated[CallToolResult, CancelOutput]:
        run_id, proposal_id, actor = run_id_of(ctx), proposal_id_of(ctx), actor_of(ctx)
        try:
            if proposal_id is None and deps.approval == "manual" and not _writes_directly(ctx):
                domain.get_order(deps.store, order_id)  # an unknown id is refused now
                held, refusals = _queued(
                    deps, CANCEL_TOOL, [({"order_id": order_id}, None)], run_id,
                    requested_by=actor,
                )  # fmt: skip
                if refusals:
                    return failed(refusals[0][1], write=True)
                message = queued_message(f"cancelling {order_id}", held)
                return success(CancelOutput(queued=held, message=message), exclude_none=True)
            authorise = None
            if proposal_id is not None:
                authorise = _checked(
                    proposal_id, CANCEL_TOOL, lambda stored: dict(stored) == {"order_id": order_id}
                )
            result = domain.cancel_order(
                deps.store, order_id, now=deps.clock(), run_id=run_id, authorise=authorise,
                actor=actor,
            )  # fmt: skip
        except (Refused, StoreError) as exc:
            return failed(exc, write=True)
        return success(result)
