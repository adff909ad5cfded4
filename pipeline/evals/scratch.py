"""Scratch stores: the demo catalogue seeded once per evaluation run into one SQLite file, then
copied for every case and changed as the case says. Tools still reach the store only through
the MCP servers built over it; this module only prepares the file and reads the ledger."""

from __future__ import annotations

import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from pipeline.errors import InputError
from pipeline.evals.cases import StoreChange
from servers import catalog, domain
from servers.errors import Refused
from servers.models import ReplenishmentRequest
from servers.settings import DEFAULT_MAX_ORDER_QUANTITY
from store.models import Order, OrderQuery, StockLevel, StockRecord
from store.protocol import Store
from store.stores import open_store

__all__ = ["PRE_RUN_RUN_ID", "Ledger", "SeededStore", "read_ledger"]

PRE_RUN_RUN_ID = "eval-setup"


@dataclass(frozen=True)
class Ledger:
    """Every order in the store, by id, and the live stock rows asked for."""

    orders: dict[str, Order]
    live: dict[tuple[str, str], StockLevel]


def read_ledger(
    store: Store, keys: Iterable[tuple[str, str]] = (), *, all_stock: bool = False
) -> Ledger:
    """Every order, and the live rows of `keys` (of every row with `all_stock`)."""
    orders = domain.list_orders(store, OrderQuery(limit=500)).orders
    wanted = set(keys)
    live: dict[tuple[str, str], StockLevel] = {}
    if all_stock:
        with store.reading() as tx:
            live = {(lv.sku, lv.warehouse_id): lv for lv in tx.stock_levels()}
    elif wanted:
        with store.reading() as tx:
            for level in tx.stock_levels(skus=sorted({sku for sku, _ in wanted})):
                if (level.sku, level.warehouse_id) in wanted:
                    live[(level.sku, level.warehouse_id)] = level
    return Ledger(orders={o.id: o for o in orders}, live=live)


class SeededStore:
    """One seeded SQLite file in `directory`; `scratch()` hands out changed copies of it."""

    def __init__(
        self,
        directory: Path,
        *,
        now: datetime,
        max_order_quantity: int = DEFAULT_MAX_ORDER_QUANTITY,
    ) -> None:
        self.directory = directory
        self.now = now
        self.max_order_quantity = max_order_quantity
        self.path = directory / "seeded.db"
        self._copies = 0
        directory.mkdir(parents=True, exist_ok=True)
        with open_store(str(self.path)) as store:
            warehouses, records = catalog.seed_data()
            domain.seed(store, warehouses, records, now=now - timedelta(days=7))
        self._check_single_file()

    def _check_single_file(self) -> None:
        for suffix in ("-wal", "-shm"):
            leftover = self.path.with_name(self.path.name + suffix)
            if leftover.exists() and leftover.stat().st_size:
                raise InputError(f"the seeded store left {leftover.name} behind after closing")

    def scratch(self, label: str, changes: Sequence[StoreChange] = ()) -> Path:
        """A fresh copy of the seeded store with `changes` applied, made an hour before `now`."""
        self._copies += 1
        path = self.directory / f"{self._copies:05d}-{label}.db"
        shutil.copyfile(self.path, path)
        when = self.now - timedelta(hours=1)
        for change in changes:
            with open_store(str(path)) as store:
                if change.op == "remove":
                    _remove(store, change)
                else:
                    _apply(store, change, when, self.max_order_quantity)
        return path

    @staticmethod
    def discard(path: Path) -> None:
        for suffix in ("", "-wal", "-shm"):
            path.with_name(path.name + suffix).unlink(missing_ok=True)


def _apply(store: Store, change: StoreChange, when: datetime, max_quantity: int) -> None:
    assert change.warehouse_id is not None
    if change.op == "set":
        with store.reading() as tx:
            current = next(
                (
                    r
                    for r in tx.stock_records()
                    if (r.sku, r.warehouse_id) == (change.sku, change.warehouse_id)
                ),
                None,
            )
        if current is None:
            raise InputError(f"set: {change.sku} is not stocked in {change.warehouse_id}")
        updated = StockRecord(
            sku=current.sku,
            name=current.name,
            warehouse_id=current.warehouse_id,
            on_hand=current.on_hand if change.on_hand is None else change.on_hand,
            on_order=current.on_order if change.on_order is None else change.on_order,
            reorder_point=(
                current.reorder_point if change.reorder_point is None else change.reorder_point
            ),
        )
        domain.import_records(store, [updated], now=when, source="evaluation case")
        return
    assert change.quantity is not None
    request = ReplenishmentRequest(
        sku=change.sku,
        warehouse_id=change.warehouse_id,
        quantity=change.quantity,
        idempotency_key=f"{PRE_RUN_RUN_ID}-{change.sku}-{change.warehouse_id}",
        run_id=PRE_RUN_RUN_ID,
    )
    try:
        domain.create_replenishment(store, request, max_quantity=max_quantity, now=when)
    except Refused as exc:
        raise InputError(f"open_order {change.sku} in {change.warehouse_id}: {exc}") from None


def _remove(store: Store, change: StoreChange) -> None:
    with store.writing() as tx:
        if not tx.remove_stock(change.sku, change.warehouse_id):
            where = f" in {change.warehouse_id}" if change.warehouse_id else ""
            raise InputError(f"remove: {change.sku} is not stocked{where}")
