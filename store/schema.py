"""The store's tables, once, for every SQL database (SQLAlchemy Core metadata).

Two column types carry what the dialects keep differently:
- `Stamp`: a moment. PostgreSQL keeps it as TIMESTAMPTZ and hands it back in UTC; SQLite keeps
  the ISO 8601 text it was given (offset included) and hands back that moment.
- `Document`: a JSON value. PostgreSQL keeps JSONB; SQLite keeps the canonical text (sorted
  keys, UTF-8 as is).

The migrations (`store.migrations`) build exactly these tables; a test compares them.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from functools import partial
from typing import Any

from pydantic import JsonValue
from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    Dialect,
    ForeignKey,
    ForeignKeyConstraint,
    Identity,
    Index,
    Integer,
    MetaData,
    Table,
    Text,
    UniqueConstraint,
)
from sqlalchemy.schema import SchemaItem
from sqlalchemy.types import TypeDecorator, TypeEngine

__all__ = [
    "APPROVAL_STATUSES",
    "Document",
    "Stamp",
    "audit_log",
    "column_profiles",
    "dumps",
    "events",
    "identity",
    "item_codes",
    "items",
    "metadata",
    "numbered_table",
    "orders",
    "proposals",
    "stock",
    "warehouses",
    "webhook_attempts",
    "webhook_deliveries",
]

dumps = partial(json.dumps, ensure_ascii=False, sort_keys=True, default=str)
"""JSON as the store writes it: sorted keys, UTF-8 as is, anything else as its text."""

APPROVAL_STATUSES = ("pending", "approved", "denied", "expired", "failed")


class Stamp(TypeDecorator[datetime]):
    """A moment: TIMESTAMPTZ on PostgreSQL (read back in UTC), ISO 8601 text on SQLite."""

    impl = Text
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[datetime] | TypeEngine[str]:
        if dialect.name == "postgresql":
            from sqlalchemy.dialects import postgresql  # loaded with that dialect anyway

            return dialect.type_descriptor(postgresql.TIMESTAMP(timezone=True))
        return dialect.type_descriptor(Text())

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | str | None:
        if value is None or dialect.name == "postgresql":
            return value
        return value.isoformat()

    def process_result_value(
        self, value: datetime | str | None, dialect: Dialect
    ) -> datetime | None:
        if value is None:
            return None
        if isinstance(value, datetime):
            return value.astimezone(UTC)
        return datetime.fromisoformat(value)


class Document(TypeDecorator[JsonValue]):
    """A JSON value: JSONB on PostgreSQL, canonical JSON text on SQLite."""

    impl = Text
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "postgresql":
            from sqlalchemy.dialects import postgresql

            return dialect.type_descriptor(postgresql.JSONB(none_as_null=True))
        return dialect.type_descriptor(Text())

    def process_bind_param(self, value: JsonValue, dialect: Dialect) -> JsonValue:
        if value is None or dialect.name == "postgresql":
            return value
        return dumps(value)

    def process_result_value(self, value: JsonValue, dialect: Dialect) -> JsonValue:
        if value is None or dialect.name == "postgresql":
            return value
        if not isinstance(value, str):
            raise TypeError(f"a JSON column on {dialect.name} holds {type(value).__name__}")
        loaded: JsonValue = json.loads(value)
        return loaded


def identity(name: str = "number") -> Column[int]:
    """A table's own row number: an identity on PostgreSQL, AUTOINCREMENT on SQLite (with the
    table's `sqlite_autoincrement=True`, as `numbered_table` gives it). The migrations build
    their tables with it too."""
    return Column(
        name,
        BigInteger().with_variant(Integer(), "sqlite"),
        Identity(always=True),
        primary_key=True,
    )


metadata = MetaData()


def numbered_table(name: str, *items: SchemaItem, number: str = "number") -> Table:
    """A table in `metadata` whose rows are numbered by `identity(number)`, its first column,
    with the `sqlite_autoincrement=True` the identity needs on SQLite."""
    return Table(name, metadata, identity(number), *items, sqlite_autoincrement=True)


warehouses = Table(
    "warehouses",
    metadata,
    Column("warehouse_id", Text, primary_key=True),
    Column("name", Text, nullable=False),
    Column("city", Text, nullable=False, server_default=""),
    Column("aliases", Text, nullable=False, server_default=""),
)

items = Table(
    "items",
    metadata,
    Column("sku", Text, primary_key=True),
    Column("name", Text, nullable=False),
)

item_codes = Table(
    "item_codes",
    metadata,
    Column("code", Text, primary_key=True),
    Column("sku", Text, ForeignKey("items.sku"), primary_key=True),
    Column("kind", Text, CheckConstraint("kind IN ('barcode', 'part_number', 'alias')"),
           nullable=False),
    Index("item_codes_by_sku", "sku"),
)  # fmt: skip
"""Other identifiers of an item (barcodes, part numbers, aliases), kept byte for byte; one code
may name several items (a lookup then answers with every one)."""

stock = Table(
    "stock",
    metadata,
    Column("sku", Text, ForeignKey("items.sku"), primary_key=True),
    Column("warehouse_id", Text, ForeignKey("warehouses.warehouse_id"), primary_key=True),
    Column("on_hand", Integer, CheckConstraint("on_hand >= 0"), nullable=False),
    Column("reorder_point", Integer, CheckConstraint("reorder_point >= 0"), nullable=False),
    Column("on_order", Integer, CheckConstraint("on_order >= 0"), nullable=False,
           server_default="0"),
    Column("updated_at", Stamp, nullable=False),
)  # fmt: skip

orders = numbered_table(
    "orders",
    Column("sku", Text, nullable=False),
    Column("warehouse_id", Text, nullable=False),
    Column("quantity", Integer, CheckConstraint("quantity > 0"), nullable=False),
    Column("status", Text, CheckConstraint("status IN ('open', 'cancelled')"), nullable=False),
    Column("created_at", Stamp, nullable=False),
    Column("cancelled_at", Stamp),
    Column("idempotency_key", Text),
    Column("run_id", Text),
    Column("observed_on_hand", Integer),
    # Kept as the caller wrote it, offset included, on every database.
    Column("observed_at", Text),
    ForeignKeyConstraint(["sku", "warehouse_id"], ["stock.sku", "stock.warehouse_id"]),
    Index("orders_by_idempotency_key", "idempotency_key", unique=True),
    Index("orders_by_stock", "sku", "warehouse_id", "status"),
)

audit_log = numbered_table(
    "audit_log",
    Column("at", Stamp, nullable=False),
    Column("action", Text, nullable=False),
    Column("outcome", Text, CheckConstraint("outcome IN ('accepted', 'refused')"),
           nullable=False),
    Column("reason", Text, nullable=False),
    Column("arguments", Document, nullable=False),
    Column("order_id", Text),
    Column("run_id", Text),
    Column("actor", Text),
    number="id",
)  # fmt: skip

proposals = numbered_table(
    "proposals",
    Column("run_id", Text),
    Column("tool", Text, nullable=False),
    Column("arguments", Document, nullable=False),
    Column("arguments_sha256", Text, nullable=False),
    Column("observation", Document),
    Column("live", Document),
    Column(
        "status",
        Text,
        CheckConstraint("status IN ('pending', 'approved', 'denied', 'expired', 'failed')"),
        nullable=False,
    ),
    Column("created_at", Stamp, nullable=False),
    Column("expires_at", Stamp, nullable=False),
    Column("decided_by", Text),
    Column("decided_at", Stamp),
    Column("reason", Text),
    Column("result", Document),
    Column("order_id", Text),
    Column("requested_by", Text),
    # `store.models.pending_key` while pending, NULL once decided: one pending per key.
    Column("pending_key", Text),
    Index("proposals_by_status", "status", "number"),
    Index("proposals_by_run", "run_id"),
    Index("proposals_pending_once", "pending_key", unique=True),
)

column_profiles = Table(
    "column_profiles",
    metadata,
    Column("signature", Text, primary_key=True),
    Column("name", Text, nullable=False, server_default=""),
    Column("headers", Document, nullable=False),
    Column("mapping", Document, nullable=False),
    Column("created_at", Stamp, nullable=False),
    Column("updated_at", Stamp, nullable=False),
    Column("created_by", Text),
)

events = numbered_table(
    "events",
    Column("name", Text, nullable=False),
    Column("body", Document, nullable=False),
    Column("created_at", Stamp, nullable=False),
)

webhook_deliveries = numbered_table(
    "webhook_deliveries",
    Column("event", BigInteger, ForeignKey("events.number"), nullable=False),
    Column("url", Text, nullable=False),
    Column("status", Text, CheckConstraint("status IN ('pending', 'delivered')"), nullable=False),
    Column("attempts", Integer, nullable=False, server_default="0"),
    Column("last_error", Text),
    Column("next_at", Stamp, nullable=False),
    Column("claimed_until", Stamp),
    Column("delivered_at", Stamp),
    UniqueConstraint("event", "url", name="webhook_deliveries_once"),
    Index("webhook_deliveries_due", "status", "next_at"),
)

webhook_attempts = numbered_table(
    "webhook_attempts",
    Column("delivery", BigInteger, ForeignKey("webhook_deliveries.number"), nullable=False),
    Column("at", Stamp, nullable=False),
    Column("status_code", Integer),
    Column("error", Text),
)
