"""A seeded scratch store and in-memory tool servers, one per group, as the host connects them."""

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from pipeline.host.toolbox import MemoryTarget
from servers import catalog, domain
from servers.factory import build_server
from servers.models import OrderQuery
from servers.sqlite_store import SqliteStore

SEEDED_AT = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    with SqliteStore(tmp_path / "stockshot.db") as opened:
        domain.seed(opened, *catalog.seed_data(), now=SEEDED_AT)
        yield opened


@pytest.fixture
def targets(store: SqliteStore) -> list[MemoryTarget]:
    return [MemoryTarget(g, build_server(g, store)) for g in ("inventory", "orders", "warehouses")]


def open_orders(store: SqliteStore) -> dict[tuple[str, str], int]:
    orders = domain.list_orders(store, OrderQuery(status="open", limit=500)).orders
    return {(o.sku, o.warehouse_id): o.quantity for o in orders}


def call(name: str, arguments: dict[str, Any], id_: str = "c1") -> dict[str, Any]:
    """A scripted model reply that makes one tool call."""
    return {
        "content": "",
        "tool_calls": [
            {
                "id": id_,
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)},
            }
        ],
    }
