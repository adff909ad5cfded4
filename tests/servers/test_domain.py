from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from servers import catalog, domain
from servers.errors import InvalidArgument, NotLow, Refused
from servers.models import ReplenishmentRequest, ReplenishmentResult
from store.models import AuditEntry, OrderQuery, StockRecord
from store.protocol import Store
from store.stores import open_store

SetStock = Callable[..., None]
SCREENSHOT_AT = datetime(2026, 11, 27, 9, 14, 52, tzinfo=timezone(timedelta(hours=8)))


def order(store: Store, now: datetime, **fields: Any) -> ReplenishmentResult:
    request = ReplenishmentRequest(**{"warehouse_id": "WH-01", "quantity": 100, **fields})
    return domain.create_replenishment(store, request, max_quantity=1000, now=now)


def refusal(store: Store, now: datetime, **fields: Any) -> Refused:
    with pytest.raises(Refused) as caught:
        order(store, now, **fields)
    return caught.value


def orders_of(store: Store) -> list[Any]:
    return domain.list_orders(store, OrderQuery(limit=1000)).orders


def last_audit(store: Store) -> AuditEntry:
    return domain.audit_log(store, limit=1)[0]


# ---- creating orders


def test_a_low_sku_gets_an_order_and_an_accepted_audit_entry(store: Store, now: datetime) -> None:
    result = order(store, now, sku="SKU-10232", run_id="run-1")
    assert result.created
    assert (result.order.sku, result.order.warehouse_id, result.order.quantity) == (
        "SKU-10232",
        "WH-01",
        100,
    )
    assert (result.live.on_hand, result.live.on_order, result.live.reorder_point) == (38, 0, 120)
    entry = last_audit(store)
    assert (entry.outcome, entry.order_id, entry.run_id) == ("accepted", result.order.id, "run-1")
    assert entry.reason == "created PO-000001 for 100: on_hand 38 + on_order 0 < reorder_point 120"
    assert entry.arguments == {"sku": "SKU-10232", "warehouse_id": "WH-01", "quantity": 100}


def test_a_sku_that_is_not_low_now_is_refused_with_live_and_observed_numbers(
    store: Store, now: datetime
) -> None:
    error = refusal(store, now, sku="SKU-10402", observed_on_hand=60, observed_at=SCREENSHOT_AT)
    assert isinstance(error, NotLow)
    assert error.message == (
        "SKU-10402 in WH-01 is not low now: on_hand 310 + on_order 0 >= reorder_point 200 "
        "(the screenshot showed 60 at 2026-11-27T09:14:52+08:00)"
    )
    live: Any = error.details["live"]
    assert live["on_hand"] == 310
    assert error.details["observed_on_hand"] == 60


def test_stale_screenshot_write_is_refused_and_audited(
    store: Store, now: datetime, set_stock: SetStock
) -> None:
    set_stock("SKU-10318", "WH-01", on_hand=500)  # the screenshot showed 2; restocked since
    error = refusal(
        store,
        now,
        sku="SKU-10318",
        quantity=50,
        observed_on_hand=5,
        observed_at=SCREENSHOT_AT,
        run_id="run-stale",
    )
    assert error.message == (
        "SKU-10318 in WH-01 is not low now: on_hand 500 + on_order 0 >= reorder_point 25 "
        "(the screenshot showed 5 at 2026-11-27T09:14:52+08:00)"
    )
    assert orders_of(store) == []
    entry = last_audit(store)
    assert (entry.action, entry.outcome, entry.run_id) == (
        "orders_create_replenishment",
        "refused",
        "run-stale",
    )
    assert entry.reason == error.message
    assert entry.arguments["observed_on_hand"] == 5
    assert entry.arguments["observed_at"] == "2026-11-27T09:14:52+08:00"


@pytest.mark.parametrize(
    ("observed", "suffix"),
    [
        ({"observed_on_hand": 60}, " (the screenshot showed 60)"),
        (
            {"observed_at": SCREENSHOT_AT},
            " (the screenshot was taken at 2026-11-27T09:14:52+08:00)",
        ),
        ({}, ""),
    ],
)
def test_a_refusal_quotes_only_what_was_observed(
    store: Store, now: datetime, observed: dict[str, Any], suffix: str
) -> None:
    error = refusal(store, now, sku="SKU-10402", **observed)
    assert error.message.endswith(f">= reorder_point 200{suffix}")


def test_an_open_order_counts_in_on_order_so_a_second_order_is_refused(
    store: Store, now: datetime
) -> None:
    order(store, now, sku="SKU-10232", quantity=100)
    error = refusal(store, now, sku="SKU-10232", quantity=100)
    assert "on_hand 38 + on_order 100 >= reorder_point 120" in error.message
    assert len(orders_of(store)) == 1


def test_outside_on_order_counts_too(store: Store, now: datetime) -> None:
    # SKU-10403 in WH-01: 95 on hand + 120 on order outside stockshot >= 200
    error = refusal(store, now, sku="SKU-10403")
    assert "on_hand 95 + on_order 120 >= reorder_point 200" in error.message


def test_cancelling_an_order_makes_the_sku_orderable_again(store: Store, now: datetime) -> None:
    first = order(store, now, sku="SKU-10232").order
    domain.cancel_order(store, first.id, now=now)
    second = order(store, now, sku="SKU-10232")
    assert second.created
    assert second.order.id != first.id


def test_the_same_idempotency_key_returns_the_same_order_without_a_second_row(
    store: Store, now: datetime
) -> None:
    first = order(store, now, sku="SKU-10232", idempotency_key="run-1/SKU-10232")
    again = order(store, now, sku="SKU-10232", idempotency_key="run-1/SKU-10232")
    assert first.created
    assert not again.created
    assert again.order == first.order
    assert len(orders_of(store)) == 1
    assert last_audit(store).reason == "idempotency key 'run-1/SKU-10232' returned PO-000001"


def test_an_idempotency_key_reused_for_a_different_order_is_refused(
    store: Store, now: datetime
) -> None:
    order(store, now, sku="SKU-10232", idempotency_key="k")
    error = refusal(store, now, sku="SKU-10310", idempotency_key="k")
    assert (error.code, error.field) == ("idempotency_key_reused", "idempotency_key")
    assert error.message == (
        "idempotency key 'k' already belongs to PO-000001 (SKU-10232 in WH-01, quantity 100); "
        "use a new key for a different order"
    )
    assert len(orders_of(store)) == 1


@pytest.mark.parametrize(
    ("quantity", "message"),
    [
        (0, "quantity must be at least 1, got 0"),
        (-5, "quantity must be at least 1, got -5"),
        (1001, "quantity 1001 is above the limit of 1000 units per order"),
    ],
)
def test_a_quantity_out_of_range_is_refused_and_audited(
    store: Store, now: datetime, quantity: int, message: str
) -> None:
    error = refusal(store, now, sku="SKU-10232", quantity=quantity)
    assert (error.code, error.field, error.message) == (
        "quantity_out_of_range",
        "quantity",
        message,
    )
    assert error.details == {"minimum": 1, "maximum": 1000}
    assert (last_audit(store).outcome, last_audit(store).reason) == ("refused", message)
    assert orders_of(store) == []


@pytest.mark.parametrize(
    ("fields", "code", "message"),
    [
        (
            {"sku": "SKU-10232", "warehouse_id": "SKU-12345"},
            "wrong_kind",
            "'SKU-12345' looks like a SKU, not a warehouse id; warehouses: WH-01, WH-02, WH-03",
        ),
        (
            {"sku": "WH-01", "warehouse_id": "SKU-10232"},
            "swapped_ids",
            "sku 'WH-01' and warehouse_id 'SKU-10232' look swapped; "
            "did you mean sku='SKU-10232', warehouse_id='WH-01'?",
        ),
        (
            {"sku": "SKU-10233", "warehouse_id": "WH-09"},
            "unknown_warehouse",
            "unknown warehouse id 'WH-09' (did you mean WH-01?); warehouses: WH-01, WH-02, WH-03",
        ),
        (
            {"sku": "SKU-10519"},
            "unknown_sku",
            "unknown SKU 'SKU-10519'; closest known SKUs: SKU-10510, SKU-10511, SKU-10501",
        ),
        (
            {"sku": "SKU-10601"},
            "not_stocked",
            "SKU-10601 is not stocked in WH-01; it is stocked in WH-02",
        ),
    ],
)
def test_unknown_or_swapped_ids_are_refused_with_valid_values_and_audited(
    store: Store, now: datetime, fields: dict[str, str], code: str, message: str
) -> None:
    error = refusal(store, now, **fields)
    assert isinstance(error, InvalidArgument)
    assert (error.code, error.message) == (code, message)
    assert last_audit(store).outcome == "refused"
    assert orders_of(store) == []


def test_twenty_concurrent_orders_for_one_low_sku_create_exactly_one(
    store: Store, store_url: str, now: datetime
) -> None:
    callers = 20
    start = threading.Barrier(callers, timeout=30)

    def attempt(i: int) -> ReplenishmentResult | Refused:
        # Each caller has its own store and connection, as processes would.
        with open_store(store_url) as own:
            start.wait()
            try:
                return order(own, now, sku="SKU-10232", quantity=100, run_id=f"caller-{i}")
            except Refused as exc:
                return exc

    with ThreadPoolExecutor(max_workers=callers) as pool:
        outcomes = list(pool.map(attempt, range(callers), timeout=60))

    created = [o for o in outcomes if isinstance(o, ReplenishmentResult)]
    refused = [o for o in outcomes if isinstance(o, Refused)]
    assert len(created) == 1
    assert len(refused) == callers - 1
    assert {r.message for r in refused} == {
        "SKU-10232 in WH-01 is not low now: on_hand 38 + on_order 100 >= reorder_point 120"
    }
    assert len(orders_of(store)) == 1
    audit = domain.audit_log(store, limit=callers)
    assert sorted(e.outcome for e in audit) == ["accepted"] + ["refused"] * (callers - 1)


def test_the_run_id_is_kept_on_the_order(store: Store, now: datetime) -> None:
    created = order(store, now, sku="SKU-10232", run_id="run-42").order
    assert created.run_id == "run-42"
    assert domain.list_orders(store, OrderQuery(run_id="run-42")).orders == [created]


# ---- cancelling


def test_cancelling_twice_changes_nothing_the_second_time(store: Store, now: datetime) -> None:
    created = order(store, now, sku="SKU-10232").order
    first = domain.cancel_order(store, created.id, now=now, run_id="run-1")
    second = domain.cancel_order(store, created.id, now=now + timedelta(hours=1))
    assert first.cancelled
    assert first.order.status == "cancelled"
    assert first.order.cancelled_at == now
    assert not second.cancelled
    assert second.order == first.order
    assert [e.reason for e in domain.audit_log(store, limit=2)] == [
        "already cancelled",
        "cancelled",
    ]


def test_cancelling_an_unknown_order_lists_the_open_ones_and_is_audited(
    store: Store, now: datetime
) -> None:
    order(store, now, sku="SKU-10232")
    with pytest.raises(InvalidArgument) as caught:
        domain.cancel_order(store, "PO-000099", now=now)
    assert caught.value.message == "unknown order id 'PO-000099'; open orders: PO-000001"
    assert last_audit(store).outcome == "refused"


def test_a_sku_given_as_an_order_id_is_named_as_a_sku(store: Store, now: datetime) -> None:
    with pytest.raises(InvalidArgument) as caught:
        domain.cancel_order(store, "SKU-10232", now=now)
    assert caught.value.message == (
        "'SKU-10232' looks like a SKU, not an order id like PO-000042; no order is open"
    )


# ---- reads


def test_query_stock_returns_live_numbers_as_of_now(store: Store, now: datetime) -> None:
    report = domain.query_stock(store, "WH-01", ["SKU-10232", "SKU-10402"], now=now)
    assert report.as_of == now
    assert [
        (i.sku, i.on_hand, i.on_order, i.reorder_point, i.needs_reorder) for i in report.items
    ] == [
        ("SKU-10232", 38, 0, 120, True),
        ("SKU-10402", 310, 0, 200, False),
    ]
    assert report.not_found == []


def test_query_stock_without_skus_returns_every_sku_of_the_warehouse(
    store: Store, now: datetime
) -> None:
    report = domain.query_stock(store, "WH-03", now=now)
    assert len(report.items) == 11
    assert {i.warehouse_id for i in report.items} == {"WH-03"}


def test_query_stock_lists_skus_it_cannot_find_with_a_hint(store: Store, now: datetime) -> None:
    report = domain.query_stock(store, "WH-01", ["SKU-10232", "SKU-10601", "SKU-1023"], now=now)
    assert [i.sku for i in report.items] == ["SKU-10232"]
    assert [(n.sku, n.message) for n in report.not_found] == [
        ("SKU-10601", "SKU-10601 is not stocked in WH-01; it is stocked in WH-02"),
        ("SKU-1023", "unknown SKU 'SKU-1023'; closest known SKUs: SKU-10231, SKU-10232, SKU-10233"),
    ]


def test_query_stock_with_a_bad_warehouse_id_is_refused(store: Store, now: datetime) -> None:
    with pytest.raises(InvalidArgument, match="looks like a SKU, not a warehouse id"):
        domain.query_stock(store, "SKU-10232", now=now)


def test_get_item_returns_the_sku_in_every_warehouse(store: Store, now: datetime) -> None:
    item = domain.get_item(store, "SKU-10402", now=now)
    assert (item.name, item.total_on_hand) == ("Safety gloves size L (pair)", 310 + 88)
    assert [w.warehouse_id for w in item.warehouses] == ["WH-01", "WH-02"]


def test_warehouse_summaries_count_skus_needing_reorder(store: Store) -> None:
    summaries = domain.list_warehouses(store).warehouses
    assert [(s.warehouse_id, s.city, s.skus, s.skus_needing_reorder) for s in summaries] == [
        ("WH-01", "Shanghai", 17, 5),
        ("WH-02", "Tianjin", 15, 6),
        ("WH-03", "Shenzhen", 11, 4),
    ]
    assert domain.get_warehouse(store, "WH-02") == summaries[1]


def test_list_orders_refuses_a_filter_id_that_does_not_exist(store: Store) -> None:
    with pytest.raises(InvalidArgument, match="looks like a warehouse id, not a SKU"):
        domain.list_orders(store, OrderQuery(sku="WH-01"))


def test_list_orders_filters_by_status_and_time(store: Store, now: datetime) -> None:
    early = order(store, now, sku="SKU-10232").order
    late = order(store, now + timedelta(hours=2), sku="SKU-10310").order
    domain.cancel_order(store, early.id, now=now)
    assert domain.list_orders(store, OrderQuery(status="open")).orders == [late]
    since = domain.list_orders(store, OrderQuery(created_since=now + timedelta(hours=1))).orders
    assert since == [late]


# ---- import and seed


def test_import_creates_unknown_warehouses_and_upserts_by_sku_and_warehouse(
    store: Store, now: datetime
) -> None:
    _, seeded = catalog.seed_data()
    hex_nut = next(r for r in seeded if (r.sku, r.warehouse_id) == ("SKU-10232", "WH-01"))
    summary = domain.import_records(
        store,
        [
            hex_nut.model_copy(update={"on_hand": 900}),
            StockRecord(
                sku="SKU-90001",
                name="Pallet",
                warehouse_id="WH-09",
                on_hand=1,
                reorder_point=2,
                on_order=0,
            ),
        ],
        now=now,
        source="new.csv",
    )
    assert (summary.new_rows, summary.updated_rows) == (1, 1)
    assert (summary.new_items, summary.new_warehouses) == (["SKU-90001"], ["WH-09"])
    live = domain.query_stock(store, "WH-01", ["SKU-10232"], now=now).items[0]
    assert live.on_hand == 900
    assert domain.get_warehouse(store, "WH-09").name == "WH-09"
    assert last_audit(store).arguments == {"source": "new.csv", "rows": 2}


def test_reseeding_resets_stock_and_cancels_open_orders_on_seeded_rows(
    store: Store, now: datetime, set_stock: SetStock
) -> None:
    created = order(store, now, sku="SKU-10232").order
    set_stock("SKU-10402", "WH-01", on_hand=1)
    summary = domain.seed(store, *catalog.seed_data(), now=now)
    assert summary.cancelled_orders == [created.id]
    assert (summary.new_rows, summary.updated_rows) == (0, 43)
    report = domain.query_stock(store, "WH-01", ["SKU-10232", "SKU-10402"], now=now)
    assert [(i.on_hand, i.on_order) for i in report.items] == [(38, 0), (310, 0)]


def test_at_most_caps_the_policy_quantity_and_says_so(store: Store, now: datetime) -> None:
    # SKU-10232 in WH-01: on_hand 38, reorder point 120: the policy orders 202.
    result = order(store, now, sku="SKU-10232", quantity=None, at_most=20)
    assert (result.created, result.order.quantity) == (True, 20)
    assert "(policy, at most 20)" in last_audit(store).reason


def test_at_most_above_the_policy_quantity_leaves_the_policy_as_it_is(
    store: Store, now: datetime
) -> None:
    result = order(store, now, sku="SKU-10520", quantity=None, at_most=500)
    assert result.order.quantity == 2 * 12 - 7


@pytest.mark.parametrize(("quantity", "at_most"), [(30, 20), (None, 0)])
def test_a_quantity_above_at_most_or_an_at_most_below_one_is_refused_and_nothing_written(
    store: Store, now: datetime, quantity: int | None, at_most: int
) -> None:
    refused = refusal(store, now, sku="SKU-10232", quantity=quantity, at_most=at_most)
    assert refused.code == "bad_at_most"
    assert orders_of(store) == []
