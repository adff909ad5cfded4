"""Bringing a store's database to the current schema, once, whoever opens it first.

The history is Alembic's (`store.migrations`), applied in one transaction under the
lock writers use (`BEGIN IMMEDIATE` on SQLite, an advisory lock on PostgreSQL), so processes
opening a new store at the same moment migrate it once. The revision applied is kept in
`stockshot_schema_revision`. A database an earlier stockshot migrated on its own (SQLite's
`PRAGMA user_version`, PostgreSQL's `stockshot_schema` table) is first marked at the revision
its version number names, then upgraded from there.

Opening a store that is already current reads one row and loads no Alembic at all (`HEAD`
names the latest revision; a test holds it to the history), so a process that only serves
tools (a stdio server per run) starts without it.
"""

from __future__ import annotations

import logging
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, column, inspect, select, table, text

from store.errors import StoreError

if TYPE_CHECKING:
    from alembic.script import ScriptDirectory

__all__ = ["HEAD", "SCHEMA_VERSION", "VERSION_TABLE", "migrate", "revisions"]

logger = logging.getLogger(__name__)

VERSION_TABLE = "stockshot_schema_revision"

HEAD = "0009"
"""The latest revision of `store.migrations` (raise it with each new revision)."""

SCHEMA_VERSION = int(HEAD)
"""The current schema version: the number of the latest revision."""

# pg_advisory_xact_lock key held while migrating: b"stockshot" read as a number.
_MIGRATION_LOCK = 0x73746F636B73686F

_HERE = Path(__file__).resolve().parent


@cache
def revisions() -> ScriptDirectory:
    """The schema history, read once per process."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(_HERE / "migrations"))
    return ScriptDirectory.from_config(config)


def _current(conn: Connection) -> str | None:
    """The revision the database records, or None when it records none (yet)."""
    if not inspect(conn).has_table(VERSION_TABLE):
        return None
    versions = table(VERSION_TABLE, column("version_num"))
    found = conn.execute(select(versions.c.version_num)).scalars().all()
    return str(found[0]) if len(found) == 1 else None


def _legacy_version(conn: Connection) -> int:
    """The version an earlier stockshot recorded itself, 0 for a database it never touched."""
    if conn.dialect.name == "sqlite":
        return int(conn.exec_driver_sql("PRAGMA user_version").scalar_one())
    if not inspect(conn).has_table("stockshot_schema"):
        return 0
    found = conn.execute(text("SELECT COALESCE(MAX(version), 0) FROM stockshot_schema"))
    return int(found.scalar_one())


def migrate(conn: Connection, where: str) -> None:
    """Apply the revisions `conn`'s database lacks, inside the transaction `conn` holds
    (begun with the store's write lock); `where` names the database in messages."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
    if _current(conn) == HEAD:
        return
    from alembic.operations import Operations
    from alembic.runtime.migration import MigrationContext

    script = revisions()
    known = {r.revision for r in script.walk_revisions()}
    context = MigrationContext.configure(conn, opts={"version_table": VERSION_TABLE})
    current = context.get_current_revision()
    if current is None:
        legacy = _legacy_version(conn)
        if legacy:
            current = f"{legacy:04d}"
            if current not in known:
                raise _newer(where, current)
            context.stamp(script, current)
            logger.info("%s: schema version %d marked as revision %s", where, legacy, current)
    elif current not in known:
        raise _newer(where, current)
    if current == HEAD:
        return
    with Operations.context(context):
        for step in reversed(list(script.iterate_revisions(HEAD, current))):
            step.module.upgrade()
            context.stamp(script, step.revision)
            logger.info("%s: migrated to schema revision %s", where, step.revision)


def _newer(where: str, revision: str) -> StoreError:
    return StoreError(
        f"{where} has schema revision {revision}, newer than this version of stockshot "
        f"understands ({HEAD}); upgrade stockshot"
    )
