"""A seeded scratch store and in-memory tool servers, one per group, as the host connects them."""

import json
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from pipeline.host.context import Attachment
from pipeline.host.loop import HostLimits, Run, run_task
from pipeline.host.toolbox import MemoryTarget, Toolbox
from servers import catalog, domain
from servers.factory import build_server
from store.models import OrderQuery
from store.sql import SqlStore
from store.stores import sqlite_store

SEEDED_AT = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
LOW_LIVE = frozenset(
    [
        ("SKU-10232", "WH-01"),
        ("SKU-10310", "WH-01"),
        ("SKU-10318", "WH-01"),
        ("SKU-10501", "WH-01"),
        ("SKU-10520", "WH-01"),
    ]
)
"""The seeded store's (SKU, warehouse) rows that are low live, each a row of the sample
erp-light-wh01: what a run replenishing that sample orders."""


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqlStore]:
    with sqlite_store(tmp_path / "stockshot.db") as opened:
        domain.seed(opened, *catalog.seed_data(), now=SEEDED_AT)
        yield opened


@pytest.fixture
def targets(store: SqlStore) -> list[MemoryTarget]:
    return [MemoryTarget(g, build_server(g, store)) for g in ("inventory", "orders", "warehouses")]


def open_orders(store: SqlStore) -> dict[tuple[str, str], int]:
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


HOST_NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
HOST_GROUPS = ("inventory", "orders", "warehouses")
HOST_TASK = "find the SKUs that are low and raise replenishment orders"


async def run_host(
    targets: list[MemoryTarget],
    model: Any,
    *,
    attachments: Sequence[Attachment],
    limits: HostLimits | None = None,
    **options: Any,
) -> Any:
    """One host run over `targets` with the default task, groups and clock unless given."""
    async with Toolbox(targets) as toolbox:
        return await run_task(
            Run(
                task=options.pop("task", HOST_TASK),
                model=model,
                toolbox=toolbox,
                groups=options.pop("groups", HOST_GROUPS),
                attachments=attachments,
                limits=limits or HostLimits(),
                clock=lambda: HOST_NOW,
                **options,
            )
        )
