"""`rules`: the deterministic planner, driven through conversations shaped like the host's, with
tool results shaped like the real servers' JSON: the plan, which warehouse, what is offered and
what is shown."""

from __future__ import annotations

from pipeline.models import Message
from pipeline.vlm import ModelOptions, make_model
from pipeline.vlm.rules import RulesModel
from tests.vlm.planner_world import (
    CAPTURED,
    MAIN,
    NO_WAREHOUSE,
    SETTINGS,
    Live,
    drive,
    names,
    opening,
    screen,
    servers,
)

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
