"""The store suite: every test runs on SQLite and on PostgreSQL unless it names one."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path

import pytest

from servers import domain
from store.errors import StoreError, StoreUrlError
from store.migrate import SCHEMA_VERSION, VERSION_TABLE
from store.models import (
    ColumnProfile,
    Item,
    ItemCode,
    NewAuditEntry,
    NewOrder,
    NewProposal,
    OrderQuery,
    ProposalQuery,
    StockRecord,
    Warehouse,
)
from store.protocol import OpenStore, Store
from store.stores import STORES, StoreOptions, open_store, sqlite_path, store_scheme
from tests.servers.conftest import (
    raw_sql,
    schema_version,
    set_schema_version,
)

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data"

RECORD = StockRecord(
    sku="SKU-1", name="Bolt", warehouse_id="WH-01", on_hand=5, reorder_point=10, on_order=2
)


def add_row(store: Store, now: datetime) -> None:
    with store.writing() as tx:
        tx.add_warehouse(Warehouse(warehouse_id="WH-01", name="Main"), replace=False)
        tx.put_stock(RECORD, now=now)


# ---- choosing a store by URL


@pytest.mark.parametrize(
    ("url", "scheme", "path"),
    [
        ("/var/lib/stockshot/stockshot.db", "sqlite", Path("/var/lib/stockshot/stockshot.db")),
        ("stockshot.db", "sqlite", Path("stockshot.db")),
        ("sqlite:///data/stockshot.db", "sqlite", Path("data/stockshot.db")),
        ("sqlite:////var/lib/stockshot.db", "sqlite", Path("/var/lib/stockshot.db")),
        ("postgresql://stockshot:pw@db.example:5432/stockshot", "postgresql", None),
        ("postgres://db.example/stockshot", "postgresql", None),
    ],
)
def test_the_url_scheme_picks_the_store(url: str, scheme: str, path: Path | None) -> None:
    assert store_scheme(url) == scheme
    assert sqlite_path(url) == path


def test_an_unknown_scheme_is_refused_listing_the_known_ones() -> None:
    with pytest.raises(StoreUrlError, match="known: sqlite, postgresql") as caught:
        open_store("mysql://db.example/stockshot")
    assert list(STORES) == ["sqlite", "postgresql"]
    assert "'mysql'" in str(caught.value)


def test_a_sqlite_url_without_a_file_says_how_to_write_one() -> None:
    with pytest.raises(StoreUrlError, match=r"sqlite:///relative.db or sqlite:////absolute.db"):
        open_store("sqlite://")


def test_an_unreachable_postgres_store_is_a_store_error_without_its_password() -> None:
    with pytest.raises(
        StoreError, match=r"cannot use postgresql://stockshot@127\.0\.0\.1:1/x"
    ) as e:
        open_store("postgresql://stockshot:s3cret@127.0.0.1:1/x?connect_timeout=5")
    assert "s3cret" not in str(e.value)


# ---- every store


def test_a_new_store_is_at_the_current_schema_version(
    empty_store: OpenStore, store_url: str
) -> None:
    assert schema_version(store_url) == SCHEMA_VERSION


def test_reopening_a_store_keeps_its_data_and_migrates_nothing(
    empty_store: OpenStore, store_url: str, now: datetime
) -> None:
    add_row(empty_store, now)
    empty_store.close()
    with open_store(store_url) as store, store.reading() as tx:
        assert tx.stock_records() == [RECORD]
    assert schema_version(store_url) == SCHEMA_VERSION


def test_a_store_written_by_a_newer_schema_is_refused(
    empty_store: OpenStore, store_url: str
) -> None:
    empty_store.close()
    set_schema_version(store_url, SCHEMA_VERSION + 1)
    with pytest.raises(StoreError, match="newer than this version of stockshot"):
        open_store(store_url)


def test_a_write_that_raises_rolls_back_everything_it_wrote(empty_store: OpenStore) -> None:
    with pytest.raises(RuntimeError), empty_store.writing() as tx:
        tx.add_warehouse(Warehouse(warehouse_id="WH-01", name="Main"), replace=False)
        raise RuntimeError("boom")
    with empty_store.reading() as tx:
        assert tx.warehouses() == []


def test_adding_a_warehouse_says_whether_it_is_new_and_replaces_only_when_asked(
    empty_store: OpenStore,
) -> None:
    with empty_store.writing() as tx:
        assert tx.add_warehouse(Warehouse(warehouse_id="WH-01", name="Main"), replace=False)
        assert not tx.add_warehouse(Warehouse(warehouse_id="WH-01", name="X"), replace=False)
        assert tx.warehouses()[0].name == "Main"
        assert not tx.add_warehouse(Warehouse(warehouse_id="WH-01", name="Y"), replace=True)
        assert tx.warehouses()[0].name == "Y"


def test_putting_stock_says_whether_the_row_is_new(empty_store: OpenStore, now: datetime) -> None:
    with empty_store.writing() as tx:
        tx.add_warehouse(Warehouse(warehouse_id="WH-01", name="Main"), replace=False)
        assert tx.put_stock(RECORD, now=now)
        assert not tx.put_stock(RECORD.model_copy(update={"on_hand": 9}), now=now)
        assert [r.on_hand for r in tx.stock_records()] == [9]


def test_live_on_order_counts_open_orders_but_not_cancelled_ones(
    empty_store: OpenStore, now: datetime
) -> None:
    add_row(empty_store, now)
    with empty_store.writing() as tx:
        first = tx.insert_order(NewOrder(sku="SKU-1", warehouse_id="WH-01", quantity=7), now=now)
        tx.insert_order(NewOrder(sku="SKU-1", warehouse_id="WH-01", quantity=3), now=now)
        tx.cancel_order(first.id, now=now)
    with empty_store.reading() as tx:
        (level,) = tx.stock_levels(warehouse_id="WH-01")
        assert level.on_order == 2 + 3
        assert level.updated_at == now
        assert tx.stock_records() == [RECORD]
        assert tx.stock_levels(skus=["SKU-1", "SKU-2"]) == [level]
        assert tx.stock_levels(skus=[]) == []


def test_orders_are_numbered_and_found_by_id_or_short_id(
    empty_store: OpenStore, now: datetime
) -> None:
    add_row(empty_store, now)
    observed = datetime.fromisoformat("2026-11-30T15:59:00+08:00")
    with empty_store.writing() as tx:
        order = tx.insert_order(
            NewOrder(
                sku="SKU-1", warehouse_id="WH-01", quantity=7, idempotency_key="k",
                observed_on_hand=4, observed_at=observed,
            ),
            now=now,
        )  # fmt: skip
        assert order.id == "PO-000001"
        assert order.status == "open"
        assert order.created_at == now
        assert order.observed_at is not None
        assert order.observed_at.isoformat() == "2026-11-30T15:59:00+08:00"
        assert tx.order("po-1") == order
        assert tx.order_by_key("k") == order
        assert tx.order("SKU-1") is None
        assert tx.orders(OrderQuery(status="cancelled")) == []
        assert tx.orders(OrderQuery(created_since=now)) == [order]


def test_an_order_for_a_row_that_does_not_exist_is_refused_by_the_schema(
    empty_store: OpenStore, now: datetime
) -> None:
    with pytest.raises(StoreError, match=r"(?i)foreign key"), empty_store.writing() as tx:
        tx.insert_order(NewOrder(sku="SKU-X", warehouse_id="WH-01", quantity=1), now=now)


def test_audit_entries_keep_their_arguments_newest_first(
    empty_store: OpenStore, now: datetime
) -> None:
    domain.import_records(empty_store, [RECORD], now=now, source="first.csv")
    domain.import_records(empty_store, [RECORD], now=now, source="größe.csv")
    with empty_store.reading() as tx:
        latest, first = tx.audit(limit=5)
    assert (latest.id, first.id) == (2, 1)
    assert latest.arguments == {"source": "größe.csv", "rows": 1}
    assert (latest.at, latest.outcome, latest.order_id) == (now, "accepted", None)


def test_the_proposals_and_audit_entries_behind_orders_are_found_by_their_order_ids(
    empty_store: OpenStore, now: datetime
) -> None:
    add_row(empty_store, now)
    with empty_store.writing() as tx:
        ordered = [
            tx.insert_order(NewOrder(sku="SKU-1", warehouse_id="WH-01", quantity=q), now=now)
            for q in (3, 4)
        ]
        for order in ordered:
            tx.append_audit(
                NewAuditEntry(
                    at=now,
                    action="orders_create_replenishment",
                    outcome="accepted",
                    reason="ordered",
                    arguments={},
                    order_id=order.id,
                )
            )
        proposal = tx.insert_proposal(
            NewProposal(
                tool="orders_create_replenishment",
                arguments={"sku": "SKU-1", "warehouse_id": "WH-01"},
                arguments_sha256="0" * 64,
                expires_at=now,
            ),
            now=now,
        )
        assert proposal is not None
        tx.decide_proposal(
            proposal.id, expect="pending", status="approved", now=now, order_id=ordered[1].id
        )
    with empty_store.reading() as tx:
        behind = tx.proposals(ProposalQuery(order_ids=(ordered[1].id,)))
        none_behind = tx.proposals(ProposalQuery(order_ids=(ordered[0].id,)))
        audited = tx.audit(limit=10, order_ids=[ordered[0].id])
    assert [p.id for p in behind] == [proposal.id]
    assert none_behind == []
    assert [e.order_id for e in audited] == [ordered[0].id]


def test_a_closed_store_refuses_new_transactions(empty_store: OpenStore) -> None:
    empty_store.close()
    with pytest.raises(StoreError, match="closed"), empty_store.reading():
        pass


@pytest.mark.subprocess
@pytest.mark.parametrize("key", [None, "same-key"], ids=["no-key", "one-key"])
def test_twenty_processes_creating_the_same_order_make_one(
    store: OpenStore, store_url: str, key: str | None
) -> None:
    """20 OS processes, each with its own store, ask for the same replenishment at once."""
    command = [sys.executable, "-m", "tests.servers.replenish_once", store_url]
    if key is not None:
        command.append(key)
    processes = [
        subprocess.Popen(
            command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        for _ in range(20)
    ]
    try:
        for process in processes:
            assert process.stdout is not None
            assert process.stdout.readline().strip() == "ready"
        for process in processes:
            assert process.stdin is not None
            process.stdin.write("go\n")
            process.stdin.flush()
        outcomes = [json.loads(process.communicate(timeout=120)[0]) for process in processes]
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
    assert all(process.returncode == 0 for process in processes)
    (order,) = domain.list_orders(store, OrderQuery()).orders
    created = [o for o in outcomes if o.get("created")]
    assert created == [{"created": True, "order_id": order.id}]
    if key is None:
        assert [o for o in outcomes if not o.get("created")] == [{"refused": "not_low"}] * 19
    else:
        assert [o for o in outcomes if not o.get("created")] == [
            {"created": False, "order_id": order.id}
        ] * 19


# ---- SQLite


def test_a_sqlite_store_is_in_wal_mode(db_path: Path) -> None:
    open_store(str(db_path)).close()
    assert raw_sql(str(db_path), "PRAGMA journal_mode") == [("wal",)]


def test_a_sqlite_store_is_created_in_a_folder_that_does_not_exist_yet(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/a/b/stockshot.db"
    with open_store(url) as store, store.reading() as tx:
        assert tx.warehouses() == []
    assert (tmp_path / "a" / "b" / "stockshot.db").is_file()


def test_a_file_that_is_not_a_database_is_a_store_error(db_path: Path) -> None:
    db_path.write_bytes(b"not a database, just some bytes " * 100)
    with pytest.raises(StoreError, match="cannot use"):
        open_store(str(db_path))


def test_a_sqlite_write_transaction_locks_out_other_writers_from_its_start(
    db_path: Path,
) -> None:
    with (
        open_store(str(db_path)) as store,
        open_store(str(db_path), StoreOptions(busy_timeout_s=0.05)) as other,
        store.writing(),
    ):
        # Nothing written yet: BEGIN IMMEDIATE alone holds the write lock.
        with pytest.raises(StoreError, match="stayed locked by another writer"), other.writing():
            pass
        with other.reading() as tx:
            assert tx.warehouses() == []


# ---- PostgreSQL


def test_a_postgres_writer_holding_a_stock_row_holds_up_only_writers_of_that_row(
    postgres_url: str, now: datetime
) -> None:
    with (
        open_store(postgres_url) as store,
        open_store(postgres_url, StoreOptions(busy_timeout_s=0.05)) as other,
    ):
        add_row(store, now)
        with store.writing() as tx:
            tx.put_stock(RECORD.model_copy(update={"sku": "SKU-2"}), now=now)
        with store.writing() as tx:
            tx.lock_stock("SKU-1", "WH-01")
            with (
                pytest.raises(StoreError, match="stayed locked by another writer"),
                other.writing() as mine,
            ):
                mine.lock_stock("SKU-1", "WH-01")
            with other.writing() as mine:
                mine.lock_stock("SKU-2", "WH-01")
            with other.reading() as reader:
                assert len(reader.stock_records()) == 2


def test_twenty_processes_opening_a_new_postgres_store_migrate_it_once(
    postgres_url: str,
) -> None:
    code = "import sys; from store.stores import open_store; open_store(sys.argv[1]).close()"
    processes = [
        subprocess.Popen([sys.executable, "-c", code, postgres_url], cwd=ROOT) for _ in range(20)
    ]
    assert [process.wait(timeout=120) for process in processes] == [0] * 20
    assert raw_sql(postgres_url, f"SELECT version_num FROM {VERSION_TABLE}") == [
        (f"{SCHEMA_VERSION:04d}",)
    ]


def test_a_postgres_store_outlives_the_server_dropping_its_connections(
    postgres_url: str, now: datetime
) -> None:
    with open_store(postgres_url) as store:
        add_row(store, now)
        with store.reading() as tx:
            assert tx.stock_records() == [RECORD]
        dropped = raw_sql(
            postgres_url,
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()",
        )
        assert dropped
        with store.reading() as tx:
            assert tx.stock_records() == [RECORD]


def test_a_postgres_deadlock_rolls_one_write_back_as_busy_and_lets_the_other_commit(
    postgres_url: str, now: datetime
) -> None:
    second = RECORD.model_copy(update={"sku": "SKU-2"})
    with open_store(postgres_url) as store:
        add_row(store, now)
        with store.writing() as tx:
            tx.put_stock(second, now=now)
        both_hold_one = threading.Barrier(2, timeout=30)

        def write(first: str, then: str) -> str:
            try:
                with store.writing() as tx:
                    tx.lock_stock(first, "WH-01")
                    both_hold_one.wait()
                    tx.lock_stock(then, "WH-01")
            except StoreError as exc:
                return str(exc)
            return "committed"

        with ThreadPoolExecutor(max_workers=2) as pool:
            outcomes = sorted(pool.map(write, ["SKU-1", "SKU-2"], ["SKU-2", "SKU-1"], timeout=60))
    assert outcomes[0] == "committed"
    assert outcomes[1].startswith("the store is busy: ")
    assert "rolled this write back to let a concurrent one finish (40P01)" in outcomes[1]


def test_an_items_codes_are_added_byte_for_byte_and_kept_by_later_imports(
    empty_store: OpenStore, now: datetime
) -> None:
    barcode = ItemCode(kind="barcode", code="4006381333931")
    variant = ItemCode(kind="part_number", code="shirt-variant-1-7")
    add_row(empty_store, now)
    with empty_store.writing() as tx:
        tx.put_stock(RECORD.model_copy(update={"codes": (barcode, variant)}), now=now)
    relabelled = ItemCode(kind="alias", code="shirt-variant-1-7")
    with empty_store.writing() as tx:
        tx.put_stock(RECORD.model_copy(update={"codes": (relabelled,)}), now=now)
    with empty_store.reading() as tx:
        assert tx.items() == [Item(sku="SKU-1", name="Bolt", codes=(relabelled, barcode))]
        (record,) = tx.stock_records()
    assert record.codes == (relabelled, barcode)


def test_one_code_may_name_two_items(empty_store: OpenStore, now: datetime) -> None:
    shared = ItemCode(kind="alias", code="热缩管")
    with empty_store.writing() as tx:
        tx.add_warehouse(Warehouse(warehouse_id="WH-01", name="Main"), replace=False)
        for sku in ("SKU-1", "SKU-2"):
            tx.put_stock(RECORD.model_copy(update={"sku": sku, "codes": (shared,)}), now=now)
    with empty_store.reading() as tx:
        assert [(i.sku, i.codes) for i in tx.items()] == [
            ("SKU-1", (shared,)),
            ("SKU-2", (shared,)),
        ]


def test_a_warehouses_aliases_are_stored_and_read_back(
    empty_store: OpenStore, now: datetime
) -> None:
    warehouse = Warehouse(
        warehouse_id="WH-09", name="Overflow", city="Ningbo", aliases=("宁波仓", "overflow depot")
    )
    with empty_store.writing() as tx:
        assert tx.add_warehouse(warehouse, replace=False)
    with empty_store.reading() as tx:
        assert tx.warehouses() == [warehouse]


def test_a_column_profile_is_saved_replaced_listed_and_deleted(
    empty_store: OpenStore, now: datetime
) -> None:
    profile = ColumnProfile(
        signature="abc",
        name="ERP stock",
        headers=("SKU", "Free stock", "可用库存"),
        mapping={"sku": "SKU", "on_hand": "Free stock"},
        created_at=now,
        updated_at=now,
        created_by="cli",
    )
    with empty_store.writing() as tx:
        tx.put_profile(profile)
        tx.put_profile(profile.model_copy(update={"mapping": {"on_hand": "可用库存"}}))
    with empty_store.reading() as tx:
        assert tx.profiles() == [profile.model_copy(update={"mapping": {"on_hand": "可用库存"}})]
        assert tx.profile("nope") is None
    with empty_store.writing() as tx:
        assert tx.delete_profile("abc") and not tx.delete_profile("abc")
    with empty_store.reading() as tx:
        assert tx.profiles() == []


def test_removing_stock_forgets_one_row_or_the_whole_item_and_says_how_many_rows_went(
    empty_store: OpenStore, now: datetime
) -> None:
    add_row(empty_store, now)
    with empty_store.writing() as tx:
        tx.add_warehouse(Warehouse(warehouse_id="WH-02", name="South"), replace=False)
        codes = (ItemCode(kind="barcode", code="690"),)
        tx.put_stock(RECORD.model_copy(update={"warehouse_id": "WH-02", "codes": codes}), now=now)
    with empty_store.writing() as tx:
        assert tx.remove_stock("SKU-1", "WH-02") == 1
        assert tx.remove_stock("SKU-1", "WH-02") == 0
    with empty_store.reading() as tx:
        assert [(r.sku, r.warehouse_id) for r in tx.stock_records()] == [("SKU-1", "WH-01")]
        assert tx.skus() == ["SKU-1"]
    with empty_store.writing() as tx:
        assert tx.remove_stock("SKU-1") == 1
    with empty_store.reading() as tx:
        assert tx.stock_records() == []
        assert tx.items() == []
