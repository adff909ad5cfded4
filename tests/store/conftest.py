"""The store suite's fixtures are the ones the tool servers' suite uses (a store of each kind,
SQLite and PostgreSQL): shared, not copied."""

from __future__ import annotations

from tests.servers.conftest import db_path, empty_store, now, store, store_url

__all__ = ["db_path", "empty_store", "now", "store", "store_url"]
