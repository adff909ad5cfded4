"""The rules behind the tools, as plain functions over a `Store`.

Reads check their ids and return live numbers. Writes run in one store write transaction
that re-reads everything they decide on, and leave an audit entry whether they are
accepted or refused; a refusal raises `Refused` after its audit entry is committed.
`now` is passed in so that callers (and tests) own the clock.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, TypeVar

from servers.errors import InvalidArgument, NotLow, Refused
from servers.lookup import (
    check_not_swapped,
    check_sku,
    check_warehouse_id,
    listing,
    looks_like,
)
from servers.models import (
    AuditEntry,
    BatchItem,
    CancelResult,
    ImportSummary,
    ItemReport,
    NewAuditEntry,
    NewOrder,
    NotFound,
    Order,
    OrderList,
    OrderQuery,
    PlannedOrder,
    ReplenishmentRequest,
    ReplenishmentResult,
    StockLevel,
    StockRecord,
    StockReport,
    Warehouse,
    WarehouseList,
    WarehouseSummary,
    parse_order_id,
)
from servers.store import Store, StoreReader, StoreWriter

__all__ = [
    "CANCEL",
    "CREATE",
    "IMPORT",
    "POLICY",
    "SEED",
    "audit_log",
    "cancel_order",
    "check_quantity",
    "create_replenishment",
    "create_replenishments",
    "get_item",
    "get_order",
    "get_warehouse",
    "import_records",
    "list_orders",
    "list_warehouses",
    "live_level",
    "planned_order",
    "policy_cap",
    "policy_quantity",
    "policy_units",
    "query_stock",
    "seed",
]

logger = logging.getLogger(__name__)

# Audit actions: the tool or command that attempted the write.
CREATE = "orders_create_replenishment"
CANCEL = "orders_cancel"
IMPORT = "store import"
SEED = "store seed"

T = TypeVar("T")


# ---- reads


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


def planned_order(
    store: Store,
    arguments: Mapping[str, Any],
    *,
    at_proposal: Mapping[str, Any] | None,
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
    cap = policy_cap(max_quantity, None if at_most is None else int(at_most))
    if given is not None:
        return PlannedOrder(
            sku=sku,
            warehouse_id=warehouse_id,
            name=level.name if level else None,
            quantity=int(given) if level is not None and level.needs_reorder else None,
            quantity_source="task",
            rule=f"{given} units, as the task said",
            live=level,
        )
    before = then_total = None
    if at_proposal and {"on_hand", "on_order", "reorder_point"} <= set(at_proposal):
        then_total = int(at_proposal["on_hand"]) + int(at_proposal["on_order"])
        point = int(at_proposal["reorder_point"])
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


# ---- writes


POLICY = (
    "without a quantity, the server orders enough to bring on_hand + on_order up to twice "
    "the reorder point, at least 1 unit (and at most at_most units, when given)"
)
"""The quantity policy, as the tool describes it."""


def policy_quantity(level: StockLevel) -> int:
    """The replenishment quantity when the caller gives none: projected stock (on hand plus on
    order) up to twice the reorder point, at least one unit."""
    return policy_units(level.on_hand + level.on_order, level.reorder_point)


def policy_units(projected: int, reorder_point: int) -> int:
    """`policy_quantity` of projected stock (on hand plus on order) and a reorder point."""
    return max(1, 2 * reorder_point - projected)


def policy_cap(max_quantity: int, at_most: int | None) -> int:
    """The most a policy quantity may come to: the per-order limit, and `at_most` if given."""
    return min(max_quantity, at_most) if at_most is not None else max_quantity


def create_replenishment(
    store: Store,
    request: ReplenishmentRequest,
    *,
    max_quantity: int,
    now: datetime,
    authorise: Callable[[StoreWriter], object] | None = None,
) -> ReplenishmentResult:
    """Create a replenishment order if live stock is low now.

    Inside one write transaction: hold the stock row and the key (`lock_stock`), check the
    ids, the quantity and the idempotency key, re-read live stock with open orders counted
    in `on_order`, and refuse unless
    `on_hand + on_order < reorder_point`. Without a quantity, `policy_quantity` of the live
    numbers read here decides it. A second concurrent request for the same SKU and warehouse
    waits for the first to commit, then sees its order in `on_order`. `authorise` runs first
    in the same transaction (an approved proposal's check) and refuses by raising.
    """

    def decide(tx: StoreWriter) -> tuple[ReplenishmentResult, str, str | None]:
        tx.lock_stock(request.sku, request.warehouse_id, idempotency_key=request.idempotency_key)
        if authorise is not None:
            authorise(tx)
        live = _live_level(tx, request.sku, request.warehouse_id)
        if request.quantity is not None:
            check_quantity(request.quantity, max_quantity)
        if request.at_most is not None:
            _check_at_most(request)
        if request.idempotency_key is not None:
            earlier = tx.order_by_key(request.idempotency_key)
            if earlier is not None:
                _check_same_order(earlier, request)
                reason = f"idempotency key {request.idempotency_key!r} returned {earlier.id}"
                return (
                    ReplenishmentResult(order=earlier, created=False, live=live),
                    reason,
                    earlier.id,
                )
        numbers = (
            f"on_hand {live.on_hand} + on_order {live.on_order} "
            f"{'<' if live.needs_reorder else '>='} reorder_point {live.reorder_point}"
        )
        if not live.needs_reorder:
            raise NotLow(
                f"{request.sku} in {request.warehouse_id} is not low now: {numbers}"
                f"{_observed(request)}",
                code="not_low",
                details={"live": live.model_dump(mode="json"), **_observed_details(request)},
            )
        quantity = request.quantity
        if quantity is None:
            quantity = min(policy_quantity(live), policy_cap(max_quantity, request.at_most))
        order = tx.insert_order(
            NewOrder(
                sku=request.sku,
                warehouse_id=request.warehouse_id,
                quantity=quantity,
                idempotency_key=request.idempotency_key,
                run_id=request.run_id,
                observed_on_hand=request.observed_on_hand,
                observed_at=request.observed_at,
            ),
            now=now,
        )
        how = (
            ""
            if request.quantity is not None
            else f" (policy, at most {request.at_most})"
            if request.at_most is not None
            else " (policy)"
        )
        reason = f"created {order.id} for {order.quantity}{how}: {numbers}{_observed(request)}"
        return ReplenishmentResult(order=order, created=True, live=live), reason, order.id

    arguments = request.model_dump(mode="json", exclude={"run_id"}, exclude_none=True)
    return _audited(store, CREATE, arguments, request.run_id, now, decide)


def create_replenishments(
    store: Store,
    requests: Sequence[ReplenishmentRequest],
    *,
    max_quantity: int,
    now: datetime,
) -> list[BatchItem]:
    """Several SKUs of one warehouse, each re-checked and written in its own transaction: one
    refusal stops only its own SKU."""
    items: list[BatchItem] = []
    for request in requests:
        try:
            result = create_replenishment(store, request, max_quantity=max_quantity, now=now)
        except Refused as exc:
            items.append(BatchItem(sku=request.sku, refused=exc.as_dict()))
        else:
            items.append(
                BatchItem(
                    sku=request.sku, created=result.created, order=result.order, live=result.live
                )
            )
    return items


def cancel_order(
    store: Store,
    order_id: str,
    *,
    now: datetime,
    run_id: str | None = None,
    authorise: Callable[[StoreWriter], object] | None = None,
) -> CancelResult:
    """Cancel an open order; cancelling a cancelled order changes nothing and says so.
    `authorise` runs first in the same transaction and refuses by raising."""

    def decide(tx: StoreWriter) -> tuple[CancelResult, str, str | None]:
        if authorise is not None:
            authorise(tx)
        order = tx.order(order_id)
        if order is None:
            raise _unknown_order(tx, order_id)
        if order.status == "cancelled":
            return CancelResult(order=order, cancelled=False), "already cancelled", order.id
        cancelled = tx.cancel_order(order.id, now=now)
        return CancelResult(order=cancelled, cancelled=True), "cancelled", order.id

    return _audited(store, CANCEL, {"order_id": order_id}, run_id, now, decide)


def import_records(
    store: Store, records: Sequence[StockRecord], *, now: datetime, source: str
) -> ImportSummary:
    """Upsert stock rows by SKU and warehouse, creating unknown warehouses, in one write."""
    with store.writing() as tx:
        summary = _put_records(tx, records, now=now)
        tx.append_audit(
            NewAuditEntry(
                at=now,
                action=IMPORT,
                outcome="accepted",
                reason=_describe(summary),
                arguments={"source": source, "rows": len(records)},
            )
        )
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
        tx.append_audit(
            NewAuditEntry(
                at=now,
                action=SEED,
                outcome="accepted",
                reason=_describe(summary),
                arguments={"warehouses": len(warehouses), "rows": len(records)},
            )
        )
    return summary


# ---- helpers


def _audited(
    store: Store,
    action: str,
    arguments: dict[str, Any],
    run_id: str | None,
    now: datetime,
    decide: Callable[[StoreWriter], tuple[T, str, str | None]],
) -> T:
    """Run `decide` in one write transaction and audit its outcome in the same transaction.

    `decide` must check everything before it writes: a refusal commits only its audit entry.
    """
    refusal: Refused | None = None
    with store.writing() as tx:
        try:
            result, reason, order_id = decide(tx)
        except Refused as exc:
            refusal = exc
            entry = NewAuditEntry(
                at=now,
                action=action,
                outcome="refused",
                reason=exc.message,
                arguments=arguments,
                run_id=run_id,
            )
        else:
            entry = NewAuditEntry(
                at=now,
                action=action,
                outcome="accepted",
                reason=reason,
                arguments=arguments,
                order_id=order_id,
                run_id=run_id,
            )
        tx.append_audit(entry)
    if refusal is not None:
        logger.info("%s refused: %s", action, refusal.message)
        raise refusal
    return result


# Id checks look up the one id first and list every id only to explain a miss, so a write
# holding the lock does not read the whole catalogue.


def _check_warehouse(tx: StoreReader, warehouse_id: str) -> None:
    warehouses = [w.warehouse_id for w in tx.warehouses()]
    if warehouse_id not in warehouses:
        check_warehouse_id(warehouse_id, warehouses, tx.skus())


def _check_sku(tx: StoreReader, sku: str, *, warehouse_id: str | None = None) -> None:
    if tx.stock_levels(skus=[sku]):
        return
    nearby = (
        [level.sku for level in tx.stock_levels(warehouse_id=warehouse_id)]
        if warehouse_id is not None
        else []
    )
    check_sku(sku, tx.skus(), [w.warehouse_id for w in tx.warehouses()], nearby=nearby)


def _live_level(tx: StoreReader, sku: str, warehouse_id: str) -> StockLevel:
    """The live stock row of `sku` in `warehouse_id`, or `InvalidArgument` saying what is wrong."""
    levels = tx.stock_levels(warehouse_id=warehouse_id, skus=[sku])
    if levels:
        return levels[0]
    check_not_swapped(sku, warehouse_id, tx.skus(), [w.warehouse_id for w in tx.warehouses()])
    _check_warehouse(tx, warehouse_id)
    _check_sku(tx, sku, warehouse_id=warehouse_id)
    elsewhere = [level.warehouse_id for level in tx.stock_levels(skus=[sku])]
    where = f"it is stocked in {listing(elsewhere)}" if elsewhere else "nor anywhere else"
    raise InvalidArgument(
        f"{sku} is not stocked in {warehouse_id}; {where}",
        code="not_stocked",
        field="warehouse_id",
        details={"valid": elsewhere},
    )


def _not_found(tx: StoreReader, sku: str, warehouse_id: str) -> NotFound:
    try:
        _check_sku(tx, sku, warehouse_id=warehouse_id)
    except InvalidArgument as exc:
        return NotFound(sku=sku, message=exc.message)
    elsewhere = [level.warehouse_id for level in tx.stock_levels(skus=[sku])]
    where = f"stocked in {listing(elsewhere)}" if elsewhere else "not stocked anywhere"
    return NotFound(sku=sku, message=f"{sku} is not stocked in {warehouse_id}; it is {where}")


def check_quantity(quantity: int, max_quantity: int) -> None:
    details = {"minimum": 1, "maximum": max_quantity}
    if quantity < 1:
        raise InvalidArgument(
            f"quantity must be at least 1, got {quantity}",
            code="quantity_out_of_range",
            field="quantity",
            details=details,
        )
    if quantity > max_quantity:
        raise InvalidArgument(
            f"quantity {quantity} is above the limit of {max_quantity} units per order",
            code="quantity_out_of_range",
            field="quantity",
            details=details,
        )


def _check_at_most(request: ReplenishmentRequest) -> None:
    at_most = request.at_most
    if at_most is None:
        return
    if at_most < 1:
        raise InvalidArgument(
            f"at_most must be at least 1, got {at_most}", code="bad_at_most", field="at_most"
        )
    if request.quantity is not None and request.quantity > at_most:
        raise InvalidArgument(
            f"quantity {request.quantity} is more than at_most {at_most}",
            code="bad_at_most",
            field="quantity",
        )


def _check_same_order(earlier: Order, request: ReplenishmentRequest) -> None:
    """A key comes back with its order only for the same SKU, warehouse and quantity (a retry
    without a quantity matches whatever the policy decided the first time)."""
    same = (earlier.sku, earlier.warehouse_id) == (request.sku, request.warehouse_id) and (
        request.quantity is None or earlier.quantity == request.quantity
    )
    if not same:
        raise InvalidArgument(
            f"idempotency key {request.idempotency_key!r} already belongs to {earlier.id} "
            f"({earlier.sku} in {earlier.warehouse_id}, quantity {earlier.quantity}); "
            "use a new key for a different order",
            code="idempotency_key_reused",
            field="idempotency_key",
            details={"order": earlier.model_dump(mode="json")},
        )


def _observed(request: ReplenishmentRequest) -> str:
    on_hand, at = request.observed_on_hand, request.observed_at
    if on_hand is not None and at is not None:
        return f" (the screenshot showed {on_hand} at {at.isoformat()})"
    if on_hand is not None:
        return f" (the screenshot showed {on_hand})"
    if at is not None:
        return f" (the screenshot was taken at {at.isoformat()})"
    return ""


def _observed_details(request: ReplenishmentRequest) -> dict[str, Any]:
    details: dict[str, Any] = {}
    if request.observed_on_hand is not None:
        details["observed_on_hand"] = request.observed_on_hand
    if request.observed_at is not None:
        details["observed_at"] = request.observed_at.isoformat()
    return details


def _unknown_order(tx: StoreReader, order_id: str) -> InvalidArgument:
    open_ids = [o.id for o in tx.orders(OrderQuery(status="open", limit=20))]
    valid = f"open orders: {listing(open_ids)}" if open_ids else "no order is open"
    warehouses = [w.warehouse_id for w in tx.warehouses()]
    skus = tx.skus()
    if parse_order_id(order_id) is None:
        for kind, known in (("a SKU", skus), ("a warehouse id", warehouses)):
            if looks_like(order_id, known, []):
                message = f"{order_id!r} looks like {kind}, not an order id like PO-000042; {valid}"
                return InvalidArgument(
                    message, code="wrong_kind", field="order_id", details={"valid": open_ids}
                )
    return InvalidArgument(
        f"unknown order id {order_id!r}; {valid}",
        code="unknown_order",
        field="order_id",
        details={"valid": open_ids},
    )


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


def _all_orders(tx: StoreReader, query: OrderQuery) -> list[Order]:
    return tx.orders(query.model_copy(update={"limit": 1_000_000}))


def _describe(summary: ImportSummary) -> str:
    parts = [f"{summary.rows} rows ({summary.new_rows} new, {summary.updated_rows} updated)"]
    if summary.new_items:
        parts.append(f"{len(summary.new_items)} new items")
    if summary.new_warehouses:
        parts.append(f"new warehouses {', '.join(summary.new_warehouses)}")
    if summary.cancelled_orders:
        parts.append(f"cancelled open orders {', '.join(summary.cancelled_orders)}")
    return "; ".join(parts)
