"""Warehouse aliases: the other names a screen or a request may use for a warehouse.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("warehouses", sa.Column("aliases", sa.Text, nullable=False, server_default=""))
