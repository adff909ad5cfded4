"""Column profiles: a confirmed column mapping, keyed by a screen's header signature.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from store.schema import Document, Stamp

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "column_profiles",
        sa.Column("signature", sa.Text, primary_key=True),
        sa.Column("name", sa.Text, nullable=False, server_default=""),
        sa.Column("headers", Document, nullable=False),
        sa.Column("mapping", Document, nullable=False),
        sa.Column("created_at", Stamp, nullable=False),
        sa.Column("updated_at", Stamp, nullable=False),
        sa.Column("created_by", sa.Text),
    )
