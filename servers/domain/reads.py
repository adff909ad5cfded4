"""Reads: ids checked, live numbers returned (open orders counted in `on_order`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from pydantic import JsonValue

from servers.domain.base import (
    _check_sku,
    _check_warehouse,
    _live_level,
    _not_found,
    _unknown_order,
)
from servers.domain.policy import policy_cap, policy_quantity, policy_units
from servers.errors import InvalidArgument, Refused
from servers.models import (
    ItemReport,
    OrderList,
    PlannedOrder,
    StockReport,
    WarehouseList,
    WarehouseSummary,
)
from store.models import AuditEntry, Order, OrderQuery, StockLevel, Warehouse
from store.protocol import Store

__all__ = [
    "audit_log",
    "get_item",
    "get_order",
    "get_warehouse",
    "list_orders",
    "list_warehouses",
    "live_level",
    "planned_order",
    "query_stock",
]


def query_stock(
    store: Store, warehouse_id: str, skus: Sequence[str] | None = None, *, now: datetime
) -> StockReport:
    """Live stock in one warehouse: every SKU, or the ones asked for."""
    with store.reading() as tx:
        _check_warehouse(tx, warehouse_id)
        wanted = None if skus is None else list(dict.fromkeys(s.strip() for s in skus))
        items = tx.stock_levels(warehouse_id=warehouse_id, skus=wanted)
        not_found = []
        if wanted is not None:
            found = {level.sku for level in items}
            missing = [s for s in wanted if s not in found]
            not_found = [_not_found(tx, sku, warehouse_id) for sku in missing]
    return StockReport(warehouse_id=warehouse_id, as_of=now, items=items, not_found=not_found)


def live_level(store: Store, sku: str, warehouse_id: str) -> StockLevel:
    """The live stock row of `sku` in `warehouse_id`, or `InvalidArgument` saying what is wrong
    with the ids."""
    with store.reading() as tx:
        return _live_level(tx, sku, warehouse_id)


def _whole(value: JsonValue) -> int:
    """A count from tool arguments or recorded live numbers (their schemas made it a number)."""
    if isinstance(value, int | float | str):
        return int(value)
    raise TypeError(f"not a count: {value!r}")


def planned_order(
    store: Store,
    arguments: Mapping[str, JsonValue],
    *,
    at_proposal: Mapping[str, JsonValue] | None,
    max_quantity: int,
) -> PlannedOrder:
    """What a create call with `arguments` (one SKU) would order now: the task's quantity,
    or the policy's from the live numbers, with the policy's quantity at proposal time (from
    `at_proposal`, the live numbers read then) and what changed it."""
    sku, warehouse_id = str(arguments["sku"]), str(arguments["warehouse_id"])
    given, at_most = arguments.get("quantity"), arguments.get("at_most")
    try:
        level: StockLevel | None = live_level(store, sku, warehouse_id)
    except Refused:
        level = None
    cap = policy_cap(max_quantity, None if at_most is None else _whole(at_most))
    if given is not None:
        return PlannedOrder(
            sku=sku,
            warehouse_id=warehouse_id,
            name=level.name if level else None,
            quantity=_whole(given) if level is not None and level.needs_reorder else None,
            quantity_source="task",
            rule=f"{given} units, as the task said",
            live=level,
        )
    before = then_total = None
    if at_proposal and {"on_hand", "on_order", "reorder_point"} <= set(at_proposal):
        then_total = _whole(at_proposal["on_hand"]) + _whole(at_proposal["on_order"])
        point = _whole(at_proposal["reorder_point"])
        before = min(cap, policy_units(then_total, point)) if then_total < point else None
    if level is None:
        return PlannedOrder(
            sku=sku,
            warehouse_id=warehouse_id,
            quantity=None,
            quantity_source="policy",
            rule=f"{sku} is not stocked in {warehouse_id} now",
            quantity_at_proposal=before,
        )
    stock = level.on_hand + level.on_order
    wanted = policy_quantity(level)
    quantity = min(cap, wanted) if level.needs_reorder else None
    rule = (
        f"up to twice the reorder point: 2 x {level.reorder_point} - ({level.on_hand} on hand "
        f"+ {level.on_order} on order) = {wanted}"
        + (f", at most {cap}" if quantity is not None and quantity < wanted else "")
        if level.needs_reorder
        else f"not low now: {stock} on hand and on order >= reorder point {level.reorder_point}"
    )
    change = None
    if before is not None and then_total is not None and quantity != before:
        moved = stock - then_total
        why = (
            f"{moved} arrived or were ordered since the proposal"
            if moved > 0
            else f"{-moved} left since the proposal"
            if moved < 0
            else "the reorder point changed since the proposal"
        )
        change = f"quantity {before} -> {quantity if quantity is not None else 'none'}: {why}"
    return PlannedOrder(
        sku=sku,
        warehouse_id=warehouse_id,
        name=level.name,
        quantity=quantity,
        quantity_source="policy",
        rule=rule,
        quantity_at_proposal=before,
        change=change,
        live=level,
    )


def get_order(store: Store, order_id: str) -> Order:
    """One order, or `InvalidArgument` saying what is wrong with the id."""
    with store.reading() as tx:
        order = tx.order(order_id)
        if order is None:
            raise _unknown_order(tx, order_id)
        return order


def get_item(store: Store, sku: str, *, now: datetime) -> ItemReport:
    """One SKU in every warehouse that stocks it."""
    with store.reading() as tx:
        _check_sku(tx, sku)
        levels = tx.stock_levels(skus=[sku])
    if not levels:
        raise InvalidArgument(
            f"{sku} is known but not stocked in any warehouse",
            code="not_stocked",
            field="sku",
        )
    return ItemReport(
        sku=sku,
        name=levels[0].name,
        as_of=now,
        total_on_hand=sum(level.on_hand for level in levels),
        warehouses=levels,
    )


def list_warehouses(store: Store) -> WarehouseList:
    with store.reading() as tx:
        warehouses = tx.warehouses()
        levels = tx.stock_levels()
    return WarehouseList(warehouses=[_summary(w, levels) for w in warehouses])


def get_warehouse(store: Store, warehouse_id: str) -> WarehouseSummary:
    with store.reading() as tx:
        _check_warehouse(tx, warehouse_id)
        warehouse = next(w for w in tx.warehouses() if w.warehouse_id == warehouse_id)
        levels = tx.stock_levels(warehouse_id=warehouse_id)
    return _summary(warehouse, levels)


def list_orders(store: Store, query: OrderQuery) -> OrderList:
    """Orders matching the filters, newest first; a filter id that does not exist is refused."""
    with store.reading() as tx:
        if query.warehouse_id is not None:
            _check_warehouse(tx, query.warehouse_id)
        if query.sku is not None:
            _check_sku(tx, query.sku)
        return OrderList(orders=tx.orders(query))


def audit_log(store: Store, *, limit: int = 50) -> list[AuditEntry]:
    with store.reading() as tx:
        return tx.audit(limit=limit)


def _summary(warehouse: Warehouse, levels: Sequence[StockLevel]) -> WarehouseSummary:
    here = [level for level in levels if level.warehouse_id == warehouse.warehouse_id]
    return WarehouseSummary(
        warehouse_id=warehouse.warehouse_id,
        name=warehouse.name,
        city=warehouse.city,
        aliases=warehouse.aliases,
        skus=len(here),
        skus_needing_reorder=sum(level.needs_reorder for level in here),
    )
