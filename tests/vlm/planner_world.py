"""What the `rules` planner's tests drive it with: conversations shaped like the host's (the
Markdown the ingest renders, inside the opening message) and tool servers that answer like the
real ones."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from pipeline.contract import parse_task, render_contract
from pipeline.models import Message, ModelSettings, ToolCall, ToolSpec
from pipeline.vlm.rules import RulesModel
from servers import domain
from servers.models import (
    CancelResult,
    ItemReport,
    NotFound,
    OrderList,
    ReplenishmentResult,
    StockReport,
    WarehouseList,
    WarehouseSummary,
)
from store.models import Order, StockLevel

CAPTURED = "2026-11-28T10:05:00+08:00"
NOW = datetime(2026, 11, 30, 4, 0, tzinfo=UTC)
SETTINGS = ModelSettings()
HEADER = "| sku | name | on_hand | reorder_point | warehouse_id | low |\n|---|---|---|---|---|---|"
ALL_TOOLS = (
    "warehouses_list",
    "inventory_query_stock",
    "inventory_get_item",
    "orders_create_replenishment",
)
CANCEL_TOOLS = ("orders_list", "orders_cancel")
WRITES = ("orders_create_replenishment", "orders_cancel")


# ---- the conversation: the Markdown the ingest renders, inside the host's opening message


def screen(
    rows: Sequence[tuple[str, str, int, int, str | None]],
    *,
    captured: str = CAPTURED,
    page: str | None = None,
) -> str:
    """A table as `render_screen` writes it: sku, name, on_hand, reorder_point, warehouse, low."""
    lines = [f"Screenshot captured at {captured} (a past view)."]
    if page is not None:
        lines.append(f"Page: {page}")
    lines += HEADER.splitlines()
    for sku, name, on_hand, reorder_point, warehouse in rows:
        low = "yes" if on_hand < reorder_point else "no"
        lines.append(
            f"| {sku} | {name} | {on_hand:,} | {reorder_point} | {warehouse or ''} | {low} |"
        )
    return "\n".join(lines)


def opening(*screens: str, task: str = "Restock everything that is low.") -> str:
    """The host's opening message: the task, its contract, the attachments."""
    lines = [f"Task: {task}", "", render_contract(parse_task(task)), ""]
    lines.append('Attachments (pass one to a tool as its "@name"):')
    names = [f"shot-{k + 1}.png" for k in range(len(screens))]
    lines += [f"- @{name}: the table read from {name}" for name in names]
    for name, text in zip(names, screens, strict=True):
        lines += ["", f"@{name}:", text]
    return "\n".join(lines)


MAIN = screen(
    [
        ("SKU-10232", "Hex nut M8 (box of 200)", 38, 120, "WH-01"),
        ("SKU-10233", "Flat washer M8 (box of 500)", 1204, 300, "WH-01"),
        ("SKU-10318", "Heat-shrink tube kit", 2, 25, "WH-01"),
        ("SKU-20410", "Dust mask FFP2 (box of 20)", 5, 40, "WH-02"),
    ],
    page="Inventory · All warehouses",
)
NO_WAREHOUSE = [
    ("SKU-10232", "Hex nut M8 (box of 200)", 38, 120, None),
    ("SKU-10318", "Heat-shrink tube kit", 2, 25, None),
]


# ---- tool servers that answer like the real ones


@dataclass
class Live:
    """One SKU's live stock in one warehouse, its fields named as `StockLevel` names them."""

    name: str
    on_hand: int
    on_order: int
    reorder_point: int


@dataclass
class FakeServers:
    """Warehouses, live stock and orders; results are the servers' JSON (or their refusals)."""

    stock: dict[tuple[str, str], Live]
    warehouses: tuple[str, ...] = ("WH-01", "WH-02")
    refuse_writes: Mapping[str, str] = field(default_factory=dict)
    fail: Mapping[str, str] = field(default_factory=dict)
    orders: list[dict[str, Any]] = field(default_factory=list)
    existing: list[Order] = field(default_factory=list)
    """Orders in the ledger before the run (for cancels)."""

    def call(self, name: str, arguments: dict[str, Any]) -> tuple[bool, str]:
        if name in self.fail:
            return True, self.fail[name]
        handler: Callable[[dict[str, Any]], tuple[bool, str]] = getattr(self, name)
        return handler(arguments)

    def level(self, sku: str, warehouse_id: str) -> StockLevel:
        live = asdict(self.stock[(sku, warehouse_id)])
        return StockLevel.live(sku=sku, warehouse_id=warehouse_id, updated_at=NOW, **live)

    def warehouses_list(self, arguments: dict[str, Any]) -> tuple[bool, str]:
        summaries = [
            WarehouseSummary(
                warehouse_id=w, name=f"Hub {w}", city="", skus=3, skus_needing_reorder=1
            )
            for w in self.warehouses
        ]
        return False, WarehouseList(warehouses=summaries).model_dump_json()

    def inventory_query_stock(self, arguments: dict[str, Any]) -> tuple[bool, str]:
        warehouse = arguments["warehouse_id"]
        if warehouse not in self.warehouses:
            known = ", ".join(self.warehouses)
            return True, f"{warehouse} is not a known warehouse id; known: {known}"
        skus = arguments.get("skus") or sorted(s for s, w in self.stock if w == warehouse)
        items = [self.level(s, warehouse) for s in skus if (s, warehouse) in self.stock]
        missing = [
            NotFound(sku=s, message=f"{s} is not a known SKU")
            for s in skus
            if (s, warehouse) not in self.stock
        ]
        report = StockReport(warehouse_id=warehouse, as_of=NOW, items=items, not_found=missing)
        return False, report.model_dump_json()

    def orders_create_replenishment(self, arguments: dict[str, Any]) -> tuple[bool, str]:
        sku, warehouse = arguments["sku"], arguments["warehouse_id"]
        if sku in self.refuse_writes:
            return True, f"refused: {self.refuse_writes[sku]}"
        self.orders.append(arguments)
        level = self.level(sku, warehouse)
        order = Order(
            id=f"PO-{len(self.orders):06d}",
            sku=sku,
            warehouse_id=warehouse,
            quantity=arguments.get("quantity") or domain.policy_quantity(level),
            status="open",
            created_at=NOW,
            idempotency_key=arguments.get("idempotency_key"),
        )
        result = ReplenishmentResult(order=order, created=True, live=level)
        return False, result.model_dump_json()

    def inventory_get_item(self, arguments: dict[str, Any]) -> tuple[bool, str]:
        sku = arguments["sku"]
        levels = [self.level(s, w) for s, w in self.stock if s == sku]
        if not levels:
            return True, f"{sku} is not a known SKU"
        report = ItemReport(
            sku=sku,
            name=levels[0].name,
            as_of=NOW,
            total_on_hand=sum(lv.on_hand for lv in levels),
            warehouses=levels,
        )
        return False, report.model_dump_json()

    def orders_list(self, arguments: dict[str, Any]) -> tuple[bool, str]:
        found = [
            o
            for o in self.existing
            if all(
                arguments.get(k) in (None, getattr(o, k)) for k in ("sku", "warehouse_id", "status")
            )
        ]
        return False, OrderList(orders=found).model_dump_json()

    def orders_cancel(self, arguments: dict[str, Any]) -> tuple[bool, str]:
        order_id = arguments["order_id"]
        for k, order in enumerate(self.existing):
            if order.id == order_id:
                was_open = order.status == "open"
                self.existing[k] = order.model_copy(update={"status": "cancelled"})
                result = CancelResult(order=self.existing[k], cancelled=was_open)
                return False, result.model_dump_json()
        return True, f"unknown order id {order_id!r}"


def servers(**overrides: Any) -> FakeServers:
    stock = {
        ("SKU-10232", "WH-01"): Live("Hex nut M8 (box of 200)", 38, 0, 120),
        ("SKU-10233", "WH-01"): Live("Flat washer M8 (box of 500)", 1204, 0, 300),
        ("SKU-10318", "WH-01"): Live("Heat-shrink tube kit", 2, 0, 25),
        ("SKU-20410", "WH-02"): Live("Dust mask FFP2 (box of 20)", 5, 10, 40),
    }
    stock.update(overrides.pop("stock", {}))
    return FakeServers(stock=stock, **overrides)


@dataclass
class Run:
    turns: list[list[ToolCall]]
    answer: str
    messages: list[Message]

    def calls(self, name: str) -> list[dict[str, Any]]:
        return [c.arguments for turn in self.turns for c in turn if c.name == name]


async def drive(
    user: str,
    tools: FakeServers | None = None,
    offered: Sequence[str] = ALL_TOOLS,
    model: RulesModel | None = None,
) -> Run:
    """The host's loop in miniature: request, run every call, append the results, repeat."""
    model = model or RulesModel()
    tools = tools or servers()
    specs = [ToolSpec(name=n, group=n.split("_")[0], read_only=n not in WRITES) for n in offered]
    messages = [
        Message(role="system", content="You raise replenishment orders."),
        Message(role="user", content=user),
    ]
    turns: list[list[ToolCall]] = []
    for _ in range(8):
        response = await model.request(messages, specs, SETTINGS)
        messages.append(
            Message(role="assistant", content=response.content, tool_calls=response.tool_calls)
        )
        if not response.tool_calls:
            assert response.finish_reason == "stop"
            return Run(turns, response.content, messages)
        assert response.finish_reason == "tool_calls"
        assert {c.name for c in response.tool_calls} <= set(offered)
        turns.append(response.tool_calls)
        for call in response.tool_calls:
            is_error, text = tools.call(call.name, call.arguments)
            messages.append(
                Message(
                    role="tool",
                    content=text,
                    tool_call_id=call.id,
                    name=call.name,
                    is_error=is_error,
                )
            )
    raise AssertionError("no final answer within 8 requests")


def names(turn: list[ToolCall]) -> list[str]:
    return [c.name for c in turn]
