"""The tables the processes of a PostgreSQL deployment share (`store.jobs`): the
job queue's own schema (Procrastinate's, at the release pyproject pins), the ingest cache
behind each process's memory, uploads waiting for a worker and why some failed, results
by upload, and runs with their numbered events. SQLite stores have no job workers: nothing
to do there. A database whose job tables an earlier stockshot created (it kept their version
in `stockshot_jobs_schema`) already has them.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy import inspect
from sqlalchemy.dialects import postgresql

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def _moment(name: str) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now())


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql" or inspect(bind).has_table("stockshot_jobs_schema"):
        return
    from procrastinate.schema import SchemaManager

    # The queue's schema is many statements in one text: psycopg runs such a text, without
    # parameters, in the transaction the migration holds.
    driver = bind.connection.driver_connection
    assert driver is not None
    driver.execute(SchemaManager.get_schema())
    op.create_table(
        "stockshot_ingest_cache",
        sa.Column("key", sa.Text, primary_key=True),
        sa.Column("entry", sa.LargeBinary, nullable=False),
        _moment("created_at"),
    )
    op.create_table(
        "stockshot_uploads",
        sa.Column("key", sa.Text, primary_key=True),
        sa.Column("data", sa.LargeBinary, nullable=False),
        _moment("created_at"),
    )
    op.create_table(
        "stockshot_ingest_errors",
        sa.Column("key", sa.Text, primary_key=True),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("message", sa.Text, nullable=False),
        _moment("at"),
    )
    op.create_table(
        "stockshot_results",
        sa.Column("sha256", sa.Text, primary_key=True),
        sa.Column("result", postgresql.JSONB, nullable=False),
        _moment("at"),
    )
    op.create_table(
        "stockshot_runs",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("spec", postgresql.JSONB, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("record", postgresql.JSONB),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        _moment("created_at"),
        _moment("updated_at"),
    )
    op.create_table(
        "stockshot_run_events",
        sa.Column(
            "run_id",
            sa.Text,
            sa.ForeignKey("stockshot_runs.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("event", postgresql.JSONB, nullable=False),
    )
