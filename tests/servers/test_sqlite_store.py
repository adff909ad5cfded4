from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

import pytest

from servers.errors import StoreError
from servers.models import NewOrder, OrderQuery, StockRecord, Warehouse
from servers.sqlite_store import SCHEMA_VERSION, SqliteStore


def pragma(path: Path, name: str) -> object:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(f"PRAGMA {name}").fetchone()[0]
    finally:
        conn.close()


RECORD = StockRecord(
    sku="SKU-1", name="Bolt", warehouse_id="WH-01", on_hand=5, reorder_point=10, on_order=2
)


def test_a_new_store_is_in_wal_mode_at_the_current_schema_version(db_path: Path) -> None:
    SqliteStore(db_path).close()
    assert pragma(db_path, "journal_mode") == "wal"
    assert pragma(db_path, "user_version") == SCHEMA_VERSION


def test_a_store_is_created_in_a_folder_that_does_not_exist_yet(tmp_path: Path) -> None:
    with SqliteStore(tmp_path / "a" / "b" / "stockshot.db") as store, store.reading() as tx:
        assert tx.warehouses() == []


def test_reopening_a_store_keeps_its_data(db_path: Path, now: datetime) -> None:
    with SqliteStore(db_path) as store, store.writing() as tx:
        tx.add_warehouse(Warehouse(warehouse_id="WH-01", name="Main"), replace=False)
        tx.put_stock(RECORD, now=now)
    with SqliteStore(db_path) as store, store.reading() as tx:
        assert tx.stock_records() == [RECORD]


def test_a_store_written_by_a_newer_schema_is_refused(db_path: Path) -> None:
    SqliteStore(db_path).close()
    conn = sqlite3.connect(db_path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(StoreError, match="newer than this version of stockshot"):
        SqliteStore(db_path)


def test_a_file_that_is_not_a_database_is_a_store_error(db_path: Path) -> None:
    db_path.write_bytes(b"not a database, just some bytes " * 100)
    with pytest.raises(StoreError, match="cannot use"):
        SqliteStore(db_path)


def test_a_write_that_raises_rolls_back_everything_it_wrote(db_path: Path, now: datetime) -> None:
    with SqliteStore(db_path) as store:
        with pytest.raises(RuntimeError), store.writing() as tx:
            tx.add_warehouse(Warehouse(warehouse_id="WH-01", name="Main"), replace=False)
            raise RuntimeError("boom")
        with store.reading() as tx:
            assert tx.warehouses() == []


def test_a_write_transaction_locks_out_other_writers_from_its_start(db_path: Path) -> None:
    with (
        SqliteStore(db_path) as store,
        SqliteStore(db_path, busy_timeout_s=0.05) as other,
        store.writing(),
    ):
        # Nothing written yet: BEGIN IMMEDIATE alone holds the write lock.
        with pytest.raises(StoreError, match="stayed locked by another writer"), other.writing():
            pass
        with other.reading() as tx:
            assert tx.warehouses() == []


def test_live_on_order_counts_open_orders_but_not_cancelled_ones(
    db_path: Path, now: datetime
) -> None:
    with SqliteStore(db_path) as store:
        with store.writing() as tx:
            tx.add_warehouse(Warehouse(warehouse_id="WH-01", name="Main"), replace=False)
            tx.put_stock(RECORD, now=now)
            first = tx.insert_order(
                NewOrder(sku="SKU-1", warehouse_id="WH-01", quantity=7), now=now
            )
            tx.insert_order(NewOrder(sku="SKU-1", warehouse_id="WH-01", quantity=3), now=now)
            tx.cancel_order(first.id, now=now)
        with store.reading() as tx:
            (level,) = tx.stock_levels(warehouse_id="WH-01")
            assert level.on_order == 2 + 3
            assert tx.stock_records() == [RECORD]


def test_orders_are_numbered_and_found_by_id_or_short_id(db_path: Path, now: datetime) -> None:
    with SqliteStore(db_path) as store, store.writing() as tx:
        tx.add_warehouse(Warehouse(warehouse_id="WH-01", name="Main"), replace=False)
        tx.put_stock(RECORD, now=now)
        order = tx.insert_order(
            NewOrder(sku="SKU-1", warehouse_id="WH-01", quantity=7, idempotency_key="k"), now=now
        )
        assert order.id == "PO-000001"
        assert order.status == "open"
        assert order.created_at == now
        assert tx.order("po-1") == order
        assert tx.order_by_key("k") == order
        assert tx.order("SKU-1") is None
        assert tx.orders(OrderQuery(status="cancelled")) == []


def test_an_order_for_a_row_that_does_not_exist_is_refused_by_the_schema(
    db_path: Path, now: datetime
) -> None:
    with (
        SqliteStore(db_path) as store,
        pytest.raises(StoreError, match="FOREIGN KEY"),
        store.writing() as tx,
    ):
        tx.insert_order(NewOrder(sku="SKU-X", warehouse_id="WH-01", quantity=1), now=now)


def test_a_closed_store_refuses_new_transactions(db_path: Path) -> None:
    store = SqliteStore(db_path)
    store.close()
    with pytest.raises(StoreError, match="closed"), store.reading():
        pass
