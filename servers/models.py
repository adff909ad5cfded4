"""The tools' answers and arguments: what a tool call returns as its structured result (a
found item, a stock report, an order batch's outcome) and the replenishment request it reads.
The rows they carry are the store's (`store.models`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from store.models import (
    JsonObject,
    Order,
    StockLevel,
)

__all__ = [
    "BatchItem",
    "CancelResult",
    "Closeness",
    "FindAnswer",
    "FoundItem",
    "FoundItems",
    "ImportSummary",
    "ItemReport",
    "MatchedBy",
    "NotFound",
    "OrderList",
    "ReplenishmentOutput",
    "ReplenishmentRequest",
    "ReplenishmentResult",
    "StockReport",
    "WarehouseList",
    "WarehouseSummary",
]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


MatchedBy = Literal["sku", "barcode", "part_number", "alias", "name"]
Closeness = Literal["exact", "normalised", "near"]
FindAnswer = Literal["one", "several", "none"]


class FoundItem(_Frozen):
    """An item a lookup found, with what matched and how closely."""

    sku: str
    name: str
    matched_by: MatchedBy = Field(description="what of the item matched the query")
    matched: str = Field(description="the item's SKU, code or name that matched, as stored")
    closeness: Closeness = Field(
        description="exact: byte for byte; normalised: equal once case, width, spaces and "
        "punctuation are set aside; near: only similar (a near match, to be confirmed)"
    )


class FoundItems(_Frozen):
    """`inventory_find_items`: the items a query names."""

    query: str
    answer: FindAnswer = Field(
        description="one: the query names one item; several: it matches more than one (the "
        "candidates are listed; pick none of them without asking); none: no item matches"
    )
    items: list[FoundItem] = Field(default_factory=list, description="best first")
    message: str


class NotFound(_Frozen):
    sku: str
    message: str


class StockReport(_Frozen):
    """`inventory_query_stock`: live stock in one warehouse."""

    warehouse_id: str
    as_of: datetime = Field(description="when these live numbers were read")
    items: list[StockLevel]
    not_found: list[NotFound] = Field(
        default_factory=list, description="requested SKUs with no stock row in this warehouse"
    )


class ItemReport(_Frozen):
    """`inventory_get_item`: one SKU in every warehouse that stocks it."""

    sku: str
    name: str
    as_of: datetime
    total_on_hand: int
    warehouses: list[StockLevel]


class WarehouseSummary(_Frozen):
    warehouse_id: str
    name: str
    city: str
    aliases: tuple[str, ...] = ()
    skus: int = Field(description="SKUs stocked here")
    skus_needing_reorder: int


class WarehouseList(_Frozen):
    warehouses: list[WarehouseSummary]


class ReplenishmentRequest(_Frozen):
    """The arguments of `orders_create_replenishment` for one SKU, unchecked. Without a
    `quantity` the server's policy decides it from the live numbers (`domain.policy_quantity`)."""

    sku: str
    warehouse_id: str
    quantity: int | None = None
    at_most: int | None = None
    """The most units the order may be for (the policy's quantity is limited to it)."""
    observed_on_hand: int | None = None
    observed_at: datetime | None = None
    idempotency_key: str | None = None
    run_id: str | None = None


class ReplenishmentResult(_Frozen):
    """`orders_create_replenishment`: the order and the live numbers it was checked against."""

    order: Order
    created: bool = Field(description="false when the idempotency key returned an earlier order")
    live: StockLevel = Field(description="live stock read inside the write, before this order")


class BatchItem(_Frozen):
    """One SKU of a call that orders several: its order, or why it was refused."""

    sku: str
    created: bool | None = Field(default=None, description="false: an earlier order came back")
    order: Order | None = None
    live: StockLevel | None = None
    refused: JsonObject | None = Field(
        default=None, description="error, field, message and details, as a single call says them"
    )


class QueuedProposal(_Frozen):
    """A write held for a person's decision instead of running (manual approval)."""

    proposal_id: str = Field(description="like AP-000001")
    tool: str
    arguments: JsonObject = Field(description="exactly the arguments that run on approval")
    expires_at: datetime
    waiting_since: datetime | None = Field(
        default=None,
        description="set when the same write was already waiting for approval: since when "
        "(this call got that proposal back, not a new one)",
    )


class PlannedOrder(_Frozen):
    """What approving a replenishment proposal would order now, and why that many."""

    sku: str
    warehouse_id: str
    name: str | None = Field(default=None, description="the item's name in the catalogue")
    quantity: int | None = Field(
        description="units an approval now would order; None when the SKU is not low now "
        "(an approval would be refused by the live re-check)"
    )
    quantity_source: Literal["task", "policy"]
    rule: str = Field(description="how the quantity comes about, in words and numbers")
    quantity_at_proposal: int | None = Field(
        default=None, description="the policy's quantity from the live numbers at proposal time"
    )
    change: str | None = Field(
        default=None, description="how and why the quantity changed since the proposal"
    )
    live: StockLevel | None = Field(default=None, description="the live numbers now")


class ReplenishmentOutput(_Frozen):
    """What `orders_create_replenishment` returns: one SKU's `order`, `created` and `live`, or,
    for several SKUs of one warehouse, one entry per SKU in `results`; under manual approval,
    the proposals it became (`queued`, one per SKU) and a `message` saying so."""

    order: Order | None = None
    created: bool | None = None
    live: StockLevel | None = None
    warehouse_id: str | None = None
    results: list[BatchItem] | None = None
    queued: list[QueuedProposal] | None = None
    message: str | None = None


class OrderList(_Frozen):
    orders: list[Order]


class CancelResult(_Frozen):
    order: Order
    cancelled: bool = Field(description="false when the order was already cancelled")


class CancelOutput(_Frozen):
    """What `orders_cancel` returns: the order and whether this call cancelled it, or, under
    manual approval, the proposal it became (`queued`) and a `message` saying so."""

    order: Order | None = None
    cancelled: bool | None = None
    queued: list[QueuedProposal] | None = None
    message: str | None = None


class ImportSummary(_Frozen):
    rows: int
    new_rows: int
    updated_rows: int
    new_items: list[str]
    new_warehouses: list[str]
    cancelled_orders: list[str] = Field(default_factory=list)
