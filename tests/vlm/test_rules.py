"""`rules`: the deterministic planner, driven through conversations shaped like the host's, with
tool results shaped like the real servers' JSON."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from pipeline.contract import parse_task, render_contract
from pipeline.models import Message, ModelSettings, Table, ToolCall, ToolSpec
from pipeline.screentext import render_screen, screens_in
from pipeline.table.rows import screen_text, to_rows
from pipeline.vlm import ModelOptions, make_model
from pipeline.vlm.rules import RulesModel
from servers import catalog, domain
from servers.factory import build_server
from servers.models import (
    CancelResult,
    ItemReport,
    NotFound,
    Order,
    OrderList,
    ReplenishmentResult,
    StockLevel,
    StockReport,
    WarehouseList,
    WarehouseSummary,
)
from servers.sql.store import SqlStore
from servers.stores import sqlite_store

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
        live = self.stock[(sku, warehouse_id)]
        return StockLevel.live(
            sku=sku,
            name=live.name,
            warehouse_id=warehouse_id,
            on_hand=live.on_hand,
            on_order=live.on_order,
            reorder_point=live.reorder_point,
            updated_at=NOW,
        )

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


# ---- the plan


async def test_it_reads_live_stock_per_warehouse_then_orders() -> None:
    run = await drive(opening(MAIN))

    assert [names(t) for t in run.turns] == [
        ["inventory_query_stock", "inventory_query_stock"],
        ["orders_create_replenishment"] * 3,
    ]
    assert run.calls("inventory_query_stock") == [
        {"warehouse_id": "WH-01", "skus": ["SKU-10232", "SKU-10318"]},
        {"warehouse_id": "WH-02", "skus": ["SKU-20410"]},
    ]


async def test_without_a_quantity_in_the_task_it_leaves_the_quantity_to_the_server() -> None:
    run = await drive(opening(MAIN))

    assert run.calls("orders_create_replenishment") == [
        {
            "sku": "SKU-10232",
            "warehouse_id": "WH-01",
            "idempotency_key": f"replenish-SKU-10232-WH-01-{CAPTURED}",
            "observed_on_hand": 38,
            "observed_at": CAPTURED,
        },
        {
            "sku": "SKU-10318",
            "warehouse_id": "WH-01",
            "idempotency_key": f"replenish-SKU-10318-WH-01-{CAPTURED}",
            "observed_on_hand": 2,
            "observed_at": CAPTURED,
        },
        {
            "sku": "SKU-20410",
            "warehouse_id": "WH-02",
            "idempotency_key": f"replenish-SKU-20410-WH-02-{CAPTURED}",
            "observed_on_hand": 5,
            "observed_at": CAPTURED,
        },
    ]


async def test_a_quantity_rule_uses_live_numbers_not_the_screenshot() -> None:
    tools = servers(stock={("SKU-10232", "WH-01"): Live("Hex nut", 20, 30, 120)})
    text = screen([("SKU-10232", "Hex nut", 38, 120, "WH-01")])

    run = await drive(opening(text, task="restock up to twice the reorder point"), tools)

    (order,) = run.calls("orders_create_replenishment")
    assert (order["quantity"], order["observed_on_hand"]) == (240 - (20 + 30), 38)


async def test_the_final_answer_reports_every_order_with_its_id() -> None:
    run = await drive(opening(MAIN))

    assert run.answer.splitlines() == [
        "Ordered 3, skipped 0.",
        "- ordered: SKU-10232 in WH-01: ordered 202 (PO-000001)",
        "- ordered: SKU-10318 in WH-01: ordered 48 (PO-000002)",
        "- ordered: SKU-20410 in WH-02: ordered 65 (PO-000003)",
    ]


async def test_a_sku_restocked_since_the_screenshot_is_skipped_with_the_live_numbers() -> None:
    tools = servers(stock={("SKU-10318", "WH-01"): Live("Heat-shrink tube kit", 300, 0, 25)})

    run = await drive(opening(MAIN), tools)

    assert [o["sku"] for o in run.calls("orders_create_replenishment")] == [
        "SKU-10232",
        "SKU-20410",
    ]
    assert "Ordered 2, skipped 1." in run.answer
    assert (
        "- skipped: SKU-10318 in WH-01: not low any more: live on_hand 300 >= reorder_point 25 "
        "(screen showed 2)"
    ) in run.answer


async def test_a_sku_covered_by_open_orders_is_not_ordered_again() -> None:
    tools = servers(stock={("SKU-10232", "WH-01"): Live("Hex nut", 38, 202, 120)})

    run = await drive(opening(MAIN), tools)

    assert "SKU-10232" not in [o["sku"] for o in run.calls("orders_create_replenishment")]
    assert (
        "- skipped: SKU-10232 in WH-01: already covered by 202 on order: "
        "on_hand 38 + on_order 202 >= reorder_point 120"
    ) in run.answer


async def test_a_refused_order_is_reported_and_not_sent_again() -> None:
    refusal = "SKU-10318 in WH-01 is not low now: on_hand 40 + on_order 0 >= reorder_point 25"
    tools = servers(refuse_writes={"SKU-10318": refusal})

    run = await drive(opening(MAIN), tools)

    sent = [o["sku"] for o in run.calls("orders_create_replenishment")]
    assert sent.count("SKU-10318") == 1
    assert "Ordered 2, skipped 1." in run.answer
    assert f"SKU-10318 in WH-01: refused by the server: refused: {refusal}" in run.answer


async def test_an_unknown_sku_is_reported_with_the_servers_message() -> None:
    text = screen(
        [("SKU-10232", "Hex nut", 38, 120, "WH-01"), ("SKU-99999", "Mystery", 1, 10, "WH-01")]
    )

    run = await drive(opening(text))

    assert run.calls("inventory_query_stock") == [
        {"warehouse_id": "WH-01", "skus": ["SKU-10232", "SKU-99999"]}
    ]
    assert [o["sku"] for o in run.calls("orders_create_replenishment")] == ["SKU-10232"]
    assert "- skipped: SKU-99999 in WH-01: SKU-99999 is not a known SKU" in run.answer


async def test_a_warehouse_the_server_rejects_is_reported_for_its_skus() -> None:
    text = screen([("SKU-10232", "Hex nut", 38, 120, "WH-01"), ("SKU-1", "Tape", 1, 10, "WH-09")])

    run = await drive(opening(text))

    assert "- skipped: SKU-1 in WH-09: WH-09 is not a known warehouse id" in run.answer
    assert [o["sku"] for o in run.calls("orders_create_replenishment")] == ["SKU-10232"]


async def test_a_failed_live_read_means_no_order_and_says_why() -> None:
    tools = servers(fail={"inventory_query_stock": "the inventory server is busy"})

    run = await drive(opening(MAIN), tools)

    assert run.calls("orders_create_replenishment") == []
    assert "Ordered 0, skipped 3." in run.answer
    assert "SKU-10232 in WH-01: the inventory server is busy" in run.answer


async def test_a_failed_warehouse_list_is_not_requested_again() -> None:
    tools = servers(fail={"warehouses_list": "the warehouses server is busy"})

    run = await drive(opening(screen(NO_WAREHOUSE)), tools)

    assert [names(t) for t in run.turns] == [["warehouses_list"]]
    assert "Which warehouse is this screen for? (warehouses: unknown)" in run.answer


# ---- which warehouse


async def test_it_asks_which_warehouse_when_neither_rows_nor_page_name_one() -> None:
    run = await drive(opening(screen(NO_WAREHOUSE, page="Inventory · Stock list")))

    assert [names(t) for t in run.turns] == [["warehouses_list"]]
    assert "SKU-10232, SKU-10318" in run.answer
    assert "Which warehouse is this screen for?" in run.answer
    assert "(warehouses: WH-01, WH-02)" in run.answer


async def test_without_a_warehouse_list_the_question_says_the_ids_are_unknown() -> None:
    run = await drive(
        opening(screen(NO_WAREHOUSE)),
        offered=["inventory_query_stock", "orders_create_replenishment"],
    )

    assert run.turns == []
    assert "Which warehouse is this screen for? (warehouses: unknown)" in run.answer


async def test_the_warehouse_the_page_names_places_rows_without_one() -> None:
    run = await drive(opening(screen(NO_WAREHOUSE, page="Inventory · Warehouse: WH-01")))

    assert run.calls("inventory_query_stock") == [
        {"warehouse_id": "WH-01", "skus": ["SKU-10232", "SKU-10318"]}
    ]
    assert [o["warehouse_id"] for o in run.calls("orders_create_replenishment")] == ["WH-01"] * 2


async def test_a_page_naming_two_warehouses_does_not_place_rows() -> None:
    run = await drive(opening(screen(NO_WAREHOUSE, page="Transfers · WH-01 → WH-02")))

    assert run.calls("inventory_query_stock") == []
    assert "Which warehouse is this screen for?" in run.answer


async def test_a_row_with_its_own_warehouse_ignores_the_page() -> None:
    text = screen([("SKU-20410", "Dust mask", 5, 40, "WH-02")], page="Warehouse WH-01")

    run = await drive(opening(text))

    assert run.calls("inventory_query_stock") == [{"warehouse_id": "WH-02", "skus": ["SKU-20410"]}]


async def test_each_screen_is_placed_by_its_own_page() -> None:
    first = screen([("SKU-10232", "Hex nut", 38, 120, None)], page="Warehouse WH-01")
    second = screen([("SKU-20410", "Dust mask", 5, 40, None)], page="Warehouse WH-02")

    run = await drive(opening(first, second))

    assert run.calls("inventory_query_stock") == [
        {"warehouse_id": "WH-01", "skus": ["SKU-10232"]},
        {"warehouse_id": "WH-02", "skus": ["SKU-20410"]},
    ]


async def test_a_screen_whose_page_names_no_warehouse_does_not_borrow_another_screens() -> None:
    first = screen([("SKU-10232", "Hex nut", 38, 120, None)], page="Warehouse WH-01")
    second = screen([("SKU-20410", "Dust mask", 5, 40, None)], page="Low stock report")

    run = await drive(opening(first, second))

    assert run.calls("inventory_query_stock") == []
    assert "which warehouse SKU-20410 belong to" in run.answer


# ---- what is offered and what is shown


async def test_without_order_tools_it_reads_live_stock_and_orders_nothing() -> None:
    run = await drive(opening(MAIN), offered=["warehouses_list", "inventory_query_stock"])

    assert [names(t) for t in run.turns] == [["inventory_query_stock", "inventory_query_stock"]]
    assert "Ordered 0, skipped 3." in run.answer
    assert (
        "SKU-10232 in WH-01: still low live (on_hand 38 + on_order 0 < reorder_point 120); "
        "no ordering tools were offered"
    ) in run.answer


async def test_without_a_live_read_it_never_orders() -> None:
    run = await drive(opening(MAIN), offered=["warehouses_list", "orders_create_replenishment"])

    assert run.calls("orders_create_replenishment") == []
    assert "SKU-10232 in WH-01: live stock was not available" in run.answer


async def test_with_every_row_placed_it_never_lists_the_warehouses() -> None:
    run = await drive(opening(MAIN))

    assert run.calls("warehouses_list") == []
    assert len(run.calls("orders_create_replenishment")) == 3


async def test_it_says_so_when_there_is_no_table() -> None:
    run = await drive("Task: Restock everything that is low.")

    assert run.turns == []
    assert "I found no inventory table" in run.answer


async def test_a_grid_without_inventory_columns_counts_as_no_table() -> None:
    grid = "\n".join(
        [
            f"Screenshot captured at {CAPTURED} (a past view).",
            "| Date | Visitors |",
            "|---|---|",
            "| 2026-11-27 | 120 |",
        ]
    )

    run = await drive(opening(grid))

    assert "I found no inventory table" in run.answer


async def test_a_table_with_nothing_low_needs_nothing() -> None:
    text = screen([("SKU-10233", "Flat washer", 1204, 300, "WH-01")])

    run = await drive(opening(text))

    assert run.turns == []
    assert run.answer == "No SKU on the screenshot is below its reorder point; nothing to do."


async def test_a_sku_shown_on_two_screens_is_read_and_ordered_once() -> None:
    earlier = screen([("SKU-10232", "Hex nut", 38, 120, "WH-01")])
    later = screen(
        [("SKU-10232", "Hex nut", 30, 120, "WH-01")], captured="2026-11-28T16:00:00+08:00"
    )

    run = await drive(opening(earlier, later))

    assert run.calls("inventory_query_stock") == [{"warehouse_id": "WH-01", "skus": ["SKU-10232"]}]
    assert len(run.calls("orders_create_replenishment")) == 1
    assert run.answer.startswith("Ordered 1, skipped 0.")


async def test_only_user_messages_are_read_as_screens() -> None:
    run_messages = [
        Message(role="system", content=MAIN),
        Message(role="user", content="Task: restock"),
    ]

    response = await RulesModel().request(run_messages, [], SETTINGS)

    assert "I found no inventory table" in response.content


async def test_tool_call_ids_are_unique_across_the_run() -> None:
    run = await drive(opening(MAIN))

    ids = [c.id for turn in run.turns for c in turn]
    assert len(ids) == len(set(ids)) == 5


async def test_the_registry_builds_it() -> None:
    model = make_model("rules", ModelOptions())

    response = await model.request([Message(role="user", content="hi")], [], SETTINGS)

    assert model.name == response.model == "rules"


# ---- agreement with the real ingest and the real servers


def test_the_table_the_ingest_renders_is_the_table_it_reads() -> None:
    table = Table(
        header=["SKU", "Product", "On hand", "Reorder point", "Location", "Supplier"],
        cells=[
            ["SKU-10232", "Hex nut M8", "38", "120", "", "Acme"],
            ["SKU-10233", "Flat washer", "1,204", "300", "", "Acme"],
        ],
    )
    mapped = to_rows(table, [[1.0] * 6] * 2)
    captured = datetime.fromisoformat(CAPTURED)

    text = render_screen(
        screen_text(table, mapped, captured_at=captured, context=["Stock", "WH-02", "Page 1"])
    )
    (parsed,) = screens_in([Message(role="user", content=text)])

    assert parsed.captured_at == captured
    assert parsed.page_warehouse == "WH-02"
    assert [(r.sku, r.on_hand, r.reorder_point, r.low) for r in parsed.rows] == [
        ("SKU-10232", 38, 120, True),
        ("SKU-10233", 1204, 300, False),
    ]


async def run_once(client: Client, specs: list[ToolSpec], text: str) -> tuple[list[ToolCall], str]:
    """One run of the planner over `text`, its calls answered by the real servers."""
    model = RulesModel()
    messages = [Message(role="user", content=opening(text))]
    made: list[ToolCall] = []
    for _ in range(8):
        response = await model.request(messages, specs, SETTINGS)
        messages.append(Message(role="assistant", tool_calls=response.tool_calls))
        if not response.tool_calls:
            return made, response.content
        made += response.tool_calls
        for call in response.tool_calls:
            result = await client.call_tool(call.name, call.arguments)
            content = "\n".join(getattr(b, "text", "") for b in result.content)
            messages.append(
                Message(
                    role="tool",
                    content=content,
                    tool_call_id=call.id,
                    is_error=bool(result.is_error),
                )
            )
    raise AssertionError("no final answer within 8 requests")


REAL_SCREEN = screen(
    [
        ("SKU-10232", "Hex nut M8 (box of 200)", 38, 120, "WH-01"),
        ("SKU-10403", "Safety gloves size M (pair)", 95, 200, "WH-01"),
        ("SKU-10402", "Safety gloves size L (pair)", 310, 200, "WH-01"),
    ]
)


@contextlib.asynccontextmanager
async def real_servers(db: Path) -> AsyncIterator[tuple[Client, list[ToolSpec], SqlStore]]:
    with sqlite_store(db) as store:
        domain.seed(store, *catalog.seed_data(), now=NOW)
        server = build_server("all", store, clock=lambda: NOW)
        async with Client(server) as client:
            specs = [
                ToolSpec(name=t.name, group="all", input_schema=dict(t.input_schema))
                for t in (await client.list_tools()).tools
            ]
            yield client, specs, store


async def test_against_the_real_servers_it_orders_once_and_skips_on_the_second_run(
    tmp_path: Path,
) -> None:
    async with real_servers(tmp_path / "stock.db") as (client, specs, _):
        first_calls, first_answer = await run_once(client, specs, REAL_SCREEN)
        second_calls, second_answer = await run_once(client, specs, REAL_SCREEN)

    creates = [c.arguments for c in first_calls if c.name == "orders_create_replenishment"]
    assert creates == [
        {
            "sku": "SKU-10232",
            "warehouse_id": "WH-01",
            "idempotency_key": f"replenish-SKU-10232-WH-01-{CAPTURED}",
            "observed_on_hand": 38,
            "observed_at": CAPTURED,
        }
    ]
    assert "- ordered: SKU-10232 in WH-01: ordered 202 (PO-000001)" in first_answer
    assert "SKU-10403 in WH-01: already covered by 120 on order" in first_answer
    assert "orders_create_replenishment" not in [c.name for c in second_calls]
    assert "SKU-10232 in WH-01: already covered by 202 on order" in second_answer


async def test_the_same_screen_after_a_cancel_gets_its_order_back_and_does_not_say_ordered(
    tmp_path: Path,
) -> None:
    # The request's key (SKU, warehouse, capture time) names the cancelled order: the server
    # returns it instead of ordering again, and the answer must not claim a new order.
    async with real_servers(tmp_path / "stock.db") as (client, specs, store):
        await run_once(client, specs, REAL_SCREEN)
        domain.cancel_order(store, "PO-000001", now=NOW)
        calls, answer = await run_once(client, specs, REAL_SCREEN)
    assert "orders_create_replenishment" in [c.name for c in calls]
    assert answer.splitlines()[0].startswith("Ordered 0, skipped 1.")
    assert "Already ordered by this same request before: 1." in answer.splitlines()[0]
    assert (
        "- already ordered: SKU-10232 in WH-01: PO-000001 for 202 (made before, since cancelled)"
        in answer
    )
    assert "- ordered:" not in answer


# ---- the task contract decides what it does


TWO_WAREHOUSES = screen(
    [
        ("SKU-10232", "Hex nut M8 (box of 200)", 38, 120, "WH-01"),
        ("SKU-10318", "Heat-shrink tube kit", 2, 25, "WH-01"),
        ("SKU-20410", "Dust mask FFP2 (box of 20)", 5, 40, "WH-02"),
    ]
)


@pytest.mark.parametrize(
    "task",
    [
        "Which SKUs are low? Do not place any orders, just tell me.",
        "先别下单，看看哪些缺货",
        "Replenish nothing yet, just tell me what is low",
    ],
)
async def test_a_report_reads_live_stock_and_writes_nothing_even_with_write_tools(
    task: str,
) -> None:
    run = await drive(opening(MAIN, task=task))

    assert run.calls("orders_create_replenishment") == []
    assert [names(t) for t in run.turns] == [["inventory_query_stock", "inventory_query_stock"]]
    assert run.answer.splitlines()[0] == "3 of 3 SKUs are low now; nothing was ordered."
    assert "SKU-10232 in WH-01: low now: on_hand 38 + on_order 0 < reorder_point 120" in run.answer


async def test_a_report_says_which_screen_lows_are_not_low_any_more() -> None:
    tools = servers(stock={("SKU-10318", "WH-01"): Live("Heat-shrink tube kit", 300, 0, 25)})

    run = await drive(opening(MAIN, task="which of these are still low?"), tools)

    assert run.answer.splitlines()[0] == "2 of 3 SKUs are low now; nothing was ordered."
    assert "SKU-10318 in WH-01: not low any more: live on_hand 300" in run.answer


async def test_a_warehouse_scope_reads_and_orders_only_that_warehouse() -> None:
    run = await drive(opening(TWO_WAREHOUSES, task="replenish the low items in WH-02 only"))

    assert run.calls("inventory_query_stock") == [{"warehouse_id": "WH-02", "skus": ["SKU-20410"]}]
    assert [o["sku"] for o in run.calls("orders_create_replenishment")] == ["SKU-20410"]


async def test_an_excluded_sku_is_neither_read_nor_ordered() -> None:
    run = await drive(opening(MAIN, task="replenish what is low except SKU-10318"))

    assert run.calls("inventory_query_stock") == [
        {"warehouse_id": "WH-01", "skus": ["SKU-10232"]},
        {"warehouse_id": "WH-02", "skus": ["SKU-20410"]},
    ]
    assert [o["sku"] for o in run.calls("orders_create_replenishment")] == [
        "SKU-10232",
        "SKU-20410",
    ]


async def test_an_explicit_quantity_is_used_as_given_for_the_one_sku_named() -> None:
    run = await drive(opening(MAIN, task="Order 10 units of SKU-10232 only"))

    (order,) = run.calls("orders_create_replenishment")
    assert (order["sku"], order["warehouse_id"], order["quantity"]) == ("SKU-10232", "WH-01", 10)
    assert run.calls("inventory_query_stock") == [{"warehouse_id": "WH-01", "skus": ["SKU-10232"]}]


async def test_an_explicit_quantity_for_a_sku_not_low_live_goes_to_the_server_to_answer() -> None:
    refusal = "SKU-10233 in WH-01 is not low now: on_hand 1204 + on_order 0 >= reorder_point 300"
    tools = servers(refuse_writes={"SKU-10233": refusal})

    run = await drive(opening(MAIN, task="order 5 units of SKU-10233"), tools)

    assert [o["quantity"] for o in run.calls("orders_create_replenishment")] == [5]
    assert f"refused by the server: refused: {refusal}" in run.answer


async def test_the_same_quantity_each_goes_to_every_low_sku() -> None:
    run = await drive(opening(MAIN, task="每个补 30 件"))

    assert [o["quantity"] for o in run.calls("orders_create_replenishment")] == [30, 30, 30]


async def test_a_quantity_rule_brings_stock_up_to_that_multiple_of_the_reorder_point() -> None:
    run = await drive(opening(MAIN, task="replenish up to the reorder point"))

    assert [o["quantity"] for o in run.calls("orders_create_replenishment")] == [
        120 - 38,
        25 - 2,
        40 - (5 + 10),
    ]


async def test_a_named_sku_the_screen_does_not_show_is_located_with_a_lookup() -> None:
    tools = servers(stock={("SKU-30001", "WH-02"): Live("Cable ties", 3, 0, 50)})

    run = await drive(opening(MAIN, task="order 40 units of SKU-30001"), tools)

    assert run.calls("inventory_get_item") == [{"sku": "SKU-30001"}]
    (order,) = run.calls("orders_create_replenishment")
    assert (order["warehouse_id"], order["quantity"]) == ("WH-02", 40)
    assert "idempotency_key" not in order


async def test_a_named_sku_in_two_warehouses_gets_a_question_and_no_order() -> None:
    tools = servers(
        stock={
            ("SKU-30001", "WH-01"): Live("Cable ties", 3, 0, 50),
            ("SKU-30001", "WH-02"): Live("Cable ties", 4, 0, 50),
        }
    )

    run = await drive(opening(MAIN, task="order 40 units of SKU-30001"), tools)

    assert run.calls("orders_create_replenishment") == []
    assert "SKU-30001 is stocked in WH-01, WH-02: which warehouse do you mean?" in run.answer


async def test_beyond_the_screen_it_reads_the_whole_warehouse() -> None:
    tools = servers(stock={("SKU-10999", "WH-01"): Live("Zip bag", 1, 0, 10)})
    task = "replenish everything low in the whole warehouse WH-01, not just the screen"

    run = await drive(opening(MAIN, task=task), tools)

    assert run.calls("inventory_query_stock") == [{"warehouse_id": "WH-01"}]
    assert [o["sku"] for o in run.calls("orders_create_replenishment")] == [
        "SKU-10232",
        "SKU-10318",
        "SKU-10999",
    ]


def _order(order_id: str, sku: str, warehouse: str = "WH-01", status: str = "open") -> Order:
    return Order(
        id=order_id,
        sku=sku,
        warehouse_id=warehouse,
        quantity=50,
        status=status,
        created_at=NOW,
    )


async def test_a_cancel_by_order_id_lists_the_open_orders_then_cancels_that_one() -> None:
    tools = servers(existing=[_order("PO-000001", "SKU-10232"), _order("PO-000002", "SKU-10318")])

    run = await drive(opening(MAIN, task="Cancel order PO-000001"), tools, offered=CANCEL_TOOLS)

    assert [names(t) for t in run.turns] == [["orders_list"], ["orders_cancel"]]
    assert run.calls("orders_cancel") == [{"order_id": "PO-000001"}]
    assert run.answer.splitlines()[:2] == [
        "Cancelled 1.",
        "- cancelled PO-000001 (SKU-10232 in WH-01, 50)",
    ]


async def test_a_cancel_by_sku_cancels_each_open_order_of_that_sku_in_scope() -> None:
    tools = servers(
        existing=[
            _order("PO-000001", "SKU-10232"),
            _order("PO-000002", "SKU-10232", "WH-02"),
            _order("PO-000003", "SKU-10318"),
        ]
    )

    run = await drive(
        opening(MAIN, task="取消 WH-01 里 SKU-10232 的补货单"), tools, offered=CANCEL_TOOLS
    )

    assert run.calls("orders_list") == [
        {"sku": "SKU-10232", "status": "open", "warehouse_id": "WH-01", "limit": 500}
    ]
    assert run.calls("orders_cancel") == [{"order_id": "PO-000001"}]


async def test_a_cancel_of_an_order_that_is_not_open_says_so_and_cancels_nothing() -> None:
    tools = servers(existing=[_order("PO-000001", "SKU-10232", status="cancelled")])

    run = await drive(opening(MAIN, task="cancel PO-000001"), tools, offered=CANCEL_TOOLS)

    assert run.calls("orders_cancel") == []
    assert "PO-000001 not cancelled: no open order has this id" in run.answer


@pytest.mark.parametrize("task", ["write me a poem", "cancel all orders", "Order 30 units"])
async def test_a_request_it_does_not_understand_gets_an_answer_and_no_call(task: str) -> None:
    run = await drive(opening(MAIN, task=task))

    assert run.turns == []
    assert run.answer.startswith("I did not act on this request: ")
    assert "Nothing was written. You can ask: which SKUs are low" in run.answer


async def test_without_a_contract_block_it_reads_the_task_line_itself() -> None:
    user = "Task: just tell me what is low\n\n" + MAIN

    run = await drive(user)

    assert run.calls("orders_create_replenishment") == []
    assert "nothing was ordered" in run.answer


async def test_a_merged_view_orders_with_each_rows_own_capture_time() -> None:
    from pipeline.screentext import ScreenRow, ScreenText

    older = datetime.fromisoformat("2026-11-28T08:00:00+08:00")
    newer = datetime.fromisoformat(CAPTURED)
    merged = render_screen(
        ScreenText(
            captured_at=newer,
            merged=(older, newer),
            columns=("sku", "name", "on_hand", "reorder_point", "warehouse_id"),
            rows=(
                ScreenRow(
                    sku="SKU-10232",
                    name="Hex nut",
                    on_hand=38,
                    reorder_point=120,
                    warehouse_id="WH-01",
                    low=True,
                    seen_at=newer,
                    change="on_hand 90 -> 38",
                ),
                ScreenRow(
                    sku="SKU-10318",
                    name="Heat-shrink tube kit",
                    on_hand=2,
                    reorder_point=25,
                    warehouse_id="WH-01",
                    low=True,
                    seen_at=older,
                ),
            ),
        )
    )
    run = await drive(opening(merged))

    stamps = {c["sku"]: c["observed_at"] for c in run.calls("orders_create_replenishment")}
    assert stamps == {"SKU-10232": CAPTURED, "SKU-10318": "2026-11-28T08:00:00+08:00"}
