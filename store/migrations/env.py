"""Alembic's entry point for the `alembic` command line; a store opening uses
`store.migrate` instead. It migrates the database `STOCKSHOT_DATABASE_URL` names."""

from __future__ import annotations

import os

from store.stores import migrate_url

migrate_url(os.environ.get("STOCKSHOT_DATABASE_URL", "stockshot.db"))
