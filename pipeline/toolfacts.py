"""What this run's tool results established, read from the servers' structured output.

The embedded planner reads them from the conversation, the guards and the host's ledger summary
from the run record; both go through `read_facts`, so the shape of a tool result is read in
one place. Pure: the results come in as plain data.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from pipeline.jsonread import count, items
from pipeline.models import JsonObject, JsonValue, Message

__all__ = [
    "CANCEL_TOOL",
    "CREATE_TOOL",
    "DRY_RUN",
    "FIND_ITEMS_TOOL",
    "GET_ITEM_TOOL",
    "LIST_ORDERS_TOOL",
    "LIST_WAREHOUSES_TOOL",
    "QUERY_TOOL",
    "VIEW_TOOL",
    "Facts",
    "Live",
    "OrderFact",
    "ToolResult",
    "from_messages",
    "read_facts",
]

QUERY_TOOL = "inventory_query_stock"
GET_ITEM_TOOL = "inventory_get_item"
FIND_ITEMS_TOOL = "inventory_find_items"
LIST_WAREHOUSES_TOOL = "warehouses_list"
CREATE_TOOL = "orders_create_replenishment"
LIST_ORDERS_TOOL = "orders_list"
CANCEL_TOOL = "orders_cancel"
VIEW_TOOL = "screen_view"
"""The host's own read tool (no server behind it): a screenshot, or a region of it, as an image."""
DRY_RUN = "dry run: "
"""How the host's answer to a write it did not run in a dry run begins."""


@dataclass(frozen=True)
class ToolResult:
    """One executed call and what came back (`data` is the structured result, if any)."""

    name: str
    arguments: Mapping[str, JsonValue]
    is_error: bool
    text: str
    data: Mapping[str, JsonValue] | None = None


@dataclass(frozen=True)
class Live:
    sku: str
    warehouse_id: str
    on_hand: int
    on_order: int
    reorder_point: int
    name: str = ""

    @property
    def projected(self) -> int:
        return self.on_hand + self.on_order

    @property
    def needs_reorder(self) -> bool:
        return self.projected < self.reorder_point

    def numbers(self) -> str:
        return (
            f"on_hand {self.on_hand} + on_order {self.on_order} "
            f"{'<' if self.needs_reorder else '>='} reorder_point {self.reorder_point}"
        )


@dataclass(frozen=True)
class OrderFact:
    id: str
    sku: str
    warehouse_id: str
    quantity: int
    status: str


@dataclass
class Facts:
    warehouses: list[str] | None = None
    """Ids from `warehouses_list`, once it answered."""
    warehouses_listed: bool = False
    live: dict[tuple[str, str], Live] = field(default_factory=dict)
    """Live stock rows a read returned, by (SKU, warehouse)."""
    queried: set[str] = field(default_factory=set)
    """Warehouses an `inventory_query_stock` was sent for."""
    query_errors: dict[str, str] = field(default_factory=dict)
    missing: dict[tuple[str, str], str] = field(default_factory=dict)
    located: dict[str, list[str]] = field(default_factory=dict)
    """Warehouses that stock a SKU, from `inventory_get_item`."""
    item_errors: dict[str, str] = field(default_factory=dict)
    listings: list[JsonObject] = field(default_factory=list)
    """Arguments of every `orders_list` that answered."""
    orders: dict[str, OrderFact] = field(default_factory=dict)
    """Every order a result named, latest state."""
    created: dict[tuple[str, str], OrderFact] = field(default_factory=dict)
    """Orders a create returned, by (SKU, warehouse)."""
    new_orders: list[str] = field(default_factory=list)
    """Ids of orders this run's creates made (not returned by an idempotency key)."""
    refusals: dict[tuple[str, str], str] = field(default_factory=dict)
    cancelled: dict[str, OrderFact] = field(default_factory=dict)
    cancel_errors: dict[str, str] = field(default_factory=dict)
    proposed: dict[tuple[str, str], str] = field(default_factory=dict)
    """Orders queued for approval instead of written: (SKU, warehouse) -> proposal id."""
    proposed_quantities: dict[str, int] = field(default_factory=dict)
    """Units of each queued order, by proposal id."""
    proposed_cancels: dict[str, str] = field(default_factory=dict)
    """Cancels queued for approval: order id -> proposal id."""
    dry_run: list[tuple[str, JsonObject]] = field(default_factory=list)
    """Writes a dry run recorded without running them: (tool, arguments)."""

    def recorded(self, key: tuple[str, str]) -> bool:
        """Whether a dry run recorded an order for this (SKU, warehouse)."""
        return any(
            tool == CREATE_TOOL
            and str(args.get("warehouse_id")) == key[1]
            and key[0] in [args.get("sku"), *items(args.get("skus"))]
            for tool, args in self.dry_run
        )

    def recorded_cancel(self, order_id: str) -> bool:
        return any(
            tool == CANCEL_TOOL and args.get("order_id") == order_id for tool, args in self.dry_run
        )

    def listed_orders(self, **filters: str) -> bool:
        """Whether an `orders_list` covering these filters answered (a listing without a
        filter covers every value of it)."""
        return any(
            all(listing.get(k) in (None, v) for k, v in filters.items())
            for listing in self.listings
        )


_T = TypeVar("_T")


def _parsed(build: Callable[[JsonObject], _T]) -> Callable[[JsonValue], _T | None]:
    """`build` for a result's object: None where the value is not an object, or lacks or garbles
    one of the fields `build` reads."""

    def parse(data: JsonValue) -> _T | None:
        if not isinstance(data, dict):
            return None
        try:
            return build(data)
        except (KeyError, TypeError, ValueError):
            return None

    return parse


@_parsed
def _order(data: JsonObject) -> OrderFact:
    return OrderFact(
        id=str(data["id"]),
        sku=str(data["sku"]),
        warehouse_id=str(data["warehouse_id"]),
        quantity=count(data["quantity"]),
        status=str(data.get("status", "open")),
    )


@_parsed
def _live(item: JsonObject) -> Live:
    return Live(
        sku=str(item["sku"]),
        warehouse_id=str(item["warehouse_id"]),
        on_hand=count(item["on_hand"]),
        on_order=count(item.get("on_order", 0)),
        reorder_point=count(item["reorder_point"]),
        name=str(item.get("name", "")),
    )


def _items(data: Mapping[str, JsonValue], key: str) -> list[JsonObject]:
    value = data.get(key)
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def read_facts(results: Iterable[ToolResult]) -> Facts:
    """Fold the results, in order, into what they established."""
    facts = Facts()
    for result in results:
        data = result.data if result.data is not None else _json(result.text)
        args = result.arguments
        if result.name == LIST_WAREHOUSES_TOOL:
            facts.warehouses_listed = True
            if not result.is_error and data:
                facts.warehouses = [
                    str(w["warehouse_id"])
                    for w in _items(data, "warehouses")
                    if "warehouse_id" in w
                ]
        elif result.name == QUERY_TOOL:
            warehouse = str(args.get("warehouse_id", ""))
            facts.queried.add(warehouse)
            if result.is_error or not data:
                facts.query_errors[warehouse] = result.text
                continue
            facts.query_errors.pop(warehouse, None)
            for item in _items(data, "items"):
                if (level := _live(item)) is not None:
                    facts.live[(level.sku, level.warehouse_id)] = level
            for missing in _items(data, "not_found"):
                key = (str(missing.get("sku")), warehouse)
                facts.missing[key] = str(missing.get("message", "not found"))
        elif result.name == GET_ITEM_TOOL:
            sku = str(args.get("sku", ""))
            if result.is_error or not data:
                facts.item_errors[sku] = result.text
                continue
            levels = [lv for item in _items(data, "warehouses") if (lv := _live(item))]
            for level in levels:
                facts.live[(level.sku, level.warehouse_id)] = level
            facts.located[sku] = [level.warehouse_id for level in levels]
        elif result.name in (CREATE_TOOL, CANCEL_TOOL) and result.text.startswith(DRY_RUN):
            facts.dry_run.append((result.name, dict(args)))
        elif result.name in (CREATE_TOOL, CANCEL_TOOL) and data and _queued(data):
            for queued in _items(data, "queued"):
                proposal, queued_args = str(queued.get("proposal_id")), queued.get("arguments")
                if not isinstance(queued_args, Mapping):
                    continue
                if result.name == CANCEL_TOOL:
                    facts.proposed_cancels[str(queued_args.get("order_id"))] = proposal
                    continue
                key = (str(queued_args.get("sku")), str(queued_args.get("warehouse_id")))
                facts.proposed[key] = proposal
                quantity = queued_args.get("quantity")
                if isinstance(quantity, int):
                    facts.proposed_quantities[proposal] = quantity
        elif result.name == CREATE_TOOL and data and isinstance(data.get("results"), list):
            warehouse = str(args.get("warehouse_id"))
            for item in _items(data, "results"):
                key = (str(item.get("sku")), warehouse)
                order = _order(item.get("order") or {})
                if order is None:
                    refusal = item.get("refused")
                    message = refusal.get("message") if isinstance(refusal, Mapping) else None
                    facts.refusals[key] = f"refused: {message or 'no order'}"
                    continue
                facts.refusals.pop(key, None)
                facts.created[key] = order
                facts.orders[order.id] = order
                if item.get("created", True) and order.id not in facts.new_orders:
                    facts.new_orders.append(order.id)
                if (level := _live(item.get("live") or {})) is not None:
                    facts.live.setdefault(key, level)
        elif result.name == CREATE_TOOL:
            key = (str(args.get("sku")), str(args.get("warehouse_id")))
            order = _order(data.get("order", {})) if data and not result.is_error else None
            if order is None:
                facts.refusals[key] = result.text
                continue
            facts.refusals.pop(key, None)
            facts.created[key] = order
            facts.orders[order.id] = order
            if data and data.get("created", True) and order.id not in facts.new_orders:
                facts.new_orders.append(order.id)
        elif result.name == LIST_ORDERS_TOOL:
            if result.is_error or not data:
                continue
            facts.listings.append({k: v for k, v in args.items() if k != "limit"})
            for item in _items(data, "orders"):
                if (order := _order(item)) is not None:
                    facts.orders[order.id] = order
        elif result.name == CANCEL_TOOL:
            order_id = str(args.get("order_id", ""))
            order = _order(data.get("order", {})) if data and not result.is_error else None
            if order is None:
                facts.cancel_errors[order_id] = result.text
                continue
            facts.orders[order.id] = order
            if data and data.get("cancelled"):
                facts.cancelled[order.id] = order
    return facts


def _queued(data: Mapping[str, JsonValue]) -> bool:
    return isinstance(data.get("queued"), list)


def from_messages(messages: Sequence[Message]) -> list[ToolResult]:
    """The tool results of a conversation, each with the call it answers."""
    calls = {}
    results: list[ToolResult] = []
    for message in messages:
        for call in message.tool_calls:
            calls[call.id] = call
        if message.role != "tool" or message.tool_call_id not in calls:
            continue
        call = calls[message.tool_call_id]
        results.append(
            ToolResult(call.name, call.arguments, message.is_error, message.content, None)
        )
    return results


def _json(text: str) -> JsonObject | None:
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, TypeError):
        return None
    return value if isinstance(value, dict) else None
