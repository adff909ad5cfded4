"""Events and their webhook deliveries: what happened (a proposal created or decided, a run
finished) is written in the same transaction as the change itself, so nothing that happened
goes unannounced; each delivery to a receiver and each attempt at it is logged.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from store.schema import Document, Stamp, identity

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "events",
        identity("number"),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("body", Document, nullable=False),
        sa.Column("created_at", Stamp, nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "webhook_deliveries",
        identity("number"),
        sa.Column("event", sa.BigInteger, sa.ForeignKey("events.number"), nullable=False),
        sa.Column("url", sa.Text, nullable=False),
        sa.Column("status", sa.Text, sa.CheckConstraint("status IN ('pending', 'delivered')"),
                  nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("last_error", sa.Text),
        sa.Column("next_at", Stamp, nullable=False),
        sa.Column("claimed_until", Stamp),
        sa.Column("delivered_at", Stamp),
        sa.UniqueConstraint("event", "url", name="webhook_deliveries_once"),
        sqlite_autoincrement=True,
    )  # fmt: skip
    op.create_index("webhook_deliveries_due", "webhook_deliveries", ["status", "next_at"])
    op.create_table(
        "webhook_attempts",
        identity("number"),
        sa.Column("delivery", sa.BigInteger, sa.ForeignKey("webhook_deliveries.number"),
                  nullable=False),
        sa.Column("at", Stamp, nullable=False),
        sa.Column("status_code", sa.Integer),
        sa.Column("error", sa.Text),
        sqlite_autoincrement=True,
    )  # fmt: skip
