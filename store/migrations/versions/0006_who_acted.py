"""Who acted: the audit log names the person or key behind each entry (`actor`), and a
proposal names who started the run that proposed it (`requested_by`), so an approval by the
same key can be refused (STOCKSHOT_APPROVAL_SEPARATE).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("audit_log", sa.Column("actor", sa.Text))
    op.add_column("proposals", sa.Column("requested_by", sa.Text))
