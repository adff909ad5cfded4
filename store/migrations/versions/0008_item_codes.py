"""Item codes: the barcodes, part numbers and aliases an item is known by besides its SKU, so a
screen row keyed by any of them resolves to the item.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "item_codes",
        sa.Column("code", sa.Text, primary_key=True),
        sa.Column("sku", sa.Text, sa.ForeignKey("items.sku"), primary_key=True),
        sa.Column("kind", sa.Text,
                  sa.CheckConstraint("kind IN ('barcode', 'part_number', 'alias')"),
                  nullable=False),
    )  # fmt: skip
    op.create_index("item_codes_by_sku", "item_codes", ["sku"])
