from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.types import CallToolResult, TextContent

from servers import domain
from servers.factory import build_server
from servers.models import CancelResult, OrderList, ReplenishmentResult
from servers.toolkit import run_meta
from store.models import OrderQuery
from store.protocol import Store
from store.stores import StoreOptions, open_store
from tests.servers.conftest import holding_the_write_lock

Connect = Callable[[], Client]
SetStock = Callable[..., None]
RUN = run_meta("run-42")


def text_of(result: CallToolResult) -> str:
    assert isinstance(result.content[0], TextContent)
    return result.content[0].text


def create_args(sku: str = "SKU-10232", **more: Any) -> dict[str, Any]:
    return {"sku": sku, "warehouse_id": "WH-01", "quantity": 100, **more}


def stored_orders(store: Store) -> list[Any]:
    return domain.list_orders(store, OrderQuery(limit=1000)).orders


async def test_an_order_for_a_low_sku_is_created_with_the_callers_run_id(
    connect: Connect, store: Store
) -> None:
    async with connect() as client:
        result = await client.call_tool("orders_create_replenishment", create_args(), meta=RUN)
    assert not result.is_error, text_of(result)
    created = ReplenishmentResult.model_validate(result.structured_content)
    assert created.created
    assert (created.order.id, created.order.status, created.order.run_id) == (
        "PO-000001",
        "open",
        "run-42",
    )
    assert (created.live.on_hand, created.live.on_order) == (38, 0)
    assert stored_orders(store) == [created.order]
    audit = domain.audit_log(store, limit=1)[0]
    assert (audit.outcome, audit.run_id, audit.order_id) == ("accepted", "run-42", "PO-000001")


async def test_stale_screenshot_write_is_refused_and_audited(
    connect: Connect, store: Store, set_stock: SetStock
) -> None:
    set_stock("SKU-10232", "WH-01", on_hand=500)
    arguments = create_args(observed_on_hand=5, observed_at="2026-11-27T09:14:52+08:00")
    async with connect() as client:
        result = await client.call_tool("orders_create_replenishment", arguments, meta=RUN)
    assert result.is_error
    assert text_of(result) == (
        "refused: SKU-10232 in WH-01 is not low now: on_hand 500 + on_order 0 >= "
        "reorder_point 120 (the screenshot showed 5 at 2026-11-27T09:14:52+08:00)"
    )
    assert result.structured_content is not None
    assert result.structured_content["error"] == "not_low"
    assert result.structured_content["live"]["on_hand"] == 500
    assert result.structured_content["observed_on_hand"] == 5
    assert stored_orders(store) == []
    audit = domain.audit_log(store, limit=1)[0]
    assert (audit.outcome, audit.run_id, audit.order_id) == ("refused", "run-42", None)
    assert audit.arguments["observed_on_hand"] == 5


async def test_the_same_idempotency_key_returns_the_same_order(
    connect: Connect, store: Store
) -> None:
    arguments = create_args(idempotency_key="run-42/SKU-10232/WH-01")
    async with connect() as client:
        first = await client.call_tool("orders_create_replenishment", arguments)
        again = await client.call_tool("orders_create_replenishment", arguments)
    assert first.structured_content is not None
    assert again.structured_content is not None
    assert (first.structured_content["created"], again.structured_content["created"]) == (
        True,
        False,
    )
    assert again.structured_content["order"] == first.structured_content["order"]
    assert len(stored_orders(store)) == 1


async def test_a_run_executed_again_gets_its_orders_back_instead_of_ordering_twice(
    connect: Connect, store: Store
) -> None:
    # No key from the caller: the run id keys each order, so a retried run (same id) that
    # repeats its calls, one SKU or a batch, never doubles one.
    batch = {"skus": ["SKU-10232"], "warehouse_id": "WH-01"}
    async with connect() as client:
        first = await client.call_tool("orders_create_replenishment", create_args(), meta=RUN)
        again = await client.call_tool("orders_create_replenishment", create_args(), meta=RUN)
        as_batch = await client.call_tool("orders_create_replenishment", batch, meta=RUN)
        other = await client.call_tool(
            "orders_create_replenishment", create_args(), meta=run_meta("run-43")
        )
    assert first.structured_content is not None and again.structured_content is not None
    assert again.structured_content["created"] is False
    assert again.structured_content["order"]["id"] == "PO-000001"
    assert as_batch.structured_content is not None
    assert as_batch.structured_content["results"][0]["created"] is False
    assert other.is_error  # another run is held by the live re-check: the SKU is on order
    assert [o.idempotency_key for o in stored_orders(store)] == ["run-42:WH-01:SKU-10232"]


async def test_a_quantity_above_the_configured_ceiling_is_refused(connect: Connect) -> None:
    async with connect() as client:
        result = await client.call_tool("orders_create_replenishment", create_args(quantity=1001))
    assert result.is_error
    assert text_of(result) == "refused: quantity 1001 is above the limit of 1000 units per order"
    assert result.structured_content is not None
    assert result.structured_content["field"] == "quantity"


async def test_swapped_ids_are_refused_with_the_fix(connect: Connect, store: Store) -> None:
    arguments = {"sku": "WH-01", "warehouse_id": "SKU-10232", "quantity": 10}
    async with connect() as client:
        result = await client.call_tool("orders_create_replenishment", arguments)
    assert result.is_error
    assert result.structured_content is not None
    assert result.structured_content["error"] == "swapped_ids"
    assert (result.structured_content["sku"], result.structured_content["warehouse_id"]) == (
        "SKU-10232",
        "WH-01",
    )
    assert domain.audit_log(store, limit=1)[0].outcome == "refused"


async def test_an_observed_at_that_is_not_a_time_is_rejected_before_the_rules_run(
    connect: Connect, store: Store
) -> None:
    async with connect() as client:
        result = await client.call_tool(
            "orders_create_replenishment", create_args(observed_at="yesterday")
        )
    assert result.is_error
    assert "observed_at" in text_of(result)
    assert stored_orders(store) == []


async def test_twenty_concurrent_tool_calls_for_one_low_sku_create_exactly_one_order(
    connect: Connect, store: Store
) -> None:
    results: list[CallToolResult] = []

    async def call(client: Client, i: int) -> None:
        meta = run_meta(f"caller-{i}")
        results.append(
            await client.call_tool("orders_create_replenishment", create_args(), meta=meta)
        )

    with anyio.fail_after(30):
        async with connect() as client, anyio.create_task_group() as group:
            for i in range(20):
                group.start_soon(call, client, i)

    created = [r for r in results if not r.is_error]
    refused = [r for r in results if r.is_error]
    assert len(created) == 1
    assert len(refused) == 19
    assert {text_of(r) for r in refused} == {
        "refused: SKU-10232 in WH-01 is not low now: on_hand 38 + on_order 100 >= reorder_point 120"
    }
    assert len(stored_orders(store)) == 1


async def test_orders_list_filters_by_sku_and_status(connect: Connect) -> None:
    async with connect() as client:
        await client.call_tool("orders_create_replenishment", create_args("SKU-10232"))
        await client.call_tool("orders_create_replenishment", create_args("SKU-10310"))
        await client.call_tool("orders_cancel", {"order_id": "PO-000001"})
        open_orders = await client.call_tool("orders_list", {"status": "open"})
        for_sku = await client.call_tool("orders_list", {"sku": "SKU-10232"})
    listed = OrderList.model_validate(open_orders.structured_content)
    assert [o.sku for o in listed.orders] == ["SKU-10310"]
    listed = OrderList.model_validate(for_sku.structured_content)
    assert [(o.id, o.status) for o in listed.orders] == [("PO-000001", "cancelled")]


async def test_orders_list_with_a_swapped_filter_is_an_error_result(connect: Connect) -> None:
    async with connect() as client:
        result = await client.call_tool("orders_list", {"warehouse_id": "SKU-10232"})
    assert result.is_error
    assert text_of(result).startswith("'SKU-10232' looks like a SKU, not a warehouse id")


async def test_a_barcode_in_the_warehouse_id_of_an_order_is_refused_as_the_barcode_it_is(
    connect: Connect, store: Store
) -> None:
    async with connect() as client:
        result = await client.call_tool(
            "orders_create_replenishment",
            create_args(warehouse_id="4006381333948"),
            meta=RUN,
        )
    assert result.is_error
    assert text_of(result) == (
        "refused: '4006381333948' is the barcode of SKU-10232, not a warehouse id; "
        "warehouses: WH-01, WH-02, WH-03"
    )
    assert stored_orders(store) == []
    assert domain.audit_log(store, limit=1)[0].outcome == "refused"


async def test_cancelling_an_order_frees_the_sku_for_a_new_order(
    connect: Connect, store: Store
) -> None:
    async with connect() as client:
        await client.call_tool("orders_create_replenishment", create_args())
        cancelled = await client.call_tool("orders_cancel", {"order_id": "PO-000001"}, meta=RUN)
        again = await client.call_tool("orders_create_replenishment", create_args())
    result = CancelResult.model_validate(cancelled.structured_content)
    assert (result.cancelled, result.order.status) == (True, "cancelled")
    assert not again.is_error
    assert domain.audit_log(store, limit=2)[1].run_id == "run-42"


async def test_cancelling_an_unknown_order_lists_the_open_ones(connect: Connect) -> None:
    async with connect() as client:
        await client.call_tool("orders_create_replenishment", create_args())
        result = await client.call_tool("orders_cancel", {"order_id": "PO-000007"})
    assert result.is_error
    assert text_of(result) == "refused: unknown order id 'PO-000007'; open orders: PO-000001"
    assert result.structured_content is not None
    assert result.structured_content["valid"] == ["PO-000001"]


async def test_a_write_while_another_writer_holds_the_store_says_the_store_is_busy(
    store: Store, store_url: str, now: datetime
) -> None:
    audited = len(domain.audit_log(store, limit=1000))
    with (
        open_store(store_url, StoreOptions(busy_timeout_s=0.2)) as impatient,
        holding_the_write_lock(store_url, "SKU-10232", "WH-01"),
    ):
        server = build_server("orders", impatient, clock=lambda: now)
        with anyio.fail_after(30):
            async with Client(server) as client:
                write = await client.call_tool(
                    "orders_create_replenishment", create_args(), meta=RUN
                )
                read = await client.call_tool("orders_list", {})
    assert write.is_error
    assert text_of(write).startswith("the store is busy: ")
    assert "nothing was written; send the call again shortly" in text_of(write)
    assert write.structured_content is not None
    assert write.structured_content["error"] == "store_unavailable"
    assert not read.is_error  # readers are not held up by a writer (WAL, MVCC)
    assert stored_orders(store) == []
    assert len(domain.audit_log(store, limit=1000)) == audited


async def test_without_a_quantity_the_servers_policy_orders_up_to_twice_the_reorder_point(
    connect: Connect,
) -> None:
    async with connect() as client:
        result = await client.call_tool(
            "orders_create_replenishment", {"sku": "SKU-10232", "warehouse_id": "WH-01"}
        )
    assert not result.is_error, text_of(result)
    created = ReplenishmentResult.model_validate(result.structured_content)
    assert created.order.quantity == 2 * 120 - 38


async def test_several_skus_of_one_warehouse_are_each_rechecked_with_a_result_each(
    connect: Connect, store: Store
) -> None:
    batch = {
        "warehouse_id": "WH-01",
        "skus": ["SKU-10232", "SKU-10402", "SKU-10318"],
        "idempotency_key": "batch-1",
    }
    async with connect() as client:
        result = await client.call_tool("orders_create_replenishment", batch)
        again = await client.call_tool(
            "orders_create_replenishment", {**batch, "skus": ["SKU-10232", "SKU-10318"]}
        )
    assert not result.is_error, text_of(result)
    assert result.structured_content is not None
    by_sku = {r["sku"]: r for r in result.structured_content["results"]}
    assert by_sku["SKU-10232"]["order"]["quantity"] == 202
    assert by_sku["SKU-10318"]["order"]["idempotency_key"] == "batch-1:SKU-10318"
    assert by_sku["SKU-10402"]["refused"]["error"] == "not_low"
    assert "order" not in by_sku["SKU-10402"]
    assert again.structured_content is not None
    assert [r["created"] for r in again.structured_content["results"]] == [False, False]
    assert len([o for o in stored_orders(store) if o.status == "open"]) == 2


async def test_a_batch_where_every_sku_is_refused_is_an_error_naming_each(
    connect: Connect,
) -> None:
    async with connect() as client:
        result = await client.call_tool(
            "orders_create_replenishment",
            {"warehouse_id": "WH-01", "skus": ["SKU-10402", "SKU-10233"]},
        )
    assert result.is_error
    text = text_of(result)
    assert text.startswith("refused: SKU-10402 in WH-01 is not low now")
    assert "SKU-10233 in WH-01 is not low now" in text


@pytest.mark.parametrize(
    "arguments",
    [
        {"warehouse_id": "WH-01"},
        {"warehouse_id": "WH-01", "sku": "SKU-10232", "skus": ["SKU-10318"]},
    ],
)
async def test_sku_and_skus_are_one_or_the_other(
    connect: Connect, arguments: dict[str, object]
) -> None:
    async with connect() as client:
        result = await client.call_tool("orders_create_replenishment", arguments)
    assert result.is_error
    assert result.structured_content is not None
    assert result.structured_content["error"] == "sku_or_skus"
