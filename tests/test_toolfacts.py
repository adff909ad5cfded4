"""What tool results established, read from the servers' own JSON, one way for every reader."""

import json
from datetime import UTC, datetime

from pydantic import BaseModel

from pipeline.models import JsonObject, Message, ToolCall
from pipeline.toolfacts import ToolResult, from_messages, read_facts
from servers.models import CancelResult, ItemReport, OrderList, ReplenishmentResult, StockReport
from store.models import Order, StockLevel

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def level(
    sku: str, warehouse: str, on_hand: int, reorder_point: int, on_order: int = 0
) -> StockLevel:
    return StockLevel.live(
        sku=sku,
        name=sku,
        warehouse_id=warehouse,
        on_hand=on_hand,
        on_order=on_order,
        reorder_point=reorder_point,
        updated_at=NOW,
    )


def order(order_id: str, sku: str, status: str = "open") -> Order:
    return Order(
        id=order_id,
        sku=sku,
        warehouse_id="WH-01",
        quantity=20,
        status=status,
        created_at=NOW,
    )


def result(
    name: str, arguments: JsonObject, payload: BaseModel | str, *, error: bool = False
) -> ToolResult:
    text = payload if isinstance(payload, str) else payload.model_dump_json()
    return ToolResult(name, arguments, error, text)


def test_a_stock_read_records_exactly_the_rows_and_warehouse_it_returned() -> None:
    report = StockReport(
        warehouse_id="WH-01",
        as_of=NOW,
        items=[level("SKU-10232", "WH-01", 38, 120)],
        not_found=[],
    )
    facts = read_facts([result("inventory_query_stock", {"warehouse_id": "WH-01"}, report)])
    assert set(facts.live) == {("SKU-10232", "WH-01")}
    assert facts.live[("SKU-10232", "WH-01")].needs_reorder
    assert facts.queried == {"WH-01"}
    assert ("SKU-1023", "WH-01") not in facts.live


def test_an_item_lookup_says_where_a_sku_is_stocked() -> None:
    report = ItemReport(
        sku="SKU-10232",
        name="Hex nut",
        as_of=NOW,
        total_on_hand=243,
        warehouses=[level("SKU-10232", "WH-01", 38, 120), level("SKU-10232", "WH-02", 205, 120)],
    )
    facts = read_facts([result("inventory_get_item", {"sku": "SKU-10232"}, report)])
    assert facts.located == {"SKU-10232": ["WH-01", "WH-02"]}
    assert not facts.live[("SKU-10232", "WH-02")].needs_reorder


def test_a_create_is_an_order_a_refusal_is_kept_with_its_reason() -> None:
    created = ReplenishmentResult(
        order=order("PO-000001", "SKU-10232"),
        created=True,
        live=level("SKU-10232", "WH-01", 38, 120),
    )
    again = created.model_copy(update={"created": False})
    facts = read_facts(
        [
            result(
                "orders_create_replenishment",
                {"sku": "SKU-10232", "warehouse_id": "WH-01"},
                created,
            ),
            result(
                "orders_create_replenishment", {"sku": "SKU-10232", "warehouse_id": "WH-01"}, again
            ),
            result(
                "orders_create_replenishment",
                {"sku": "SKU-10402", "warehouse_id": "WH-01"},
                "refused: SKU-10402 in WH-01 is not low now",
                error=True,
            ),
        ]
    )
    assert facts.new_orders == ["PO-000001"]
    assert facts.created[("SKU-10232", "WH-01")].id == "PO-000001"
    assert facts.refusals == {("SKU-10402", "WH-01"): "refused: SKU-10402 in WH-01 is not low now"}


def test_listings_and_cancels_track_each_orders_latest_state() -> None:
    listing = OrderList(orders=[order("PO-000001", "SKU-10232"), order("PO-000002", "SKU-10318")])
    cancelled = CancelResult(order=order("PO-000001", "SKU-10232", "cancelled"), cancelled=True)
    facts = read_facts(
        [
            result("orders_list", {"status": "open", "limit": 500}, listing),
            result("orders_cancel", {"order_id": "PO-000001"}, cancelled),
            result("orders_cancel", {"order_id": "PO-9"}, "unknown order id 'PO-9'", error=True),
        ]
    )
    assert facts.orders["PO-000001"].status == "cancelled"
    assert facts.orders["PO-000002"].status == "open"
    assert set(facts.cancelled) == {"PO-000001"}
    assert facts.cancel_errors == {"PO-9": "unknown order id 'PO-9'"}
    assert facts.listed_orders(status="open") and facts.listed_orders(status="open", sku="SKU-1")
    assert not facts.listed_orders(status="cancelled")


def test_a_conversation_pairs_each_result_with_its_call() -> None:
    messages = [
        Message(role="user", content="Task: x"),
        Message(
            role="assistant",
            tool_calls=[
                ToolCall(id="a", name="warehouses_list"),
                ToolCall(id="b", name="orders_list"),
            ],
        ),
        Message(role="tool", tool_call_id="b", content='{"orders": []}'),
        Message(role="tool", tool_call_id="a", content="busy", is_error=True),
        Message(role="tool", tool_call_id="zzz", content="{}"),
    ]
    assert [(r.name, r.is_error) for r in from_messages(messages)] == [
        ("orders_list", False),
        ("warehouses_list", True),
    ]
    facts = read_facts(from_messages(messages))
    assert facts.warehouses_listed and facts.warehouses is None


def test_a_create_for_several_skus_is_read_sku_by_sku() -> None:
    level_ = level("SKU-10232", "WH-01", 38, 120)
    data = {
        "warehouse_id": "WH-01",
        "results": [
            {"sku": "SKU-10232", "created": True, "live": level_.model_dump(mode="json"),
             "order": order("PO-000001", "SKU-10232").model_dump(mode="json")},
            {"sku": "SKU-10402", "refused": {"error": "not_low", "message": "SKU-10402 in WH-01 is not low now"}},
        ],
    }  # fmt: skip
    facts = read_facts(
        [
            ToolResult(
                "orders_create_replenishment",
                {"warehouse_id": "WH-01", "skus": ["SKU-10232", "SKU-10402"]},
                False,
                json.dumps(data),
            )
        ]
    )
    assert facts.created[("SKU-10232", "WH-01")].id == "PO-000001"
    assert facts.new_orders == ["PO-000001"]
    assert facts.refusals == {("SKU-10402", "WH-01"): "refused: SKU-10402 in WH-01 is not low now"}
