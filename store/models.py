"""The rows as the store keeps and reads them, and the ids it hands out.

`on_order` has two meanings, kept apart by name: a `StockRecord` holds what is on order
outside stockshot (the imported column); a `StockLevel` is the live view, that value plus
the quantity of every open replenishment order created here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

__all__ = [
    "APPROVAL_STATUSES",
    "CODE_KINDS",
    "ApprovalStatus",
    "Attempt",
    "AuditEntry",
    "CodeKind",
    "Delivery",
    "DeliveryRecord",
    "Item",
    "ItemCode",
    "JsonObject",
    "NewAuditEntry",
    "NewOrder",
    "NewProposal",
    "Order",
    "OrderQuery",
    "OrderStatus",
    "Outcome",
    "Proposal",
    "ProposalQuery",
    "StockLevel",
    "StockRecord",
    "Warehouse",
    "format_order_id",
    "format_proposal_id",
    "parse_order_id",
    "parse_proposal_id",
    "pending_key",
]

JsonObject = dict[str, JsonValue]
"""An object as JSON carries it: tool arguments, results, event bodies."""

OrderStatus = Literal["open", "cancelled"]
Outcome = Literal["accepted", "refused"]
ApprovalStatus = Literal["pending", "approved", "denied", "expired", "failed"]
APPROVAL_STATUSES: tuple[ApprovalStatus, ...] = (
    "pending",
    "approved",
    "denied",
    "expired",
    "failed",
)

_ORDER_ID = re.compile(r"PO-(\d{1,12})", re.IGNORECASE)


def format_order_id(number: int) -> str:
    return f"PO-{number:06d}"


def parse_order_id(order_id: str) -> int | None:
    """`PO-000042` (or `po-42`) → 42; anything else → None."""
    match = _ORDER_ID.fullmatch(order_id.strip())
    return int(match.group(1)) if match else None


_PROPOSAL_ID = re.compile(r"AP-(\d{1,12})", re.IGNORECASE)


def format_proposal_id(number: int) -> str:
    return f"AP-{number:06d}"


def parse_proposal_id(proposal_id: str) -> int | None:
    """`AP-000001` (or `ap-1`) → 1; anything else → None."""
    match = _PROPOSAL_ID.fullmatch(proposal_id.strip())
    return int(match.group(1)) if match else None


PENDING_TARGETS = ("warehouse_id", "sku", "order_id")
"""The arguments that name what a write changes: a stock row (warehouse and SKU) or an order."""


def pending_key(tool: str, arguments: Mapping[str, JsonValue]) -> str | None:
    """What a pending proposal writes to: the tool and the arguments naming its target, like
    `orders_create_replenishment warehouse_id=WH-01 sku=SKU-10232`. At most one proposal per
    key waits for approval; a call naming no single target (None) is not limited."""
    named = [
        f"{name}={value}"
        for name in PENDING_TARGETS
        if isinstance(value := arguments.get(name), str)
    ]
    return " ".join([tool, *named]) if named else None


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class Warehouse(_Frozen):
    warehouse_id: str = Field(description="like WH-01")
    name: str
    city: str = ""
    aliases: tuple[str, ...] = Field(
        default=(), description="other names people give it (北方仓, the north warehouse)"
    )


CodeKind = Literal["barcode", "part_number", "alias"]
CODE_KINDS: tuple[CodeKind, ...] = ("barcode", "part_number", "alias")
"""The other identifiers an item is known by, besides its SKU and its name."""


class ItemCode(_Frozen):
    """An identifier of an item other than its SKU, kept byte for byte as written."""

    kind: CodeKind
    code: str = Field(min_length=1)


class Item(_Frozen):
    """One item of the catalogue: its SKU, its name and its other codes."""

    sku: str
    name: str
    codes: tuple[ItemCode, ...] = ()


class StockRecord(_Frozen):
    """One row of the catalogue as imported and exported."""

    sku: str
    name: str
    warehouse_id: str
    on_hand: int = Field(ge=0)
    reorder_point: int = Field(ge=0)
    on_order: int = Field(ge=0, description="on order outside stockshot")
    codes: tuple[ItemCode, ...] = Field(
        default=(),
        description="the item's barcodes, part numbers and aliases (added, never "
        "removed, by an import)",
    )


class StockLevel(_Frozen):
    """Live stock of one SKU in one warehouse."""

    sku: str
    name: str
    warehouse_id: str
    on_hand: int
    on_order: int = Field(description="on order outside stockshot plus open orders here")
    reorder_point: int
    needs_reorder: bool = Field(description="on_hand + on_order < reorder_point")
    updated_at: datetime = Field(description="when on_hand or reorder_point last changed")

    @classmethod
    def live(
        cls,
        *,
        sku: str,
        name: str,
        warehouse_id: str,
        on_hand: int,
        on_order: int,
        reorder_point: int,
        updated_at: datetime,
    ) -> StockLevel:
        return cls(
            sku=sku,
            name=name,
            warehouse_id=warehouse_id,
            on_hand=on_hand,
            on_order=on_order,
            reorder_point=reorder_point,
            needs_reorder=on_hand + on_order < reorder_point,
            updated_at=updated_at,
        )


class NewOrder(_Frozen):
    sku: str
    warehouse_id: str
    quantity: int = Field(gt=0)
    idempotency_key: str | None = None
    run_id: str | None = None
    observed_on_hand: int | None = None
    observed_at: datetime | None = None


class Order(_Frozen):
    id: str = Field(description="like PO-000042")
    sku: str
    warehouse_id: str
    quantity: int
    status: OrderStatus
    created_at: datetime
    cancelled_at: datetime | None = None
    idempotency_key: str | None = None
    run_id: str | None = None
    observed_on_hand: int | None = None
    observed_at: datetime | None = None


class OrderQuery(_Frozen):
    sku: str | None = None
    warehouse_id: str | None = None
    status: OrderStatus | None = None
    run_id: str | None = None
    created_since: datetime | None = None
    limit: int = Field(default=50, ge=1)


class NewAuditEntry(_Frozen):
    at: datetime
    action: str = Field(description="tool or command name")
    outcome: Outcome
    reason: str
    arguments: JsonObject
    order_id: str | None = None
    run_id: str | None = None
    actor: str | None = Field(
        default=None,
        description="who acted: an API key (api:NAME), a person at a terminal (cli:USER), or "
        "none for a tool call that named no one",
    )


class AuditEntry(NewAuditEntry):
    id: int


class NewProposal(_Frozen):
    """A write call held for a person to approve: exactly what will run, and why."""

    run_id: str | None = None
    tool: str = Field(description="the write tool, like orders_create_replenishment")
    arguments: JsonObject = Field(description="exactly the arguments that will run")
    arguments_sha256: str = Field(description="SHA-256 of the arguments, canonical JSON")
    observation: JsonObject | None = Field(
        default=None,
        description="what the screenshot showed: sku, warehouse_id, on_hand, reorder_point, "
        "captured_at, screen",
    )
    live: JsonObject | None = Field(
        default=None, description="the live numbers the run read for it"
    )
    expires_at: datetime
    requested_by: str | None = Field(
        default=None,
        description="who started the run that proposed it (api:NAME, cli:USER), if known",
    )


class Proposal(NewProposal):
    id: str = Field(description="like AP-000001")
    status: ApprovalStatus
    created_at: datetime
    decided_by: str | None = None
    decided_at: datetime | None = None
    reason: str | None = Field(default=None, description="why it was denied or failed")
    result: JsonObject | None = Field(
        default=None, description="what the write tool answered when it ran"
    )
    order_id: str | None = None


class ProposalQuery(_Frozen):
    status: ApprovalStatus | None = None
    run_id: str | None = None
    order_ids: tuple[str, ...] | None = Field(
        default=None, description="only the proposals whose approval wrote one of these orders"
    )
    limit: int = Field(default=100, ge=1)


class ColumnProfile(_Frozen):
    """How the columns of one screen map onto the inventory schema, confirmed by a person and
    kept by the header signature of that screen's table: the next screenshot of the same
    screen maps the same way."""

    signature: str = Field(description="SHA-256 of the table's normalised headers, in order")
    name: str = Field(default="", description="a name for people, like 'ERP stock page'")
    headers: tuple[str, ...] = Field(description="the headers as the screen shows them")
    mapping: dict[str, str] = Field(
        description="schema field (sku, name, on_hand, reorder_point, warehouse_id) -> the "
        "header of the column that holds it"
    )
    created_at: datetime
    updated_at: datetime
    created_by: str | None = None


class Delivery(_Frozen):
    """One event on its way to one webhook receiver, claimed for sending."""

    number: int
    url: str
    attempts: int = Field(description="attempts made before this one")
    event_number: int
    event: str = Field(
        description="proposal.created, proposal.decided, order.created, order.cancelled or "
        "run.finished"
    )
    body: JsonObject
    created_at: datetime = Field(description="when the event happened")


class DeliveryRecord(_Frozen):
    """A delivery as the log keeps it."""

    number: int
    event_number: int
    event: str
    url: str
    status: Literal["pending", "delivered"]
    attempts: int
    last_error: str | None
    delivered_at: datetime | None


class Attempt(_Frozen):
    """One try at sending a delivery, as the log keeps it."""

    delivery: int
    at: datetime
    status_code: int | None = Field(description="the receiver's HTTP status, if it answered")
    error: str | None = Field(description="why it failed; none when it was delivered")
    delivered: bool
    next_at: datetime = Field(description="when a delivery not delivered is due again")
