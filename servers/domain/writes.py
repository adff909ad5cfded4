"""Writes: each in one store write transaction that re-reads what it decides on, audited
whether it is accepted or refused (a refusal raises `Refused` after its audit entry commits)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

from pydantic import JsonValue, ValidationError

from servers.domain.base import (
    CANCEL,
    CREATE,
    _audited,
    _live_level,
    _unknown_order,
    check_quantity,
)
from servers.domain.policy import policy_cap, policy_quantity
from servers.errors import InvalidArgument, NotLow, Refused
from servers.models import BatchItem, CancelResult, ReplenishmentRequest, ReplenishmentResult
from store.models import JsonObject, NewOrder, Order, StockLevel
from store.protocol import Store, StoreReader, StoreWriter

__all__ = [
    "ORDER_CANCELLED",
    "ORDER_CREATED",
    "cancel_order",
    "create_replenishment",
    "create_replenishments",
    "live_refusal",
    "not_low",
    "order_key",
]


def order_key(
    given: str | None, *, run_id: str | None, warehouse_id: str, sku: str, batch: bool
) -> str | None:
    """The idempotency key one order is written under. The caller's own key (a batch's gets
    `:SKU` appended per SKU); without one, a call made within a run is keyed by run,
    warehouse and SKU, so a run executed again under the same id (a job retried after its
    worker died) gets its orders back instead of ordering twice."""
    if given is not None:
        return f"{given}:{sku}" if batch else given
    return None if run_id is None else f"{run_id}:{warehouse_id}:{sku}"


def create_replenishment(
    store: Store,
    request: ReplenishmentRequest,
    *,
    max_quantity: int,
    now: datetime,
    authorise: Callable[[StoreWriter], object] | None = None,
    actor: str | None = None,
) -> ReplenishmentResult:
    """Create a replenishment order if live stock is low now (audited under `actor`).

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
        refusal = not_low(request, live)
        if refusal is not None:
            raise refusal
        quantity = request.quantity
        if quantity is None:
            quantity = min(policy_quantity(live), policy_cap(max_quantity, request.at_most))
        order = tx.insert_order(
            NewOrder.model_validate(
                request.model_copy(update={"quantity": quantity}), from_attributes=True
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
        tx.append_event(ORDER_CREATED, {"order": order.model_dump(mode="json")}, now=now)
        reason = (
            f"created {order.id} for {order.quantity}{how}: {_numbers(live)}{_observed(request)}"
        )
        return ReplenishmentResult(order=order, created=True, live=live), reason, order.id

    arguments = request.model_dump(mode="json", exclude={"run_id"}, exclude_none=True)
    return _audited(store, CREATE, arguments, request.run_id, now, decide, actor=actor)


ORDER_CREATED = "order.created"
ORDER_CANCELLED = "order.cancelled"
"""The events an order's life writes (for webhooks), in the transaction of the change itself,
whoever wrote it and whatever the approval mode: an approved proposal's write and a direct one
alike."""


def _numbers(live: StockLevel) -> str:
    return (
        f"on_hand {live.on_hand} + on_order {live.on_order} "
        f"{'<' if live.needs_reorder else '>='} reorder_point {live.reorder_point}"
    )


def not_low(request: ReplenishmentRequest, live: StockLevel) -> NotLow | None:
    """The refusal of ordering `request` when its live numbers are not low (quoting them and
    what the screenshot showed); None when the SKU is low."""
    if live.needs_reorder:
        return None
    return NotLow(
        f"{request.sku} in {request.warehouse_id} is not low now: {_numbers(live)}"
        f"{_observed(request)}",
        code="not_low",
        details={"live": live.model_dump(mode="json"), **_observed_details(request)},
    )


def live_refusal(tx: StoreReader, tool: str, arguments: Mapping[str, JsonValue]) -> Refused | None:
    """What the live re-check would refuse now of `tool` run with `arguments`, read inside
    `tx`: for a replenishment of one SKU, `NotLow` with the live numbers or `InvalidArgument`
    when the SKU is not stocked there; None when it would pass (and for any other write)."""
    if tool != CREATE:
        return None
    try:
        request = ReplenishmentRequest.model_validate(dict(arguments))
    except ValidationError:
        return None  # not one SKU's order: the write's own checks say what is wrong
    try:
        live = _live_level(tx, request.sku, request.warehouse_id)
    except Refused as exc:
        return exc
    return not_low(request, live)


def create_replenishments(
    store: Store,
    requests: Sequence[ReplenishmentRequest],
    *,
    max_quantity: int,
    now: datetime,
    actor: str | None = None,
) -> list[BatchItem]:
    """Several SKUs of one warehouse, each re-checked and written in its own transaction: one
    refusal stops only its own SKU."""
    items: list[BatchItem] = []
    for request in requests:
        try:
            result = create_replenishment(
                store, request, max_quantity=max_quantity, now=now, actor=actor
            )
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
    actor: str | None = None,
    reason: str | None = None,
) -> CancelResult:
    """Cancel an open order, with the canceller's `reason` (audited, and in the event);
    cancelling a cancelled order changes nothing and says so. `authorise` runs first in the
    same transaction and refuses by raising."""

    def decide(tx: StoreWriter) -> tuple[CancelResult, str, str | None]:
        if authorise is not None:
            authorise(tx)
        order = tx.order(order_id)
        if order is None:
            raise _unknown_order(tx, order_id)
        if order.status == "cancelled":
            return CancelResult(order=order, cancelled=False), "already cancelled", order.id
        cancelled = tx.cancel_order(order.id, now=now)
        body: JsonObject = {"order": cancelled.model_dump(mode="json"), "reason": reason}
        tx.append_event(ORDER_CANCELLED, body, now=now)
        said = f"cancelled: {reason}" if reason else "cancelled"
        return CancelResult(order=cancelled, cancelled=True), said, order.id

    return _audited(store, CANCEL, {"order_id": order_id}, run_id, now, decide, actor=actor)


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


def _observed_details(request: ReplenishmentRequest) -> JsonObject:
    details: JsonObject = {}
    if request.observed_on_hand is not None:
        details["observed_on_hand"] = request.observed_on_hand
    if request.observed_at is not None:
        details["observed_at"] = request.observed_at.isoformat()
    return details
