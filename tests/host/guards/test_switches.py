"""Each guard, switched on and off, over the real loop and real in-memory tool servers:
switching it off changes what a user would see (the orders, the calls the servers got)."""

import json
from datetime import timedelta
from typing import Any

import pytest

from pipeline.bootstrap import enabled_guards
from pipeline.host.context import Attachment
from pipeline.host.loop import HostLimits
from pipeline.host.record import RunRecord
from pipeline.host.toolbox import MemoryTarget
from pipeline.settings import Settings
from pipeline.vlm.scripted import ScriptedModel
from servers import domain
from store.sql import SqlStore
from tests.host.conftest import HOST_NOW, open_orders, run_host

GROUPS = ("inventory", "orders", "warehouses")
SCREEN = Attachment(
    "erp.png",
    "Screenshot captured at 2026-11-28T10:05:00+08:00 (a past view).\n"
    "| sku | name | on_hand | reorder_point | warehouse_id | low |\n|---|---|---|---|---|---|\n"
    "| SKU-10232 | Hex nut M8 | 38 | 120 | WH-01 | yes |\n"
    "| SKU-10402 | Safety gloves L | 60 | 200 | WH-01 | yes |",
    "the table read from erp.png",
    HOST_NOW - timedelta(hours=47),
    skus=frozenset({"SKU-10232", "SKU-10402"}),
)
ORDER = {"sku": "SKU-10232", "warehouse_id": "WH-01", "quantity": 202}
ORDERED = {("SKU-10232", "WH-01"): 202}
"""The open orders once ORDER has run."""
NOT_LOW = {"sku": "SKU-10402", "warehouse_id": "WH-01", "quantity": 140}
READ = {"warehouse_id": "WH-01", "skus": ["SKU-10232", "SKU-10402"]}


def calls(*pairs: tuple[str, dict[str, Any]], finish: str | None = None) -> dict[str, Any]:
    turn: dict[str, Any] = {
        "content": "",
        "tool_calls": [
            {"id": f"c{k}", "function": {"name": n, "arguments": json.dumps(a, ensure_ascii=False)}}
            for k, (n, a) in enumerate(pairs)
        ],
    }
    if finish:
        turn["finish_reason"] = finish
    return turn


def say(text: str) -> dict[str, Any]:
    return {"content": text}


async def run(
    turns: list[dict[str, Any]],
    targets: list[MemoryTarget],
    off: str | None,
    task: str = "raise replenishment orders for the low SKUs",
) -> RunRecord:
    responses, call_guards = enabled_guards(Settings(), {off: False} if off else {})
    record: RunRecord = await run_host(
        targets,
        ScriptedModel(turns),
        attachments=[SCREEN],
        limits=HostLimits(max_hops=10),
        task=task,
        groups=GROUPS,
        response_guards=responses,
        call_guards=call_guards,
    )
    return record


def audited_refusals(store: SqlStore) -> int:
    return sum(e.outcome == "refused" for e in domain.audit_log(store, limit=100))


READ_THEN_ORDER = [
    calls(("inventory_query_stock", READ)),
    calls(("orders_create_replenishment", ORDER)),
]


async def test_stall_bounces_an_announcement_so_the_order_still_happens(
    targets: list[MemoryTarget], store: SqlStore
) -> None:
    turns = [
        say("I will check live stock and raise the orders."),
        *READ_THEN_ORDER,
        say("Ordered SKU-10232."),
    ]
    await run(turns, targets, off=None)
    assert open_orders(store) == ORDERED


async def test_without_stall_the_announcement_ends_the_run_with_nothing_ordered(
    targets: list[MemoryTarget], store: SqlStore
) -> None:
    turns = [say("I will check live stock and raise the orders."), *READ_THEN_ORDER]
    record = await run(turns, targets, off="stall")
    assert record.status == "done" and open_orders(store) == {}


@pytest.mark.parametrize("off", [None, "prose_call"])
async def test_prose_call_runs_a_call_left_in_the_text(
    off: str | None, targets: list[MemoryTarget], store: SqlStore
) -> None:
    text = f'<tool_call>{{"name": "orders_create_replenishment", "arguments": {json.dumps(ORDER)}}}</tool_call>'
    await run([calls(("inventory_query_stock", READ)), say(text), say("done")], targets, off)
    assert open_orders(store) == (ORDERED if off is None else {})


@pytest.mark.parametrize("off", [None, "arg_repair"])
async def test_arg_repair_reads_full_width_digits(
    off: str | None, targets: list[MemoryTarget], store: SqlStore
) -> None:
    full_width = {**ORDER, "quantity": "２０２"}
    await run(
        [
            calls(("inventory_query_stock", READ)),
            calls(("orders_create_replenishment", full_width)),
            say("done"),
        ],
        targets,
        off,
    )
    assert open_orders(store) == (ORDERED if off is None else {})


@pytest.mark.parametrize("off", [None, "truncation"])
async def test_truncation_never_runs_a_cut_call(
    off: str | None, targets: list[MemoryTarget], store: SqlStore
) -> None:
    cut = calls(("orders_create_replenishment", {**ORDER, "quantity": 2}), finish="length")
    await run(
        [
            calls(("inventory_query_stock", READ)),
            cut,
            calls(("orders_create_replenishment", ORDER)),
            say("done"),
        ],
        targets,
        off,
    )
    quantities = sorted(open_orders(store).values())
    assert quantities == ([202] if off is None else [2])


@pytest.mark.parametrize(("off", "refusals"), [(None, 1), ("repeat_rejected", 2)])
async def test_repeat_rejected_keeps_an_identical_resend_from_the_server(
    off: str | None, refusals: int, targets: list[MemoryTarget], store: SqlStore
) -> None:
    resend = calls(("orders_create_replenishment", NOT_LOW))
    await run([calls(("inventory_query_stock", READ)), resend, resend, say("done")], targets, off)
    assert audited_refusals(store) == refusals


@pytest.mark.parametrize(("off", "executed"), [(None, 1), ("unchanged_field", 2)])
async def test_unchanged_field_holds_a_retry_that_fixes_nothing(
    off: str | None, executed: int, targets: list[MemoryTarget]
) -> None:
    wrong = {"warehouse_id": "SKU-10232"}
    retry = {"warehouse_id": "SKU-10232", "skus": ["SKU-10232"]}
    record = await run(
        [
            calls(("inventory_query_stock", wrong)),
            calls(("inventory_query_stock", retry)),
            say("done"),
        ],
        targets,
        off,
    )
    assert sum(c.executed for c in record.tool_calls) == executed


@pytest.mark.parametrize(("off", "executed"), [(None, 2), ("read_loop", 5)])
async def test_read_loop_stops_the_same_read_with_nothing_new(
    off: str | None, executed: int, targets: list[MemoryTarget]
) -> None:
    loop = [calls(("inventory_query_stock", READ)) for _ in range(5)]
    record = await run([*loop, say("done")], targets, off)
    assert sum(c.executed for c in record.tool_calls) == executed


@pytest.mark.parametrize(("off", "hops"), [(None, 4), ("give_up", 7)])
async def test_give_up_ends_the_run_at_the_third_attempt(
    off: str | None, hops: int, targets: list[MemoryTarget]
) -> None:
    resend = calls(("orders_create_replenishment", NOT_LOW))
    # An answer that says why SKU-10232 was not ordered: `false_claim` lets it stand.
    said = say("SKU-10232 was not ordered: the orders kept failing.")
    record = await run([calls(("inventory_query_stock", READ)), *[resend] * 5, said], targets, off)
    assert record.hops == hops
    if off is None:
        assert record.final.startswith("Stopped: orders_create_replenishment was attempted 3 times")


@pytest.mark.parametrize("off", [None, "freshness"])
async def test_freshness_requires_a_live_read_before_a_write_from_an_old_screenshot(
    off: str | None, targets: list[MemoryTarget]
) -> None:
    order = calls(("orders_create_replenishment", ORDER))
    record = await run(
        [order, calls(("inventory_query_stock", READ)), order, say("done")], targets, off
    )
    executed = [c.name for c in record.tool_calls if c.executed]
    if off is None:
        assert executed == ["inventory_query_stock", "orders_create_replenishment"]
    else:
        assert executed[0] == "orders_create_replenishment"


@pytest.mark.parametrize(("off", "ordered"), [(None, {}), ("scope", ORDERED)])
async def test_scope_keeps_a_write_out_of_a_task_that_excludes_it(
    off: str | None,
    ordered: dict[tuple[str, str], int],
    targets: list[MemoryTarget],
    store: SqlStore,
) -> None:
    record = await run(
        [*READ_THEN_ORDER, say("done")],
        targets,
        off,
        task="raise replenishment orders for the low SKUs except SKU-10232",
    )
    assert open_orders(store) == ordered
    if off is None:
        assert record.tool_calls[-1].result.startswith("Blocked by the task contract")


@pytest.mark.parametrize("off", [None, "false_claim"])
async def test_false_claim_keeps_a_made_up_order_out_of_the_final_answer(
    off: str | None, targets: list[MemoryTarget]
) -> None:
    lie = say("All done: I placed orders PO-000042 and PO-000043 for the low SKUs.")
    record = await run([lie, lie], targets, off)
    if off is None:
        assert record.final.startswith("[Written by the host from the tool results")
        assert "no order was created, refused, proposed or cancelled" in record.final
    else:
        assert record.final == lie["content"]
    assert record.ledger_summary is not None and record.ledger_summary.ordered == []
