"""The PostgreSQL store's schema, as versioned migrations.

`migrate` brings a database up to `SCHEMA_VERSION` in one transaction, holding an advisory
lock so processes opening the store at the same moment migrate it once. Applied versions
are rows of `stockshot_schema`. Version numbers match the SQLite store's.
"""

from __future__ import annotations

import logging
from typing import Any

import psycopg
from psycopg import sql

from servers.errors import StoreError

__all__ = ["SCHEMA_VERSION", "migrate"]

logger = logging.getLogger(__name__)

# One tuple of statements per schema version; append, never edit a released one.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE warehouses (
            warehouse_id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            city TEXT NOT NULL DEFAULT ''
        )""",
        """CREATE TABLE items (
            sku TEXT PRIMARY KEY,
            name TEXT NOT NULL
        )""",
        """CREATE TABLE stock (
            sku TEXT NOT NULL REFERENCES items (sku),
            warehouse_id TEXT NOT NULL REFERENCES warehouses (warehouse_id),
            on_hand INTEGER NOT NULL CHECK (on_hand >= 0),
            reorder_point INTEGER NOT NULL CHECK (reorder_point >= 0),
            on_order INTEGER NOT NULL DEFAULT 0 CHECK (on_order >= 0),
            updated_at TIMESTAMPTZ NOT NULL,
            PRIMARY KEY (sku, warehouse_id)
        )""",
        # observed_at is kept as the caller wrote it, offset included.
        """CREATE TABLE orders (
            number BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            sku TEXT NOT NULL,
            warehouse_id TEXT NOT NULL,
            quantity INTEGER NOT NULL CHECK (quantity > 0),
            status TEXT NOT NULL CHECK (status IN ('open', 'cancelled')),
            created_at TIMESTAMPTZ NOT NULL,
            cancelled_at TIMESTAMPTZ,
            idempotency_key TEXT,
            run_id TEXT,
            observed_on_hand INTEGER,
            observed_at TEXT,
            FOREIGN KEY (sku, warehouse_id) REFERENCES stock (sku, warehouse_id)
        )""",
        "CREATE UNIQUE INDEX orders_by_idempotency_key ON orders (idempotency_key)",
        "CREATE INDEX orders_by_stock ON orders (sku, warehouse_id, status)",
        """CREATE TABLE audit_log (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            at TIMESTAMPTZ NOT NULL,
            action TEXT NOT NULL,
            outcome TEXT NOT NULL CHECK (outcome IN ('accepted', 'refused')),
            reason TEXT NOT NULL,
            arguments JSONB NOT NULL,
            order_id TEXT,
            run_id TEXT
        )""",
    ),
    (
        """CREATE TABLE proposals (
            number BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            run_id TEXT,
            tool TEXT NOT NULL,
            arguments JSONB NOT NULL,
            arguments_sha256 TEXT NOT NULL,
            observation JSONB,
            live JSONB,
            status TEXT NOT NULL
                CHECK (status IN ('pending', 'approved', 'denied', 'expired', 'failed')),
            created_at TIMESTAMPTZ NOT NULL,
            expires_at TIMESTAMPTZ NOT NULL,
            decided_by TEXT,
            decided_at TIMESTAMPTZ,
            reason TEXT,
            result JSONB,
            order_id TEXT
        )""",
        "CREATE INDEX proposals_by_status ON proposals (status, number)",
        "CREATE INDEX proposals_by_run ON proposals (run_id)",
    ),
    ("ALTER TABLE warehouses ADD COLUMN aliases TEXT NOT NULL DEFAULT ''",),
    (
        """CREATE TABLE column_profiles (
            signature TEXT PRIMARY KEY,
            name TEXT NOT NULL DEFAULT '',
            headers JSONB NOT NULL,
            mapping JSONB NOT NULL,
            created_at TIMESTAMPTZ NOT NULL,
            updated_at TIMESTAMPTZ NOT NULL,
            created_by TEXT
        )""",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)

# pg_advisory_xact_lock key held while migrating: b"stockshot" read as a number.
_MIGRATION_LOCK = 0x73746F636B73686F


def migrate(
    conn: psycopg.Connection[tuple[Any, ...]],
    where: str,
    *,
    migrations: tuple[tuple[str, ...], ...] = MIGRATIONS,
    table: str = "stockshot_schema",
    lock: int = _MIGRATION_LOCK,
) -> None:
    """Apply the `migrations` `conn`'s database lacks; `where` names it in messages. Other
    tables of the same database keep their own versions under their own `table` and `lock`
    (the job queue's, beside the store's)."""
    known = len(migrations)
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (lock,))
        name = sql.Identifier(table)
        conn.execute(
            sql.SQL(
                """CREATE TABLE IF NOT EXISTS {} (
                   version INTEGER PRIMARY KEY,
                   applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
               )"""
            ).format(name)
        )
        row = conn.execute(
            sql.SQL("SELECT COALESCE(MAX(version), 0) FROM {}").format(name)
        ).fetchone()
        version = 0 if row is None else int(row[0])
        if version > known:
            raise StoreError(
                f"{where} has {table} version {version}, newer than this version "
                f"of stockshot understands ({known}); upgrade stockshot"
            )
        for number, statements in enumerate(migrations[version:], start=version + 1):
            for statement in statements:
                conn.execute(statement)
            conn.execute(sql.SQL("INSERT INTO {} (version) VALUES (%s)").format(name), (number,))
            logger.info("%s: %s migrated to version %d", where, table, number)
