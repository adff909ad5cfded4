"""Plain words for a person reviewing orders: a run's tool calls as steps, the quantity a
proposal orders, and where a proposal came from.

Pure functions over run records and store rows. The dashboard shows what they say and reads
no tool's JSON itself, so the words are tested here once:

    step_words(call, quantities)  -> "read live stock of SKU-10232 in WH-01: 38 on hand, …"
    proposal_quantity(proposal)   -> (202, "by the reorder policy: …")
    proposal_source(proposal)     -> Source("run", "run run-3f1a… started by api:mei", …)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from pipeline.host import ToolCallRecord
from pipeline.models import JsonObject, JsonValue
from servers.domain import CANCEL, CREATE, policy_units
from servers.models import PlannedOrder
from store.models import AuditEntry, Order, Proposal

__all__ = [
    "SOURCE_KINDS",
    "STEP_WORDS",
    "OrderFacts",
    "Source",
    "SourceKind",
    "order_facts",
    "proposal_quantity",
    "proposal_source",
    "source_of",
    "step_words",
]

SourceKind = Literal["run", "watch", "cli", "mcp"]
SOURCE_KINDS: tuple[SourceKind, ...] = ("run", "watch", "cli", "mcp")
"""Where a write came from: a run started over the API (the dashboard), a run of the watch
folder, `stockshot run` at a terminal, or a tool call from an MCP client (no run)."""


@dataclass(frozen=True)
class Source:
    kind: SourceKind
    words: str
    run_id: str | None = None
    screen: str | None = None
    """The file name of the screenshot the write was read from, when a run read one."""


def _data(call: ToolCallRecord) -> JsonObject:
    """The tool's answer as an object: its structured content, else its text when that is a
    JSON object, else nothing."""
    if call.structured is not None:
        return call.structured
    try:
        parsed = json.loads(call.result)
    except ValueError:
        return {}
    return parsed if isinstance(parsed, dict) else {}


def _objects(value: JsonValue | None) -> list[JsonObject]:
    """The objects in a list (a tool's rows), or none when it is not a list."""
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _int(value: JsonValue | None) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _level(level: JsonValue | None) -> str:
    """`38 on hand, reorder point 120` (with what is on order when there is some)."""
    if not isinstance(level, dict):
        return ""
    on_order = _int(level.get("on_order"))
    ordered = f" + {on_order} on order" if on_order else ""
    low = ": low" if level.get("needs_reorder") is True else ""
    return (
        f"{level.get('on_hand')} on hand{ordered}, reorder point {level.get('reorder_point')}{low}"
    )


def _read_stock(call: ToolCallRecord, data: JsonObject) -> str:
    items = _objects(data.get("items"))
    where = data.get("warehouse_id") or call.arguments.get("warehouse_id")
    if len(items) == 1:
        return f"read live stock of {items[0].get('sku')} in {where}: {_level(items[0])}"
    each = "; ".join(f"{i.get('sku')} {_level(i)}" for i in items)
    return (
        f"read live stock of {len(items)} SKUs in {where}: {each}"
        if items
        else (f"read live stock in {where}: no rows")
    )


def _units(quantity: int | None) -> str:
    return f"{quantity}" if quantity is not None else "the reorder policy's quantity"


def _ordered(order: JsonValue | None, live: JsonValue | None, created: JsonValue | None) -> str:
    if not isinstance(order, dict):
        return ""
    again = "" if created is not False else " (the same order again: nothing new was written)"
    seen = f" (checked live: {_level(live)})" if isinstance(live, dict) else ""
    return (
        f"ordered {order.get('quantity')} of {order.get('sku')} in {order.get('warehouse_id')}: "
        f"{order.get('id')}{again}{seen}"
    )


def _create(call: ToolCallRecord, data: JsonObject, quantities: Mapping[str, int | None]) -> str:
    args = call.arguments
    asked = _int(args.get("quantity"))
    many = args.get("skus")
    skus = many if isinstance(many, list) else [args.get("sku")]
    what = f"{', '.join(str(s) for s in skus)} in {args.get('warehouse_id')}"
    if call.dry_run:
        return f"would order {_units(asked)} of {what} (dry run: nothing was written)"
    if call.is_error:
        message = data.get("message") or call.result
        return f"refused to order {_units(asked)} of {what}: {message}"
    queued = _objects(data.get("queued"))
    if queued:
        parts = []
        for q in queued:
            pid = str(q.get("proposal_id"))
            q_args = q.get("arguments") if isinstance(q.get("arguments"), dict) else {}
            units = _int(q_args.get("quantity")) if isinstance(q_args, dict) else None
            units = units if units is not None else quantities.get(pid)
            sku = q_args.get("sku") if isinstance(q_args, dict) else None
            where = f"{sku} in {args.get('warehouse_id')}"
            parts.append(
                f"{units} of {where} ({pid})"
                if units is not None
                else f"{where} ({pid}, the quantity the reorder policy sets)"
            )
        return f"proposed ordering {'; '.join(parts)}: waiting for a person's approval"
    if data.get("order") is not None:
        return _ordered(data.get("order"), data.get("live"), data.get("created"))
    results = _objects(data.get("results"))
    if results:
        said = []
        for r in results:
            refused = r.get("refused")
            if isinstance(refused, dict):
                said.append(f"{r.get('sku')} refused: {refused.get('message')}")
            else:
                said.append(_ordered(r.get("order"), r.get("live"), r.get("created")))
        return "; ".join(said)
    return f"asked to order {_units(asked)} of {what}: {data.get('message') or call.result}"


def _cancel(call: ToolCallRecord, data: JsonObject, _: Mapping[str, int | None]) -> str:
    order_id = call.arguments.get("order_id")
    if call.dry_run:
        return f"would cancel {order_id} (dry run: nothing was written)"
    if call.is_error:
        return f"refused to cancel {order_id}: {data.get('message') or call.result}"
    if data.get("queued"):
        return f"proposed cancelling {order_id}: waiting for a person's approval"
    if data.get("cancelled") is False:
        return f"{order_id} was cancelled already"
    return f"cancelled {order_id}"


def _warehouses(call: ToolCallRecord, data: JsonObject, _: Mapping[str, int | None]) -> str:
    found = _objects(data.get("warehouses"))
    names = ", ".join(f"{w.get('warehouse_id')} ({w.get('name')})" for w in found)
    return f"listed the warehouses: {names}" if found else "listed the warehouses: none"


StepWords = Callable[[ToolCallRecord, JsonObject, Mapping[str, int | None]], str]

STEP_WORDS: dict[str, StepWords] = {
    "inventory_query_stock": lambda call, data, _: _read_stock(call, data),
    CREATE: _create,
    CANCEL: _cancel,
    "warehouses_list": _warehouses,
}
"""The tools whose answers are said in words of their own; any other tool is said by its name,
its arguments and the first line of its answer."""


def _arguments(arguments: JsonObject) -> str:
    return ", ".join(f"{k} {v}" for k, v in arguments.items() if k != "idempotency_key")


def step_words(call: ToolCallRecord, quantities: Mapping[str, int | None] | None = None) -> str:
    """One tool call as a person says it: what was read or written, with its numbers, or
    what was refused and why. `quantities`: the units each proposal (by id) would order,
    for writes queued without a quantity of their own."""
    data = _data(call)
    words = STEP_WORDS.get(call.name)
    if words is not None:
        try:
            return words(call, data, quantities or {})
        except (AttributeError, TypeError):
            pass  # an answer of another shape: said plainly below
    refused = "refused: " if call.is_error else ""
    answer = str(data.get("message") or call.result).splitlines()[0] if call.result else ""
    return f"{call.name} ({_arguments(call.arguments)}): {refused}{answer}"[:600]


def proposal_quantity(
    proposal: Proposal, planned: PlannedOrder | None = None
) -> tuple[int | None, str]:
    """The units a replenishment proposal orders, and where that number comes from: the
    order its approval wrote, the quantity the call named, what an approval now would order,
    or the reorder policy over the live numbers read when it was proposed. None (with why)
    when no number can be said, or the write orders nothing (a cancel)."""
    result = proposal.result or {}
    order = result.get("order")
    if isinstance(order, dict) and _int(order.get("quantity")) is not None:
        return _int(order.get("quantity")), f"ordered by {order.get('id')}"
    if "sku" not in proposal.arguments:
        return None, "orders nothing"
    asked = _int(proposal.arguments.get("quantity"))
    if asked is not None:
        return asked, "named in the call"
    if planned is not None:
        if planned.quantity is None:
            return None, f"not low now, an approval would be refused ({planned.rule})"
        return planned.quantity, f"by the reorder policy now: {planned.rule}"
    live = proposal.live or {}
    on_hand, on_order = _int(live.get("on_hand")), _int(live.get("on_order")) or 0
    point = _int(live.get("reorder_point"))
    if on_hand is None or point is None:
        return None, "by the reorder policy (no live numbers were kept)"
    units = policy_units(on_hand + on_order, point)
    return units, (
        f"by the reorder policy when proposed: up to twice the reorder point {point} "
        f"from {on_hand} on hand + {on_order} on order"
    )


def _who(actor: str) -> str:
    return actor.split(":", 1)[1] if ":" in actor else actor


def proposal_source(proposal: Proposal) -> Source:
    """Where a proposal came from: its run, who asked for it and the screenshot it was read
    from (`source_of`)."""
    screen = (proposal.observation or {}).get("screen")
    shown = screen if isinstance(screen, str) and screen else None
    return source_of(proposal.run_id, proposal.requested_by, shown)


def source_of(run_id: str | None, actor: str | None, screen: str | None = None) -> Source:
    """Where a write came from, said from its run and who it acted for: a run of the watch
    folder (`watch:DIR`), `stockshot run` at a terminal (`cli:USER`), a run started over the
    API or the dashboard (`api:KEY`), or, with no run, an MCP client's tool call."""
    actor = actor or ""
    read = f", read from {screen}" if screen else ""
    if run_id is None:
        by = f" ({actor})" if actor else ""
        return Source("mcp", f"an MCP client's tool call{by}, no run and no screenshot")
    if actor.startswith("watch:"):
        words = f"the watch folder {_who(actor)}{read} (run {run_id})"
        return Source("watch", words, run_id, screen)
    if actor.startswith("cli:"):
        words = f"stockshot run by {_who(actor)}{read} (run {run_id})"
        return Source("cli", words, run_id, screen)
    by = f" started by {actor}" if actor else ""
    return Source("run", f"run {run_id}{by}{read}", run_id, screen)


@dataclass(frozen=True)
class OrderFacts:
    """Who and what stand behind an order: the proposal an approval of which wrote it, who
    approved it, who the write acted for, who cancelled it and why, and where it came from."""

    source: Source
    proposal_id: str | None = None
    approved_by: str | None = None
    ordered_by: str | None = None
    cancelled_by: str | None = None
    cancel_reason: str | None = None


_CANCELLED = "cancelled: "
"""How the audit log says a cancellation's reason (`servers.domain.cancel_order`)."""


def order_facts(order: Order, proposal: Proposal | None, audit: Sequence[AuditEntry]) -> OrderFacts:
    """The facts behind `order` from its proposal (if an approval wrote it) and its accepted
    audit entries: the create names who it acted for, a cancel who cancelled it and why."""
    accepted = [e for e in audit if e.order_id == order.id and e.outcome == "accepted"]
    created = next((e for e in accepted if e.action == CREATE), None)
    cancel = next(
        (e for e in accepted if e.action == CANCEL and e.reason != "already cancelled"), None
    )
    reason = None
    if cancel is not None and cancel.reason.startswith(_CANCELLED):
        reason = cancel.reason[len(_CANCELLED) :]
    ordered_by = created.actor if created is not None else None
    source = (
        proposal_source(proposal) if proposal is not None else source_of(order.run_id, ordered_by)
    )
    return OrderFacts(
        source=source,
        proposal_id=proposal.id if proposal is not None else None,
        approved_by=proposal.decided_by if proposal is not None else None,
        ordered_by=ordered_by,
        cancelled_by=cancel.actor if cancel is not None else None,
        cancel_reason=reason,
    )
