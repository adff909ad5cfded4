import json
from datetime import timedelta

from pipeline.host.guards.freshness import freshness
from tests.host.guards.states import call, record, screen, state

ORDER = {"sku": "SKU-10232", "warehouse_id": "WH-01", "quantity": 82}


def test_a_write_from_an_old_screenshot_without_a_live_read_is_blocked() -> None:
    decision = freshness(
        call("orders_create_replenishment", **ORDER),
        state(screens=[screen(timedelta(hours=40), "SKU-10232")]),
    )
    assert decision.action == "block"
    assert "40.0 h ago" in decision.message and "inventory_query_stock" in decision.message


def _stock(sku: str, warehouse: str = "WH-01") -> str:
    item = {"sku": sku, "warehouse_id": warehouse, "on_hand": 38, "on_order": 0,
            "reorder_point": 120}  # fmt: skip
    return json.dumps({"warehouse_id": warehouse, "items": [item]})


def test_a_live_read_of_the_sku_since_lets_the_write_through() -> None:
    read = record("inventory_query_stock", {"warehouse_id": "WH-01"}, _stock("SKU-10232"))
    decision = freshness(
        call("orders_create_replenishment", **ORDER),
        state(screens=[screen(timedelta(hours=40), "SKU-10232")], calls=[read]),
    )
    assert decision.action == "allow"


def test_a_result_that_only_mentions_the_sku_is_no_live_read_of_it() -> None:
    old = [screen(timedelta(hours=40), "SKU-1023")]
    prefix = record("inventory_query_stock", {"warehouse_id": "WH-01"}, _stock("SKU-10232"))
    listing = record(
        "orders_list",
        {},
        '{"orders": [{"id": "PO-1", "sku": "SKU-1023", "warehouse_id": "WH-01"}]}',
    )
    other_warehouse = record(
        "inventory_query_stock", {"warehouse_id": "WH-02"}, _stock("SKU-1023", "WH-02")
    )
    order = call("orders_create_replenishment", sku="SKU-1023", warehouse_id="WH-01", quantity=5)
    for calls in ([prefix], [listing], [other_warehouse]):
        assert freshness(order, state(screens=old, calls=calls)).action == "block"
    right = record("inventory_get_item", {"sku": "SKU-1023"}, json.dumps(
        {"sku": "SKU-1023", "warehouses": [json.loads(_stock("SKU-1023"))["items"][0]]}
    ))  # fmt: skip
    assert freshness(order, state(screens=old, calls=[right])).action == "allow"


def test_a_fresh_screenshot_or_a_sku_not_on_any_screenshot_is_left_alone() -> None:
    fresh = state(screens=[screen(timedelta(minutes=5), "SKU-10232")])
    assert freshness(call("orders_create_replenishment", **ORDER), fresh).action == "allow"
    other = state(screens=[screen(timedelta(hours=40), "SKU-99999")])
    assert freshness(call("orders_create_replenishment", **ORDER), other).action == "allow"


def test_reads_are_never_held_back() -> None:
    old = state(screens=[screen(timedelta(hours=40), "SKU-10232")])
    assert (
        freshness(call("inventory_query_stock", warehouse_id="WH-01", sku="SKU-10232"), old).action
        == "allow"
    )
