"""The tables the processes of a PostgreSQL deployment share (`pipeline.jobs.shared`): the
job queue's own schema (Procrastinate's, at the release pyproject pins), the ingest cache
behind each process's memory, uploads waiting for a worker and why some failed, results
by upload, and runs with their numbered events. SQLite stores have no job workers: nothing
to do there. A database whose job tables an earlier stockshot created (it kept their version
in `stockshot_jobs_schema`) already has them.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import inspect

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_TABLES = (
    """CREATE TABLE stockshot_ingest_cache (
        key TEXT PRIMARY KEY,
        entry BYTEA NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )""",
    """CREATE TABLE stockshot_uploads (
        key TEXT PRIMARY KEY,
        data BYTEA NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )""",
    """CREATE TABLE stockshot_ingest_errors (
        key TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        message TEXT NOT NULL,
        at TIMESTAMPTZ NOT NULL DEFAULT now()
    )""",
    """CREATE TABLE stockshot_results (
        sha256 TEXT PRIMARY KEY,
        result JSONB NOT NULL,
        at TIMESTAMPTZ NOT NULL DEFAULT now()
    )""",
    """CREATE TABLE stockshot_runs (
        id TEXT PRIMARY KEY,
        spec JSONB NOT NULL,
        status TEXT NOT NULL,
        record JSONB,
        attempts INTEGER NOT NULL DEFAULT 0,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )""",
    """CREATE TABLE stockshot_run_events (
        run_id TEXT NOT NULL REFERENCES stockshot_runs (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        event JSONB NOT NULL,
        PRIMARY KEY (run_id, seq)
    )""",
)


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
    for statement in _TABLES:
        op.execute(statement)
