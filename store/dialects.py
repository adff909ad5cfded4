"""What SQLite and PostgreSQL do differently for the store, as a few named functions.

- opening: SQLite runs in WAL mode with foreign keys on, each write in `BEGIN IMMEDIATE`
  (the database lock, taken when the transaction begins) and each read in a deferred
  transaction; PostgreSQL writes in READ COMMITTED with a lock timeout and reads in one
  REPEATABLE READ, READ ONLY transaction;
- `lock_stock`: nothing on SQLite (the write already holds the whole database); on PostgreSQL
  a transaction-scoped advisory lock on the idempotency key, then the stock row `FOR UPDATE`;
- `inserted`: whether an upsert inserted its row (`xmax = 0` on PostgreSQL; SQLite asks first,
  under its database lock);
- `store_error`: a driver's error as the `StoreError` a user reads (busy, deadlock, closed…).
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from sqlalchemy import (
    Boolean,
    ColumnElement,
    Connection,
    Engine,
    Table,
    create_engine,
    event,
    exc as sa_exc,
    literal,
    literal_column,
    select,
    text,
)
from sqlalchemy.dialects import sqlite
from sqlalchemy.pool import ConnectionPoolEntry

from store.errors import StoreError
from store.schema import dumps, stock

if TYPE_CHECKING:
    from psycopg.rows import TupleRow
    from sqlalchemy.dialects import postgresql

__all__ = ["SqlDialect", "Upsert", "postgres_dialect", "sqlite_dialect", "wal_mode"]

Upsert: TypeAlias = "postgresql.Insert | sqlite.Insert"
"""The dialect's INSERT construct, with its `ON CONFLICT` clauses."""

logger = logging.getLogger(__name__)

# The execution option that tells SQLite's `begin` hook which BEGIN to send.
_BEGIN = "stockshot_begin"


@dataclass(frozen=True)
class SqlDialect:
    """One database's engine and the few things its store does its own way."""

    engine: Engine
    where: str
    """The database for messages: the SQLite file, or the URL without its password."""
    busy_timeout_s: float
    prepare_reading: Callable[[Connection], None]
    """Set a connection up, before it begins, for one consistent read."""
    prepare_writing: Callable[[Connection], None]
    """Set a connection up, before it begins, for one exclusive write."""
    writing_begun: Callable[[Connection], None]
    """What a write transaction does first."""
    prepare_database: Callable[[SqlDialect], None]
    """What opening the store does before it migrates the database."""
    lock_stock: Callable[[Connection, str, str, str | None], None]
    insert: Callable[[Table], Upsert]
    """The dialect's INSERT construct (with `on_conflict_do_nothing` / `_do_update`)."""
    inserted: ColumnElement[bool] | None
    """A RETURNING column that is true when an upsert inserted, or None where there is none."""
    driver_errors: tuple[type[BaseException], ...]

    def store_error(self, exc: BaseException) -> StoreError:
        """The error a user reads for a failed statement or transaction."""
        if isinstance(exc, sa_exc.TimeoutError):
            return StoreError(
                f"the store is busy: no connection to {self.where} came free within "
                f"{self.engine.pool.timeout():g} s"  # type: ignore[attr-defined]
            )
        orig = exc.orig if isinstance(exc, sa_exc.DBAPIError) else exc
        if _is_busy(orig):
            return StoreError(
                f"the store is busy: {self.where} stayed locked by another writer for more "
                f"than {self.busy_timeout_s:g} s"
            )
        sqlstate = getattr(orig, "sqlstate", None)
        if sqlstate in {"40P01", "40001"}:
            return StoreError(
                f"the store is busy: {self.where} rolled this write back to let a "
                f"concurrent one finish ({sqlstate})"
            )
        return StoreError(f"store {self.where}: {orig}")


def _is_busy(orig: object) -> bool:
    if isinstance(orig, sqlite3.OperationalError):
        return "locked" in str(orig) or "busy" in str(orig)
    return getattr(orig, "sqlstate", None) == "55P03"  # lock_not_available


# ---- SQLite


def sqlite_dialect(path: Path, *, busy_timeout_s: float, max_idle: int = 8) -> SqlDialect:
    """The embedded store's database: one file, WAL mode, writers queued on its lock."""
    engine = create_engine(
        f"sqlite:///{path}",
        connect_args={"timeout": busy_timeout_s, "check_same_thread": False},
        pool_size=max_idle,
        max_overflow=-1,
    )

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: sqlite3.Connection, _: ConnectionPoolEntry) -> None:
        # The driver's own transaction handling off: the store sends BEGIN itself.
        dbapi_connection.isolation_level = None
        dbapi_connection.execute("PRAGMA foreign_keys = ON")

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql(conn.get_execution_options().get(_BEGIN, "BEGIN"))

    def prepare_reading(conn: Connection) -> None:
        conn.execution_options(**{_BEGIN: "BEGIN"})

    def prepare_writing(conn: Connection) -> None:
        conn.execution_options(**{_BEGIN: "BEGIN IMMEDIATE"})

    return SqlDialect(
        engine=engine,
        where=str(path),
        busy_timeout_s=busy_timeout_s,
        prepare_reading=prepare_reading,
        prepare_writing=prepare_writing,
        writing_begun=_nothing,
        prepare_database=wal_mode,
        lock_stock=_sqlite_lock_stock,
        insert=sqlite.insert,
        inserted=None,
        driver_errors=(sqlite3.Error,),
    )


def _nothing(conn: Connection) -> None:
    pass


def _ready(dialect: SqlDialect) -> None:
    pass


def _sqlite_lock_stock(conn: Connection, sku: str, warehouse_id: str, key: str | None) -> None:
    """Nothing to do: `BEGIN IMMEDIATE` already holds the whole database."""


def wal_mode(dialect: SqlDialect) -> None:
    """Put a SQLite file in WAL mode (once; it stays so), warning when it cannot be."""
    try:
        opened = dialect.engine.connect()
    except sa_exc.DBAPIError as exc:
        raise StoreError(f"cannot open the store {dialect.where}: {exc.orig}") from exc
    with opened as conn:
        # On the driver's connection: SQLAlchemy would begin a transaction first.
        driver = conn.connection.dbapi_connection
        assert driver is not None
        (mode,) = driver.execute("PRAGMA journal_mode = WAL").fetchone()
        if mode != "wal":
            logger.warning("store %s runs in journal mode %s, not WAL", dialect.where, mode)


# ---- PostgreSQL


def postgres_dialect(
    url: str, *, where: str, busy_timeout_s: float, max_connections: int = 8
) -> SqlDialect:
    """A shared store's database, reached with psycopg 3 from a libpq URL."""
    import psycopg
    from sqlalchemy.dialects import postgresql  # a SQLite store never loads it

    def connect() -> psycopg.Connection[TupleRow]:
        return psycopg.connect(url, connect_timeout=10)

    engine = create_engine(
        "postgresql+psycopg://",
        creator=connect,
        pool_size=max_connections,
        max_overflow=0,
        pool_timeout=max(busy_timeout_s, 1.0),
        # A connection the server dropped (a restart, an idle timeout) is replaced before
        # use rather than failing the transaction handed out on it.
        pool_pre_ping=True,
        json_serializer=dumps,
    )
    lock_timeout_ms = max(1, round(busy_timeout_s * 1000))

    def prepare_reading(conn: Connection) -> None:
        conn.execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)

    def prepare_writing(conn: Connection) -> None:
        conn.execution_options(isolation_level="READ COMMITTED")

    def writing_begun(conn: Connection) -> None:
        conn.exec_driver_sql(f"SET LOCAL lock_timeout = {lock_timeout_ms:d}")

    return SqlDialect(
        engine=engine,
        where=where,
        busy_timeout_s=busy_timeout_s,
        prepare_reading=prepare_reading,
        prepare_writing=prepare_writing,
        writing_begun=writing_begun,
        prepare_database=_ready,
        lock_stock=_postgres_lock_stock,
        insert=postgresql.insert,
        # `xmax = 0` holds for a row this statement inserted, not for one it updated.
        inserted=literal_column("xmax = 0", Boolean).label("inserted"),
        driver_errors=(psycopg.Error,),
    )


def _postgres_lock_stock(conn: Connection, sku: str, warehouse_id: str, key: str | None) -> None:
    # The key first, then the row: every writer takes them in this order.
    if key is not None:
        conn.execute(
            text("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))"),
            {"key": f"stockshot order {key}"},
        )
    row = (stock.c.sku == sku) & (stock.c.warehouse_id == warehouse_id)
    conn.execute(select(literal(1)).select_from(stock).where(row).with_for_update())
