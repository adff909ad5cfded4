"""`scope`: every write held to the task contract, with a message that says what is allowed."""

from dataclasses import replace
from datetime import timedelta

import pytest

from pipeline.contract import QuantityRule, parse_task
from pipeline.host.guards.scope import scope
from pipeline.host.record import ToolCallRecord
from pipeline.models import Message
from pipeline.screentext import ScreenRow, ScreenText, render_screen
from tests.host.guards.states import NOW, call, record, screen, state

CREATE = "orders_create_replenishment"
SHOWN = screen(timedelta(hours=1), "SKU-10232", "SKU-10318", "SKU-20410")


def _create(task: str, **arguments: object) -> str:
    decision = scope(call(CREATE, **arguments), state(contract=parse_task(task), screens=[SHOWN]))
    return decision.message if decision.action == "block" else "allow"


ORDER = {"sku": "SKU-10232", "warehouse_id": "WH-01", "quantity": 202}


@pytest.mark.parametrize(
    ("task", "arguments", "expected"),
    [
        ("replenish the low items", ORDER, "allow"),
        (
            "Which SKUs are low? Do not place any orders, just tell me.",
            ORDER,
            "no write may run in this task (the task asks only for a report)",
        ),
        (
            "write me a poem",
            ORDER,
            "no write may run in this task (the task asks for nothing stockshot does",
        ),
        ("cancel PO-000001", ORDER, "the task asks to cancel, not to create orders"),
        (
            "replenish the low items except SKU-10232",
            ORDER,
            "the task excludes SKU-10232; do not order it",
        ),
        (
            "order 10 units of SKU-10318",
            ORDER,
            "the task names only SKU-10318; SKU-10232 is not one of them",
        ),
        (
            "replenish the low items in WH-02",
            ORDER,
            "WH-01 is outside the task's warehouses (only WH-02)",
        ),
        (
            "replenish what is low except those in WH-01",
            ORDER,
            "WH-01 is outside the task's warehouses (not WH-01)",
        ),
        (
            "Order 10 units of SKU-10232 only",
            ORDER,
            "the task asks for exactly 10 units of SKU-10232; send quantity 10",
        ),
        ("Order 10 units of SKU-10232 only", {**ORDER, "quantity": 10}, "allow"),
        ("replenish the low items, 30 each", ORDER, "exactly 30 units of SKU-10232"),
        (
            "replenish the low items",
            {**ORDER, "sku": "SKU-99999"},
            "SKU-99999 is not on the screenshot; the task is about the SKUs the screen shows",
        ),
    ],
)
def test_a_write_outside_the_contract_is_blocked_naming_what_the_task_allows(
    task: str, arguments: dict[str, object], expected: str
) -> None:
    message = _create(task, **arguments)
    assert message == "allow" if expected == "allow" else expected in message
    if expected != "allow":
        assert message.startswith("Blocked by the task contract: ")


def test_reads_are_never_blocked_even_in_a_report() -> None:
    contract = parse_task("just tell me what is low")
    read = call("inventory_query_stock", warehouse_id="WH-01")
    assert scope(read, state(contract=contract)).action == "allow"


def test_a_write_tool_the_run_does_not_offer_is_still_held_to_the_contract() -> None:
    offered_nothing = replace(state(contract=parse_task("just tell me what is low")), tools={})
    assert scope(call(CREATE, **ORDER), offered_nothing).action == "block"


def test_without_a_screenshot_a_screen_task_orders_nothing_unnamed() -> None:
    decision = scope(call(CREATE, **ORDER), state(contract=parse_task("replenish what is low")))
    assert decision.action == "block"
    assert "no screenshot came with the task" in decision.message


def test_a_quantity_rule_bounds_the_order_by_the_live_numbers_read_in_the_run() -> None:
    live = {
        "warehouse_id": "WH-01",
        "items": [
            {
                "sku": "SKU-10232",
                "warehouse_id": "WH-01",
                "on_hand": 38,
                "on_order": 0,
                "reorder_point": 120,
            }
        ],
    }
    read = record("inventory_query_stock", {"warehouse_id": "WH-01"}, structured=live)
    contract = parse_task("top up the low items just to their reorder point")
    over = scope(call(CREATE, **ORDER), state(contract=contract, calls=[read], screens=[SHOWN]))
    assert over.action == "block"
    assert "at most 82 units of SKU-10232 in WH-01" in over.message
    fits = call(CREATE, **{**ORDER, "quantity": 82})
    assert scope(fits, state(contract=contract, calls=[read], screens=[SHOWN])).action == "allow"


def _listing(*orders: tuple[str, str, str]) -> ToolCallRecord:
    return record(
        "orders_list",
        {"status": "open"},
        structured={
            "orders": [
                {"id": i, "sku": s, "warehouse_id": w, "quantity": 5, "status": "open"}
                for i, s, w in orders
            ]
        },
    )


def test_a_cancel_must_be_of_an_order_the_task_names() -> None:
    contract = parse_task("Cancel order PO-000001")
    named = scope(call("orders_cancel", order_id="PO-000001"), state(contract=contract))
    other = scope(call("orders_cancel", order_id="PO-000002"), state(contract=contract))
    assert named.action == "allow"
    assert other.action == "block"
    assert "the task names only PO-000001 to cancel" in other.message


def test_a_cancel_by_sku_needs_the_order_listed_and_of_that_sku() -> None:
    contract = parse_task("cancel the open orders of SKU-10232")
    unseen = scope(call("orders_cancel", order_id="PO-000001"), state(contract=contract))
    assert unseen.action == "block" and "list them with orders_list first" in unseen.message
    listed = [_listing(("PO-000001", "SKU-10232", "WH-01"), ("PO-000002", "SKU-10318", "WH-01"))]
    listed_state = state(contract=contract, calls=listed)
    mine = scope(call("orders_cancel", order_id="PO-000001"), listed_state)
    theirs = scope(call("orders_cancel", order_id="PO-000002"), listed_state)
    assert mine.action == "allow"
    assert theirs.action == "block" and "PO-000002 is for SKU-10318 in WH-01" in theirs.message


def test_an_order_is_not_a_cancel_and_a_cancel_is_not_an_order() -> None:
    decision = scope(
        call("orders_cancel", order_id="PO-000001"),
        state(contract=parse_task("replenish the low items")),
    )
    assert decision.action == "block"
    assert "the task does not ask to cancel anything" in decision.message


def test_a_write_for_several_skus_is_held_sku_by_sku() -> None:
    contract = parse_task("replenish the low items except SKU-10318")
    batch = call(CREATE, warehouse_id="WH-01", skus=["SKU-10232", "SKU-10318"])
    allowed = call(CREATE, warehouse_id="WH-01", skus=["SKU-10232"])
    blocked = scope(batch, state(contract=contract, screens=[SHOWN]))
    assert blocked.action == "block" and "the task excludes SKU-10318" in blocked.message
    assert scope(allowed, state(contract=contract, screens=[SHOWN])).action == "allow"


def test_without_a_quantity_a_rule_below_the_servers_policy_asks_for_the_number() -> None:
    live = {
        "warehouse_id": "WH-01",
        "items": [
            {"sku": "SKU-10232", "warehouse_id": "WH-01", "on_hand": 38, "on_order": 0,
             "reorder_point": 120}
        ],
    }  # fmt: skip
    read = record("inventory_query_stock", {"warehouse_id": "WH-01"}, structured=live)
    contract = parse_task("top up the low items just to their reorder point")
    policy = call(CREATE, sku="SKU-10232", warehouse_id="WH-01")
    decision = scope(policy, state(contract=contract, calls=[read], screens=[SHOWN]))
    assert decision.action == "block" and "send quantity 82 for SKU-10232" in decision.message


def _on_screen(task: str, text: ScreenText, **arguments: object) -> str:
    base = state(contract=parse_task(task), screens=[SHOWN])
    messages = [*base.messages, Message(role="user", content=render_screen(text))]
    decision = scope(call(CREATE, **arguments), replace(base, messages=messages))
    return decision.message if decision.action == "block" else "allow"


NO_WAREHOUSE = ScreenText(
    captured_at=NOW,
    columns=("sku", "on_hand", "reorder_point"),
    rows=(ScreenRow(sku="SKU-10232", on_hand=38, reorder_point=120, low=True),),
)


def test_an_order_for_a_row_the_screen_places_nowhere_is_blocked_until_the_user_says() -> None:
    message = _on_screen("replenish the low rows", NO_WAREHOUSE, **ORDER)
    assert "does not say which warehouse SKU-10232 belongs to" in message
    assert "ask the user which warehouse" in message
    assert _on_screen("replenish the low rows in WH-01", NO_WAREHOUSE, **ORDER) == "allow"


def test_an_order_in_another_warehouse_than_the_screen_shows_is_blocked() -> None:
    placed = NO_WAREHOUSE.model_copy(
        update={
            "columns": (*NO_WAREHOUSE.columns, "warehouse_id"),
            "rows": (NO_WAREHOUSE.rows[0].model_copy(update={"warehouse_id": "WH-02"}),),
        }
    )
    assert _on_screen("replenish the low rows", placed, **ORDER) == (
        "Blocked by the task contract: the screenshot shows SKU-10232 in WH-02, not in WH-01."
    )
    assert _on_screen("replenish the low rows", placed, **{**ORDER, "warehouse_id": "WH-02"}) == (
        "allow"
    )


LIVE_10232 = record(
    "inventory_query_stock",
    {"warehouse_id": "WH-01"},
    structured={
        "warehouse_id": "WH-01",
        "items": [
            {"sku": "SKU-10232", "warehouse_id": "WH-01", "on_hand": 38, "on_order": 12,
             "reorder_point": 120}
        ],
    },
)  # fmt: skip
REPLENISH = parse_task("replenish the low items")


@pytest.mark.parametrize(
    ("terms", "calls", "arguments", "expected"),
    [
        ({"on_hand_below": 40}, [], ORDER, "read the live stock of SKU-10232 in WH-01"),
        ({"on_hand_below": 40}, [LIVE_10232], ORDER, "allow"),
        ({"on_hand_below": 30}, [LIVE_10232], ORDER, "fewer than 30 on hand; SKU-10232 has 38"),
        ({"quantity_rule": QuantityRule(kind="level", value=200)}, [], ORDER, "read the live"),
        (
            {"quantity_rule": QuantityRule(kind="level", value=200)},
            [LIVE_10232],
            ORDER,
            "at most 150 units of SKU-10232 in WH-01",
        ),
        (
            {"quantity_rule": QuantityRule(kind="level", value=200)},
            [LIVE_10232],
            {**ORDER, "quantity": 150},
            "allow",
        ),
        (
            {"quantity_rule": QuantityRule(kind="level", value=200)},
            [LIVE_10232],
            {"sku": "SKU-10232", "warehouse_id": "WH-01"},
            "send quantity 150 for SKU-10232",
        ),
        (
            {"quantity_rule": QuantityRule(kind="level", value=40)},
            [LIVE_10232],
            {**ORDER, "quantity": 1},
            "the task's rule leaves nothing to order for SKU-10232",
        ),
    ],
)
def test_a_condition_on_live_on_hand_and_a_stock_level_hold_an_order_to_the_live_numbers(
    terms: dict[str, object],
    calls: list[ToolCallRecord],
    arguments: dict[str, object],
    expected: str,
) -> None:
    contract = REPLENISH.model_copy(update=terms)
    decision = scope(
        call(CREATE, **arguments), state(contract=contract, calls=calls, screens=[SHOWN])
    )
    message = decision.message if decision.action == "block" else "allow"
    assert message == "allow" if expected == "allow" else expected in message
