"""The hop budget is counted from the work a task implies; a run is complete when its ledger
accounts for every row it may write."""

import json
from datetime import UTC, datetime

import pytest

from pipeline.contract import parse_task
from pipeline.host.budget import SLACK, hop_budget, rows_in_scope, uncovered
from pipeline.models import JsonObject
from pipeline.screentext import ScreenRow, ScreenText
from pipeline.toolfacts import Facts, ToolResult, read_facts

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def screen(*rows: tuple[str, str, bool]) -> ScreenText:
    return ScreenText(
        captured_at=NOW,
        columns=("sku", "on_hand", "reorder_point", "warehouse_id"),
        rows=tuple(
            ScreenRow(
                sku=sku, warehouse_id=wh, on_hand=5 if low else 500, reorder_point=50, low=low
            )
            for sku, wh, low in rows
        ),
    )


TWO_WAREHOUSES = screen(
    *((f"SKU-105{n:02d}", "WH-01", True) for n in range(6)),
    *((f"SKU-107{n:02d}", "WH-02", True) for n in range(5)),
    ("SKU-10900", "WH-02", False),
)


@pytest.mark.parametrize(
    ("task", "hops", "writes"),
    [
        ("replenish the low items", 2 + 2 * 11 + SLACK, 11),
        ("replenish the low items in WH-02", 1 + 2 * 5 + SLACK, 5),
        ("replenish the low items except SKU-10500", 2 + 2 * 10 + SLACK, 10),
        ("which items are low? just tell me", 12, 0),
        ("cancel order PO-000042", 12, 1),
    ],
)
def test_the_budget_is_a_read_per_warehouse_and_a_read_and_a_write_per_row_plus_slack(
    task: str, hops: int, writes: int
) -> None:
    budget = hop_budget(parse_task(task), [TWO_WAREHOUSES], floor=12, ceiling=48)
    assert (budget.hops, budget.writes) == (hops, writes)
    assert f"{budget.hops} hops" in budget.describe()


def test_the_budget_never_passes_its_ceiling() -> None:
    budget = hop_budget(parse_task("replenish the low items"), [TWO_WAREHOUSES], floor=4, ceiling=9)
    assert budget.hops == 9


def _facts(*results: tuple[str, JsonObject, object, bool]) -> Facts:
    return read_facts(
        ToolResult(name, arguments, error, text if isinstance(text, str) else json.dumps(text))
        for name, arguments, text, error in results
    )


def test_every_writable_row_accounted_for_by_an_order_a_refusal_or_a_live_read_is_complete() -> (
    None
):
    contract = parse_task("replenish the low items in WH-01")
    rows = rows_in_scope(contract, [screen(("SKU-1", "WH-01", True), ("SKU-2", "WH-01", True),
                                           ("SKU-3", "WH-01", True))])  # fmt: skip
    order = {"order": {"id": "PO-000001", "sku": "SKU-1", "warehouse_id": "WH-01",
                       "quantity": 40, "status": "open"}, "created": True}  # fmt: skip
    live = {"warehouse_id": "WH-01", "items": [
        {"sku": "SKU-3", "warehouse_id": "WH-01", "on_hand": 90, "on_order": 0,
         "reorder_point": 50}]}  # fmt: skip
    create = "orders_create_replenishment"
    partial = _facts((create, {"sku": "SKU-1", "warehouse_id": "WH-01"}, order, False))
    left = uncovered(contract, rows, partial) or []
    assert [p.text for p in left] == ["SKU-2 in WH-01", "SKU-3 in WH-01"]
    done = _facts(
        (create, {"sku": "SKU-1", "warehouse_id": "WH-01"}, order, False),
        (create, {"sku": "SKU-2", "warehouse_id": "WH-01"}, "refused: not low now", True),
        ("inventory_query_stock", {"warehouse_id": "WH-01"}, live, False),
    )
    assert uncovered(contract, rows, done) == []


def test_a_report_is_never_complete_this_way() -> None:
    contract = parse_task("which items are low? just tell me")
    rows = rows_in_scope(contract, [TWO_WAREHOUSES])
    assert uncovered(contract, rows, _facts()) is None
