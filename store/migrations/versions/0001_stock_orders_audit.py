"""Warehouses, items, stock, orders and the audit log.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from store.schema import Document, Stamp, identity

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "warehouses",
        sa.Column("warehouse_id", sa.Text, primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("city", sa.Text, nullable=False, server_default=""),
    )
    op.create_table(
        "items",
        sa.Column("sku", sa.Text, primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
    )
    op.create_table(
        "stock",
        sa.Column("sku", sa.Text, sa.ForeignKey("items.sku"), primary_key=True),
        sa.Column("warehouse_id", sa.Text, sa.ForeignKey("warehouses.warehouse_id"),
                  primary_key=True),
        sa.Column("on_hand", sa.Integer, sa.CheckConstraint("on_hand >= 0"), nullable=False),
        sa.Column("reorder_point", sa.Integer, sa.CheckConstraint("reorder_point >= 0"),
                  nullable=False),
        sa.Column("on_order", sa.Integer, sa.CheckConstraint("on_order >= 0"), nullable=False,
                  server_default="0"),
        sa.Column("updated_at", Stamp, nullable=False),
    )  # fmt: skip
    op.create_table(
        "orders",
        identity("number"),
        sa.Column("sku", sa.Text, nullable=False),
        sa.Column("warehouse_id", sa.Text, nullable=False),
        sa.Column("quantity", sa.Integer, sa.CheckConstraint("quantity > 0"), nullable=False),
        sa.Column("status", sa.Text, sa.CheckConstraint("status IN ('open', 'cancelled')"),
                  nullable=False),
        sa.Column("created_at", Stamp, nullable=False),
        sa.Column("cancelled_at", Stamp),
        sa.Column("idempotency_key", sa.Text),
        sa.Column("run_id", sa.Text),
        sa.Column("observed_on_hand", sa.Integer),
        sa.Column("observed_at", sa.Text),
        sa.ForeignKeyConstraint(["sku", "warehouse_id"], ["stock.sku", "stock.warehouse_id"]),
        sqlite_autoincrement=True,
    )  # fmt: skip
    op.create_index("orders_by_idempotency_key", "orders", ["idempotency_key"], unique=True)
    op.create_index("orders_by_stock", "orders", ["sku", "warehouse_id", "status"])
    op.create_table(
        "audit_log",
        identity("id"),
        sa.Column("at", Stamp, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("outcome", sa.Text, sa.CheckConstraint("outcome IN ('accepted', 'refused')"),
                  nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("arguments", Document, nullable=False),
        sa.Column("order_id", sa.Text),
        sa.Column("run_id", sa.Text),
        sqlite_autoincrement=True,
    )  # fmt: skip
