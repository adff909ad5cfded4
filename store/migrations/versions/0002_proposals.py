"""Proposals: write calls held for a person to approve.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from store.schema import Document, Stamp, identity

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_STATUS = "status IN ('pending', 'approved', 'denied', 'expired', 'failed')"


def upgrade() -> None:
    op.create_table(
        "proposals",
        identity(),
        sa.Column("run_id", sa.Text),
        sa.Column("tool", sa.Text, nullable=False),
        sa.Column("arguments", Document, nullable=False),
        sa.Column("arguments_sha256", sa.Text, nullable=False),
        sa.Column("observation", Document),
        sa.Column("live", Document),
        sa.Column("status", sa.Text, sa.CheckConstraint(_STATUS), nullable=False),
        sa.Column("created_at", Stamp, nullable=False),
        sa.Column("expires_at", Stamp, nullable=False),
        sa.Column("decided_by", sa.Text),
        sa.Column("decided_at", Stamp),
        sa.Column("reason", sa.Text),
        sa.Column("result", Document),
        sa.Column("order_id", sa.Text),
        sqlite_autoincrement=True,
    )  # fmt: skip
    op.create_index("proposals_by_status", "proposals", ["status", "number"])
    op.create_index("proposals_by_run", "proposals", ["run_id"])
