"""The arguments of the `orders` tools, as annotated types: what each means and its bounds,
which the tools' input schemas carry to the model."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import Field

from store.models import OrderStatus

__all__ = [
    "AtMostArg",
    "CreatedSinceArg",
    "IdempotencyKeyArg",
    "LimitArg",
    "ObservedAtArg",
    "ObservedOnHandArg",
    "OptionalOrderSkuArg",
    "OptionalSkuArg",
    "OptionalWarehouseArg",
    "QuantityArg",
    "RunIdFilterArg",
    "SkusArg",
    "StatusArg",
]

QuantityArg = Annotated[
    int | None,
    Field(
        description="Units to order, a whole number of at least 1 and at most the per-order "
        "limit given in the tool description, like 200. Leave it out to let the server's "
        "policy decide from the live numbers (projected stock up to twice the reorder point).",
        json_schema_extra={"minimum": 1},
    ),
]
AtMostArg = Annotated[
    int | None,
    Field(
        description="Without a quantity: the most units the policy's quantity may come to, "
        "like 20 (the task said 'at most 20 each'). With a quantity, that quantity must not "
        "exceed it.",
        json_schema_extra={"minimum": 1},
    ),
]
OptionalOrderSkuArg = Annotated[
    str | None,
    Field(
        description="The SKU to order, like SKU-10402; not a warehouse id. Give sku or skus.",
        min_length=1,
        max_length=64,
    ),
]
SkusArg = Annotated[
    list[str] | None,
    Field(
        description='Several SKUs of this one warehouse, like ["SKU-10232", "SKU-10318"]: '
        "each is re-checked and ordered on its own, with a result per SKU. Give sku or skus.",
        max_length=100,
    ),
]
ObservedOnHandArg = Annotated[
    int | None,
    Field(
        description="The on_hand the screenshot showed for this SKU, like 60. Recorded with "
        "the order and quoted when the live re-check refuses.",
    ),
]
ObservedAtArg = Annotated[
    datetime | None,
    Field(
        description="When the screenshot was taken, ISO 8601 with a UTC offset, like "
        "2026-11-27T09:14:52+08:00.",
    ),
]
IdempotencyKeyArg = Annotated[
    str | None,
    Field(
        description="A key unique to this intended order, like run-42-SKU-10402-WH-01. "
        "Resending the same key returns the same order instead of creating a second one; "
        "reuse it when retrying.",
        min_length=1,
        max_length=200,
    ),
]
OptionalSkuArg = Annotated[
    str | None, Field(description="Only orders for this SKU, like SKU-10402.", max_length=64)
]
OptionalWarehouseArg = Annotated[
    str | None,
    Field(description="Only orders for this warehouse id, like WH-01; not a SKU.", max_length=64),
]
StatusArg = Annotated[
    OrderStatus | None, Field(description="Only orders with this status: open or cancelled.")
]
CreatedSinceArg = Annotated[
    datetime | None,
    Field(
        description="Only orders created at or after this time, ISO 8601, "
        "like 2026-11-27T00:00:00Z."
    ),
]
RunIdFilterArg = Annotated[
    str | None,
    Field(description="Only orders created by this caller run id, like run-42.", max_length=200),
]
LimitArg = Annotated[
    int, Field(description="At most this many orders, newest first.", ge=1, le=500)
]
