"""Screen rows resolved against the store before anything runs, and every call held to what
resolved: the pure rules, then whole runs over the seeded in-memory servers."""

import json
from datetime import timedelta
from typing import Any

import pytest

from pipeline.bootstrap import enabled_guards
from pipeline.host.context import Attachment
from pipeline.host.items import (
    RowKey,
    argument_problem,
    resolution_of,
    told_to_model,
    unresolved_report,
)
from pipeline.host.record import ItemResolution, RunRecord
from pipeline.host.toolbox import MemoryTarget, ToolOutcome
from pipeline.models import JsonValue
from pipeline.settings import Settings
from pipeline.vlm.scripted import ScriptedModel
from store.sql import SqlStore
from tests.host.conftest import HOST_NOW, open_orders, run_host

# ---- the rules, pure


def resolved(key: str, sku: str, kind: str = "sku", matched_by: str = "barcode") -> ItemResolution:
    return ItemResolution(
        screen="erp.png", key=key, key_kind=kind, answer="one", sku=sku, matched_by=matched_by
    )


def unsure(key: str, answer: Any, *candidates: str) -> ItemResolution:
    return ItemResolution(
        screen="erp.png", key=key, key_kind="name", answer=answer, candidates=list(candidates)
    )


RESOLUTIONS = [
    resolved("4006381333948", "SKU-10232"),
    resolved("SKU-10318", "SKU-10318", matched_by="sku"),
    unsure("Safety gloves", "several", "SKU-10402", "SKU-10403"),
    unsure("Widget 3000", "none"),
]


@pytest.mark.parametrize(
    ("arguments", "write", "named", "problem"),
    [
        # a resolved SKU, or an item no row names, goes through
        ({"sku": "SKU-10232", "warehouse_id": "WH-01"}, True, (), None),
        ({"warehouse_id": "WH-01", "skus": ["SKU-10318", "SKU-10601"]}, False, (), None),
        # a row's key in a warehouse slot names an item, not a warehouse
        ({"sku": "SKU-10232", "warehouse_id": "4006381333948"}, True, (), ("warehouse_id", "wrong_kind")),
        ({"warehouse_id": "Safety gloves"}, False, (), ("warehouse_id", "wrong_kind")),
        ({"warehouse_id": "SKU-10318"}, False, (), None),
        # a barcode in a SKU slot is told the SKU it resolved to, in reads and writes alike
        ({"sku": "4006381333948", "warehouse_id": "WH-01"}, True, (), ("sku", "wrong_kind")),
        ({"warehouse_id": "WH-01", "skus": ["SKU-10318", "4006381333948"]}, False, (), ("skus", "wrong_kind")),
        # a row that is not one item is never written by its key; a read says what it finds
        ({"sku": "Safety gloves", "warehouse_id": "WH-01"}, True, (), ("sku", "not_resolved")),
        ({"sku": "Widget 3000"}, False, (), None),
        # a candidate of such a row may be read, not written, unless the task names it
        ({"sku": "SKU-10402", "warehouse_id": "WH-01"}, True, (), ("sku", "not_resolved")),
        ({"warehouse_id": "WH-01", "skus": ["SKU-10402"]}, False, (), None),
        ({"sku": "SKU-10402", "warehouse_id": "WH-01"}, True, ("SKU-10402",), None),
    ],
)  # fmt: skip
def test_item_arguments_are_held_to_the_rows_resolutions(
    arguments: dict[str, Any],
    write: bool,
    named: tuple[str, ...],
    problem: tuple[str, str] | None,
) -> None:
    found = argument_problem(arguments, RESOLUTIONS, write=write, named=named)
    assert (None if found is None else (found.field, found.error)) == problem


def test_a_barcode_in_a_sku_slot_is_told_the_sku_it_resolved_to() -> None:
    found = argument_problem({"sku": "4006381333948"}, RESOLUTIONS, write=True)
    assert found is not None
    assert found.message == (
        "'4006381333948' on the screen is the barcode of SKU-10232; pass the SKU SKU-10232 instead"
    )
    assert found.as_dict() == {"error": "wrong_kind", "field": "sku", "message": found.message}


def lookup(answer: str, *items: tuple[str, str, str]) -> ToolOutcome:
    listed: list[JsonValue] = [
        {"sku": s, "matched_by": by, "closeness": how} for s, by, how in items
    ]
    return ToolOutcome(False, "", {"answer": answer, "items": listed, "message": "m"})


@pytest.mark.parametrize(
    ("outcome", "answer", "sku", "candidates"),
    [
        (lookup("one", ("SKU-10232", "barcode", "exact")), "one", "SKU-10232", []),
        (lookup("one", ("SKU-10232", "name", "normalised")), "one", "SKU-10232", []),
        (lookup("one", ("SKU-10232", "name", "near")), "near", None, ["SKU-10232"]),
        (
            lookup("several", ("SKU-1", "alias", "exact"), ("SKU-2", "alias", "exact")),
            "several",
            None,
            ["SKU-1", "SKU-2"],
        ),
        (lookup("none"), "none", None, []),
        (ToolOutcome(True, "the store is busy; try again shortly"), "unresolved", None, []),
        (ToolOutcome(False, "{}", {"answer": "maybe"}), "unresolved", None, []),
    ],
)
def test_only_one_item_matched_for_sure_gives_a_row_its_sku(
    outcome: ToolOutcome, answer: str, sku: str | None, candidates: list[str]
) -> None:
    found = resolution_of(RowKey("erp.png", "4006381333948", "sku"), outcome)
    assert (found.answer, found.sku, found.candidates) == (answer, sku, candidates)


def test_the_model_is_told_every_row_whose_key_is_not_its_sku_and_nothing_else() -> None:
    assert told_to_model([resolved("SKU-10318", "SKU-10318", matched_by="sku")]) == ""
    assert told_to_model(RESOLUTIONS).splitlines() == [
        "Items on the screens, looked up in the store:",
        "- '4006381333948' (barcode) is SKU-10232: pass SKU-10232 as the sku",
        "- 'Safety gloves' (name) matches several items: SKU-10402, SKU-10403: report it; "
        "do not write it",
        "- 'Widget 3000' (name) matches no item in the store: report it; do not write it",
    ]
    assert unresolved_report(RESOLUTIONS) == (
        "Not written (not one item in the store): 'Safety gloves' matches several items: "
        "SKU-10402, SKU-10403; 'Widget 3000' matches no item in the store"
    )


# ---- whole runs

SCREEN = Attachment(
    "erp.png",
    "Screenshot captured at 2026-11-28T10:05:00+08:00 (a past view).\n"
    "| sku | name | on_hand | reorder_point | warehouse_id | low |\n|---|---|---|---|---|---|\n"
    "| 4006381333948 | Hex nut M8 | 38 | 120 | WH-01 | yes |\n"
    "|  | Safety gloves | 60 | 200 | WH-01 | yes |\n"
    "|  | Widget 3000 | 1 | 5 | WH-01 | yes |",
    "the table read from erp.png",
    HOST_NOW - timedelta(hours=47),
    skus=frozenset({"4006381333948"}),
)
READ = {"warehouse_id": "WH-01", "skus": ["SKU-10232"]}
ORDER = {"sku": "SKU-10232", "warehouse_id": "WH-01", "quantity": 202}


def calls(*pairs: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    return {
        "content": "",
        "tool_calls": [
            {"id": f"c{k}", "function": {"name": n, "arguments": json.dumps(a)}}
            for k, (n, a) in enumerate(pairs)
        ],
    }


async def run(
    turns: list[dict[str, Any]],
    targets: list[MemoryTarget],
    task: str = "raise replenishment orders for the low SKUs",
) -> RunRecord:
    responses, call_guards = enabled_guards(Settings(), {})
    record: RunRecord = await run_host(
        targets,
        ScriptedModel(turns),
        attachments=[SCREEN],
        task=task,
        response_guards=responses,
        call_guards=call_guards,
    )
    return record


def results(record: RunRecord) -> list[tuple[str, bool]]:
    return [(c.name, c.is_error) for c in record.tool_calls]


async def test_rows_are_resolved_before_the_first_turn_and_only_the_resolved_sku_is_ordered(
    targets: list[MemoryTarget], store: SqlStore
) -> None:
    record = await run(
        [
            calls(("orders_create_replenishment", {**ORDER, "sku": "4006381333948"})),
            calls(("orders_create_replenishment", {**ORDER, "sku": "SKU-10402", "quantity": 140})),
            calls(("inventory_query_stock", READ)),
            calls(("orders_create_replenishment", ORDER)),
            {"content": "Ordered 202 of SKU-10232."},
        ],
        targets,
    )
    assert open_orders(store) == {("SKU-10232", "WH-01"): 202}
    assert [(r.key, r.answer, r.sku, r.candidates) for r in record.resolutions] == [
        ("4006381333948", "one", "SKU-10232", []),
        ("Safety gloves", "several", None, ["SKU-10402", "SKU-10403"]),
        ("Widget 3000", "none", None, []),
    ]
    barcode, candidate = record.tool_calls[0], record.tool_calls[1]
    assert barcode.result == (
        "refused by the host: '4006381333948' on the screen is the barcode of SKU-10232; "
        "pass the SKU SKU-10232 instead"
    )
    assert candidate.is_error and "only a candidate for the screen's row 'Safety gloves'" in (
        candidate.result
    )
    assert "- '4006381333948' (barcode) is SKU-10232" in record.messages[1].content
    assert record.ledger_summary is not None
    assert record.ledger_summary.text.endswith(
        "Not written (not one item in the store): 'Safety gloves' matches several items: "
        "SKU-10402, SKU-10403; 'Widget 3000' matches no item in the store"
    )


async def test_the_tasks_exclusion_holds_an_item_the_screen_shows_by_its_barcode(
    targets: list[MemoryTarget], store: SqlStore
) -> None:
    record = await run(
        [
            calls(("inventory_query_stock", READ)),
            calls(("orders_create_replenishment", ORDER)),
            calls(("orders_create_replenishment", {**ORDER, "sku": "4006381333948"})),
            {"content": "Nothing ordered."},
        ],
        targets,
        task="raise replenishment orders for the low SKUs except SKU-10232",
    )
    assert open_orders(store) == {}
    assert results(record)[1:] == [
        ("orders_create_replenishment", True),
        ("orders_create_replenishment", True),
    ]
    assert "the task excludes SKU-10232" in record.tool_calls[1].result


async def test_a_row_resolved_from_its_barcode_is_placed_in_its_screens_warehouse(
    targets: list[MemoryTarget], store: SqlStore
) -> None:
    record = await run(
        [
            calls(("inventory_query_stock", {**READ, "warehouse_id": "WH-02"})),
            calls(("orders_create_replenishment", {**ORDER, "warehouse_id": "WH-02"})),
            {"content": "Nothing ordered."},
        ],
        targets,
    )
    assert open_orders(store) == {}
    assert "the screenshot shows SKU-10232 in WH-01, not in WH-02" in record.tool_calls[1].result
