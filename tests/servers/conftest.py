"""Fixtures: a seeded scratch store, a fixed clock, and in-memory MCP clients."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from mcp import Client

from servers import catalog, domain
from servers.factory import build_server
from servers.sqlite_store import SqliteStore

NOW = datetime(2026, 11, 30, 8, 0, 0, tzinfo=UTC)

SetStock = Callable[..., None]


@pytest.fixture(autouse=True)
def _no_stockshot_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No developer settings, and a default store (if any) inside the test's folder."""
    for name in list(os.environ):
        if name.startswith("STOCKSHOT_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("STOCKSHOT_DATA_DIR", str(tmp_path / "data"))


@pytest.fixture
def now() -> datetime:
    return NOW


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "stockshot.db"


@pytest.fixture
def store(db_path: Path) -> Iterator[SqliteStore]:
    """A store holding the demo catalogue (`servers/data`)."""
    with SqliteStore(db_path) as opened:
        domain.seed(opened, *catalog.seed_data(), now=NOW)
        yield opened


@pytest.fixture
def set_stock(store: SqliteStore) -> SetStock:
    """Overwrite counts of one stock row as an import would: `set_stock(sku, wh, on_hand=500)`."""

    def apply(sku: str, warehouse_id: str, **counts: int) -> None:
        with store.reading() as tx:
            (row,) = [
                r for r in tx.stock_records() if (r.sku, r.warehouse_id) == (sku, warehouse_id)
            ]
        domain.import_records(store, [row.model_copy(update=counts)], now=NOW, source="test")

    return apply


@pytest.fixture(params=["auto", "legacy"])
def connect(request: pytest.FixtureRequest, store: SqliteStore) -> Callable[[], Client]:
    """`async with connect() as client:` an in-memory client of the server with every group.

    Runs each test in both connection modes. (A client must be entered and left in the
    same task, so it is opened in the test rather than in an async fixture.)
    """

    def open_client() -> Client:
        server = build_server("all", store, max_order_quantity=1000, clock=lambda: NOW)
        return Client(server, mode=request.param)

    return open_client
