"""Fixtures: a seeded scratch store of each kind, a fixed clock, and in-memory MCP clients."""

from __future__ import annotations

import os
import sqlite3
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import pytest
from mcp import Client, StdioServerParameters

from servers import catalog, domain
from servers.factory import build_server
from store.migrate import VERSION_TABLE
from store.protocol import OpenStore, Store
from store.stores import open_store, sqlite_path

NOW = datetime(2026, 11, 30, 8, 0, 0, tzinfo=UTC)

SetStock = Callable[..., None]


@pytest.fixture
def now() -> datetime:
    return NOW


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "stockshot.db"


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, db_path: Path) -> str:
    """An empty store of each kind: the SQLite file `db_path`, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return str(db_path)
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def empty_store(store_url: str) -> Iterator[OpenStore]:
    """A store of each kind with nothing in it."""
    with open_store(store_url) as opened:
        yield opened


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    """A store holding the demo catalogue (`servers/data`)."""
    with open_store(store_url) as opened:
        domain.seed(opened, *catalog.seed_data(), now=NOW)
        yield opened


@pytest.fixture
def set_stock(store: Store) -> SetStock:
    """Overwrite counts of one stock row as an import would: `set_stock(sku, wh, on_hand=500)`."""

    def apply(sku: str, warehouse_id: str, **counts: int) -> None:
        with store.reading() as tx:
            (row,) = [
                r for r in tx.stock_records() if (r.sku, r.warehouse_id) == (sku, warehouse_id)
            ]
        domain.import_records(store, [row.model_copy(update=counts)], now=NOW, source="test")

    return apply


@pytest.fixture(params=["auto", "legacy", "stdio"])
def connect(request: pytest.FixtureRequest, store: Store, store_url: str) -> Callable[[], Client]:
    """`async with connect() as client:` a client of the server with every group.

    Runs each test over both transports the host uses: in memory in both connection modes,
    and over stdio to `python -m servers all` on the same store, as `--servers stdio` starts
    it (its clock is the real one). (A client must be entered and left in the same task, so
    it is opened in the test rather than in an async fixture.)
    """

    def open_client() -> Client:
        if request.param == "stdio":
            env = {
                **os.environ,
                "STOCKSHOT_DATABASE_URL": store_url,
                "STOCKSHOT_MAX_ORDER_QUANTITY": "1000",
                "STOCKSHOT_APPROVAL": "auto",
            }
            command = ("-m", "servers", "all", "--transport", "stdio")
            return Client(StdioServerParameters(command=sys.executable, args=[*command], env=env))
        server = build_server("all", store, max_order_quantity=1000, clock=lambda: NOW)
        return Client(server, mode=request.param)

    return open_client


@contextmanager
def holding_the_write_lock(store_url: str, sku: str, warehouse_id: str) -> Iterator[None]:
    """Another writer, outside the store, holding what a replenishment of `sku` in
    `warehouse_id` needs: the whole SQLite file, or the PostgreSQL stock row."""
    path = sqlite_path(store_url)
    if path is not None:
        conn = sqlite3.connect(path, isolation_level=None)
        try:
            conn.execute("BEGIN IMMEDIATE")
            yield
            conn.execute("ROLLBACK")
        finally:
            conn.close()
        return
    with psycopg.connect(store_url) as pg, pg.transaction():
        pg.execute(
            "SELECT 1 FROM stock WHERE sku = %s AND warehouse_id = %s FOR UPDATE",
            (sku, warehouse_id),
        )
        yield


def raw_sql(store_url: str, sql: str) -> list[tuple[object, ...]]:
    """Run one statement on the store's database behind its back; the rows it returns."""
    path = sqlite_path(store_url)
    if path is not None:
        with sqlite3.connect(path) as conn:
            rows = conn.execute(sql).fetchall()
        conn.close()
        return rows
    with psycopg.connect(store_url) as pg:
        cursor = pg.execute(sql.encode("utf-8"))
        return cursor.fetchall() if cursor.description else []


def schema_version(store_url: str) -> int:
    """The store's schema revision, as its number."""
    (row,) = raw_sql(store_url, f"SELECT version_num FROM {VERSION_TABLE}")
    return int(str(row[0]))


def set_schema_version(store_url: str, version: int) -> None:
    raw_sql(store_url, f"UPDATE {VERSION_TABLE} SET version_num = '{version:04d}'")


LEGACY = Path(__file__).parents[1] / "store" / "data"


def legacy_postgres(url: str, version: int, *, rows: bool = True) -> None:
    """Make the database `url` a store an earlier stockshot wrote at schema `version` (1 or
    4), with the fixture rows."""
    parts = ["postgres-v1.sql", *(["postgres-v2-to-v4.sql"] if version == 4 else [])]
    for name in [*parts, *(["postgres-rows.sql"] if rows else [])]:
        raw_sql(url, (LEGACY / name).read_text(encoding="utf-8"))
