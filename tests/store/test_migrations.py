"""The store's migrations: files and databases an earlier stockshot wrote are upgraded in place
with their data, and the history builds exactly the tables the store queries."""

from __future__ import annotations

import shutil
import sqlite3
from datetime import datetime
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine

from store.errors import StoreError
from store.jobs import job_metadata
from store.migrate import HEAD, SCHEMA_VERSION, revisions
from store.models import NewOrder, NewProposal, OrderQuery, ProposalQuery, Warehouse
from store.protocol import OpenStore
from store.schema import metadata
from store.stores import open_store, sqlite_path
from tests.servers.conftest import (
    legacy_postgres,
    raw_sql,
    schema_version,
)

DATA = Path(__file__).parent / "data"


# ---- stores an earlier stockshot wrote (its own migrations, before Alembic)


def _written_before(store: OpenStore, now: datetime) -> None:
    """What every fixture holds, read through the current code."""
    with store.reading() as tx:
        (level,) = tx.stock_levels()
        assert (level.sku, level.on_hand, level.on_order, level.updated_at) == (
            "SKU-10232",
            12,
            68,
            now,
        )
        (order,) = tx.orders(OrderQuery())
        assert (order.id, order.idempotency_key, order.observed_at) == ("PO-000001", "k-1", now)
        assert tx.warehouses() == [Warehouse(warehouse_id="WH-01", name="Main", city="Shanghai")]
        assert tx.profiles() == []
        assert [(item.sku, item.codes) for item in tx.items()] == [("SKU-10232", ())]
    with store.writing() as tx:
        second = tx.insert_order(
            NewOrder(sku="SKU-10232", warehouse_id="WH-01", quantity=5), now=now
        )
        assert second.id == "PO-000002"
        with pytest.raises(StoreError, match="already used by another order"):
            tx.insert_order(
                NewOrder(sku="SKU-10232", warehouse_id="WH-01", quantity=5, idempotency_key="k-1"),
                now=now,
            )


@pytest.mark.parametrize("version", [1, 2, 4])
def test_a_sqlite_file_an_earlier_version_wrote_is_upgraded_in_place_with_its_data(
    version: int, tmp_path: Path, now: datetime
) -> None:
    db = tmp_path / "stockshot.db"
    shutil.copyfile(DATA / f"store-v{version}.db", db)
    with open_store(str(db)) as store:
        _written_before(store, now)
        with store.reading() as tx:
            pending = tx.proposals(ProposalQuery())
        assert [p.arguments for p in pending] == (
            [] if version < 2 else [{"sku": "SKU-10232", "warehouse_id": "WH-01", "quantity": 30}]
        )
    assert schema_version(str(db)) == SCHEMA_VERSION
    with open_store(str(db)) as again, again.reading() as tx:
        assert len(tx.orders(OrderQuery())) == 2


@pytest.mark.parametrize("version", [1, 4])
def test_a_postgres_database_an_earlier_version_wrote_is_upgraded_in_place_with_its_data(
    version: int, postgres_url: str, now: datetime
) -> None:
    legacy_postgres(postgres_url, version)
    with open_store(postgres_url) as store:
        _written_before(store, now)
    assert schema_version(postgres_url) == SCHEMA_VERSION


def test_a_legacy_version_newer_than_any_revision_is_refused(db_path: Path) -> None:
    conn = sqlite3.connect(db_path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(StoreError, match="newer than this version of stockshot"):
        open_store(str(db_path))


def test_the_migrations_build_exactly_the_tables_the_store_queries(store_url: str) -> None:
    open_store(store_url).close()
    path = sqlite_path(store_url)
    url = f"sqlite:///{path}" if path else store_url.replace("postgresql", "postgresql+psycopg", 1)
    ours = set(metadata.tables)

    def only_ours(name: str | None, kind: str, parent: object) -> bool:
        return kind != "table" or name in ours

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(
                conn, opts={"compare_type": True, "include_name": only_ours}
            )
            differences = compare_metadata(context, metadata)
    finally:
        engine.dispose()
    assert differences == []


def test_the_migrations_build_exactly_the_job_tables_a_postgres_deployment_shares(
    postgres_url: str,
) -> None:
    open_store(postgres_url).close()
    ours = set(job_metadata.tables)

    def only_ours(name: str | None, kind: str, parent: object) -> bool:
        return kind != "table" or name in ours

    engine = create_engine(postgres_url.replace("postgresql", "postgresql+psycopg", 1))
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(
                conn, opts={"compare_type": True, "include_name": only_ours}
            )
            differences = compare_metadata(context, job_metadata)
    finally:
        engine.dispose()
    assert differences == []


def test_the_head_a_store_checks_on_open_is_the_latest_revision_of_the_history() -> None:
    assert revisions().get_current_head() == HEAD


def _pending(run: int, sku: str, quantity: int) -> str:
    arguments = f'{{"quantity": {quantity}, "sku": "{sku}", "warehouse_id": "WH-01"}}'
    return (
        f"('run-{run}', 'orders_create_replenishment', '{arguments}', '{'0' * 64}', "
        "'pending', '2026-11-30T08:00:00+00:00', '2026-12-30T08:00:00+00:00')"
    )


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_store_with_one_write_pending_twice_upgrades_keeping_the_oldest_waiting(
    kind: str, db_path: Path, request: pytest.FixtureRequest, now: datetime
) -> None:
    if kind == "sqlite":
        shutil.copyfile(DATA / "store-v4.db", db_path)
        url = str(db_path)
    else:
        url = request.getfixturevalue("postgres_url")
        legacy_postgres(url, 4)
    raw_sql(url, "DELETE FROM proposals")
    for row in (_pending(1, "SKU-10232", 30), _pending(2, "SKU-10232", 40),
                _pending(3, "SKU-10318", 9)):  # fmt: skip
        raw_sql(
            url,
            "INSERT INTO proposals (run_id, tool, arguments, arguments_sha256, status, "
            f"created_at, expires_at) VALUES {row}",
        )
    with open_store(url) as store:
        with store.reading() as tx:
            upgraded = list(reversed(tx.proposals(ProposalQuery())))
            audit = [(e.action, e.reason) for e in tx.audit(limit=3)]
        with store.writing() as tx:
            again = tx.insert_proposal(
                NewProposal(
                    tool="orders_create_replenishment",
                    arguments={"sku": "SKU-10232", "warehouse_id": "WH-01"},
                    arguments_sha256="x",
                    expires_at=now,
                ),
                now=now,
            )
    assert [(p.run_id, p.status) for p in upgraded] == [
        ("run-1", "pending"),
        ("run-2", "expired"),
        ("run-3", "pending"),
    ]
    reason = f"expired on upgrade: {upgraded[0].id} already waits for approval of the same write"
    assert upgraded[1].reason == reason
    assert ("approval expired", reason) in audit
    assert again is None  # the oldest keeps the write's key
