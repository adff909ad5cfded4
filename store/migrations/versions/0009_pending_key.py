"""One pending proposal per write: a pending proposal keeps the key of what it writes to (the
tool, warehouse and SKU, or the order), unique in the store, and frees it once decided. Where an
earlier version left several pending proposals for one write, the oldest keeps waiting and the
others are expired, saying which one waits, and audited.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

from store.models import format_proposal_id, pending_key
from store.schema import Document, Stamp

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

_proposals = sa.table(
    "proposals",
    sa.column("number", sa.Integer),
    sa.column("tool", sa.Text),
    sa.column("arguments", Document),
    sa.column("status", sa.Text),
    sa.column("run_id", sa.Text),
    sa.column("decided_at", Stamp),
    sa.column("reason", sa.Text),
    sa.column("pending_key", sa.Text),
)

_audit = sa.table(
    "audit_log",
    sa.column("at", Stamp),
    sa.column("action", sa.Text),
    sa.column("outcome", sa.Text),
    sa.column("reason", sa.Text),
    sa.column("arguments", Document),
    sa.column("run_id", sa.Text),
)


def upgrade() -> None:
    op.add_column("proposals", sa.Column("pending_key", sa.Text))
    conn = op.get_bind()
    now = datetime.now(UTC).replace(microsecond=0)
    pending = conn.execute(
        sa.select(_proposals.c.number, _proposals.c.tool, _proposals.c.arguments,
                  _proposals.c.run_id)
        .where(_proposals.c.status == "pending")
        .order_by(_proposals.c.number)
    ).all()  # fmt: skip
    waiting: dict[str, int] = {}
    for number, tool, arguments, run_id in pending:
        key = pending_key(tool, arguments)
        if key is None:
            continue
        row = _proposals.c.number == number
        if key not in waiting:
            waiting[key] = number
            conn.execute(sa.update(_proposals).where(row).values(pending_key=key))
            continue
        reason = (
            f"expired on upgrade: {format_proposal_id(waiting[key])} already waits for "
            "approval of the same write"
        )
        conn.execute(
            sa.update(_proposals).where(row).values(status="expired", decided_at=now, reason=reason)
        )
        audited = {"proposal_id": format_proposal_id(number), "tool": tool,
                   "arguments": arguments, "decided_by": None}  # fmt: skip
        conn.execute(
            sa.insert(_audit).values(
                at=now, action="approval expired", outcome="accepted", reason=reason,
                arguments=audited, run_id=run_id,
            )
        )  # fmt: skip
    op.create_index("proposals_pending_once", "proposals", ["pending_key"], unique=True)
