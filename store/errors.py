"""The errors of the `store` package.

    StoreError          the store cannot be opened, migrated, read or written
    └── StoreUrlError       a store URL that names no store; the message says how to write one

`sqlite3`, `psycopg` and SQLAlchemy errors are mapped to `StoreError` once, in `store.sql`
(with `store.dialects` saying what each one means).
"""

from __future__ import annotations

__all__ = ["StoreError", "StoreUrlError"]


class StoreError(Exception):
    """The store cannot do what was asked; the message names the store and the reason."""


class StoreUrlError(StoreError):
    """A store URL (`STOCKSHOT_DATABASE_URL`) that names no store this version can open."""
