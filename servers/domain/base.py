"""What every rule shares: the audit actions, the id checks and the audited write."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import TypeVar

from servers.domain.finding import code_owners
from servers.errors import InvalidArgument, Refused
from servers.lookup import (
    check_not_swapped,
    check_sku,
    check_warehouse_id,
    listing,
    looks_like,
)
from servers.models import NotFound
from store.models import (
    JsonObject,
    NewAuditEntry,
    Order,
    OrderQuery,
    Outcome,
    StockLevel,
    parse_order_id,
)
from store.protocol import Store, StoreReader, StoreWriter

__all__ = ["CANCEL", "CREATE", "IMPORT", "SEED", "check_quantity"]

logger = logging.getLogger(__name__)


# Audit actions: the tool or command that attempted the write.
CREATE = "orders_create_replenishment"
CANCEL = "orders_cancel"
IMPORT = "store import"
SEED = "store seed"


T = TypeVar("T")


def _audited(
    store: Store,
    action: str,
    arguments: JsonObject,
    run_id: str | None,
    now: datetime,
    decide: Callable[[StoreWriter], tuple[T, str, str | None]],
    *,
    actor: str | None = None,
) -> T:
    """Run `decide` in one write transaction and audit its outcome (with the `actor` who
    asked, when known) in the same transaction.

    `decide` must check everything before it writes: a refusal commits only its audit entry.
    """
    refusal: Refused | None = None
    outcome: Outcome = "accepted"
    with store.writing() as tx:
        try:
            result, reason, order_id = decide(tx)
        except Refused as exc:
            refusal, outcome, reason, order_id = exc, "refused", exc.message, None
        tx.append_audit(
            NewAuditEntry(
                at=now,
                action=action,
                outcome=outcome,
                reason=reason,
                arguments=arguments,
                order_id=order_id,
                run_id=run_id,
                actor=actor,
            )
        )
    if refusal is not None:
        logger.info("%s refused: %s", action, refusal.message)
        raise refusal
    return result


def _check_warehouse(tx: StoreReader, warehouse_id: str) -> None:
    warehouses = [w.warehouse_id for w in tx.warehouses()]
    if warehouse_id in warehouses:
        return
    owner = code_owners(warehouse_id, tx.items())
    if owner is not None:
        raise InvalidArgument(
            f"{warehouse_id!r} is {owner}, not a warehouse id; warehouses: {listing(warehouses)}",
            code="wrong_kind",
            field="warehouse_id",
            details={"valid": warehouses},
        )
    check_warehouse_id(warehouse_id, warehouses, tx.skus())


def _check_sku(tx: StoreReader, sku: str, *, warehouse_id: str | None = None) -> None:
    if tx.stock_levels(skus=[sku]):
        return
    items = tx.items()
    owner = code_owners(sku, items) if sku not in {item.sku for item in items} else None
    if owner is not None:
        skus = [i.sku for i in items if any(c.code == sku for c in i.codes)]
        raise InvalidArgument(
            f"{sku!r} is {owner}, not a SKU; pass the SKU itself ({', '.join(skus)})",
            code="wrong_kind",
            field="sku",
            details={"suggestions": skus},
        )
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


def _all_orders(tx: StoreReader, query: OrderQuery) -> list[Order]:
    return tx.orders(query.model_copy(update={"limit": 1_000_000}))
