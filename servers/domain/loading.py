"""Stock loaded in bulk: a CSV import and the demo catalogue (`store seed`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from servers.domain.base import IMPORT, SEED, _all_orders
from servers.models import ImportSummary
from store.models import JsonObject, NewAuditEntry, OrderQuery, StockRecord, Warehouse
from store.protocol import Store, StoreWriter

__all__ = ["import_records", "seed"]


def import_records(
    store: Store, records: Sequence[StockRecord], *, now: datetime, source: str
) -> ImportSummary:
    """Upsert stock rows by SKU and warehouse, creating unknown warehouses, in one write."""
    with store.writing() as tx:
        summary = _put_records(tx, records, now=now)
        _audit(tx, IMPORT, summary, {"source": source, "rows": len(records)}, now=now)
    return summary


def seed(
    store: Store,
    warehouses: Sequence[Warehouse],
    records: Sequence[StockRecord],
    *,
    now: datetime,
) -> ImportSummary:
    """Load the demo catalogue; re-seeding resets its stock rows to the seed values.

    Open orders on seeded rows are cancelled, so live `on_order` equals the seed again.
    """
    with store.writing() as tx:
        for warehouse in warehouses:
            tx.add_warehouse(warehouse, replace=True)
        summary = _put_records(tx, records, now=now)
        seeded = {(r.sku, r.warehouse_id) for r in records}
        cancelled = [
            tx.cancel_order(order.id, now=now).id
            for order in _all_orders(tx, OrderQuery(status="open"))
            if (order.sku, order.warehouse_id) in seeded
        ]
        summary = summary.model_copy(update={"cancelled_orders": sorted(cancelled)})
        _audit(tx, SEED, summary, {"warehouses": len(warehouses), "rows": len(records)}, now=now)
    return summary


def _audit(
    tx: StoreWriter, action: str, summary: ImportSummary, arguments: JsonObject, *, now: datetime
) -> None:
    """The audit entry of a bulk load, in the load's own write."""
    tx.append_audit(
        NewAuditEntry(
            at=now,
            action=action,
            outcome="accepted",
            reason=_describe(summary),
            arguments=arguments,
        )
    )


def _put_records(
    tx: StoreWriter, records: Sequence[StockRecord], *, now: datetime
) -> ImportSummary:
    known_warehouses = {w.warehouse_id for w in tx.warehouses()}
    known_skus = set(tx.skus())
    new_warehouses = sorted({r.warehouse_id for r in records} - known_warehouses)
    for warehouse_id in new_warehouses:
        tx.add_warehouse(Warehouse(warehouse_id=warehouse_id, name=warehouse_id), replace=False)
    new_rows = sum(tx.put_stock(record, now=now) for record in records)
    return ImportSummary(
        rows=len(records),
        new_rows=new_rows,
        updated_rows=len(records) - new_rows,
        new_items=sorted({r.sku for r in records} - known_skus),
        new_warehouses=new_warehouses,
    )


def _describe(summary: ImportSummary) -> str:
    parts = [f"{summary.rows} rows ({summary.new_rows} new, {summary.updated_rows} updated)"]
    if summary.new_items:
        parts.append(f"{len(summary.new_items)} new items")
    if summary.new_warehouses:
        parts.append(f"new warehouses {', '.join(summary.new_warehouses)}")
    if summary.cancelled_orders:
        parts.append(f"cancelled open orders {', '.join(summary.cancelled_orders)}")
    return "; ".join(parts)
