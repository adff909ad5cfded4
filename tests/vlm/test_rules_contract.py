"""`rules` under the task contract: reports, scopes, exclusions, quantities, lookups and
cancels are what the contract says."""

from __future__ import annotations

from datetime import datetime

import pytest

from pipeline.screentext import render_screen
from store.models import Order
from tests.vlm.planner_world import (
    CANCEL_TOOLS,
    CAPTURED,
    MAIN,
    NOW,
    Live,
    drive,
    names,
    opening,
    screen,
    servers,
)

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


async def test_a_stock_level_in_units_orders_each_low_sku_up_to_that_level() -> None:
    run = await drive(opening(MAIN, task="bring the low items up to 100 units"))

    assert [o["quantity"] for o in run.calls("orders_create_replenishment")] == [
        100 - 38,
        100 - 2,
        100 - (5 + 10),
    ]


async def test_a_condition_on_live_on_hand_orders_only_the_skus_below_it() -> None:
    run = await drive(opening(MAIN, task="reorder anything under 10 on hand"))

    assert [o["sku"] for o in run.calls("orders_create_replenishment")] == [
        "SKU-10318",
        "SKU-20410",
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
