"""The embedded store: one SQLite file in WAL mode.

Every write runs in one `BEGIN IMMEDIATE` transaction, so writers queue on the database
lock (up to the busy timeout) and a rule checked inside the transaction still holds when
it commits, across threads and processes alike. Reads run in a deferred transaction and
see one snapshot. Connections are pooled; each is used by one thread at a time.

The schema is created and migrated when the store opens (`PRAGMA user_version`).
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from servers.errors import StoreError
from servers.models import (
    ApprovalStatus,
    AuditEntry,
    ColumnProfile,
    NewAuditEntry,
    NewOrder,
    NewProposal,
    Order,
    OrderQuery,
    Proposal,
    ProposalQuery,
    StockLevel,
    StockRecord,
    Warehouse,
    format_order_id,
    format_proposal_id,
    parse_order_id,
    parse_proposal_id,
)
from servers.store import join_aliases, newest_first, proposals_select, split_aliases

__all__ = ["SCHEMA_VERSION", "SqliteStore"]

logger = logging.getLogger(__name__)

# One tuple of statements per schema version; append, never edit a released one.
_MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE warehouses (
            warehouse_id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            city TEXT NOT NULL DEFAULT ''
        )""",
        """CREATE TABLE items (
            sku TEXT PRIMARY KEY,
            name TEXT NOT NULL
        )""",
        """CREATE TABLE stock (
            sku TEXT NOT NULL REFERENCES items (sku),
            warehouse_id TEXT NOT NULL REFERENCES warehouses (warehouse_id),
            on_hand INTEGER NOT NULL CHECK (on_hand >= 0),
            reorder_point INTEGER NOT NULL CHECK (reorder_point >= 0),
            on_order INTEGER NOT NULL DEFAULT 0 CHECK (on_order >= 0),
            updated_at TEXT NOT NULL,
            PRIMARY KEY (sku, warehouse_id)
        )""",
        """CREATE TABLE orders (
            number INTEGER PRIMARY KEY AUTOINCREMENT,
            sku TEXT NOT NULL,
            warehouse_id TEXT NOT NULL,
            quantity INTEGER NOT NULL CHECK (quantity > 0),
            status TEXT NOT NULL CHECK (status IN ('open', 'cancelled')),
            created_at TEXT NOT NULL,
            cancelled_at TEXT,
            idempotency_key TEXT UNIQUE,
            run_id TEXT,
            observed_on_hand INTEGER,
            observed_at TEXT,
            FOREIGN KEY (sku, warehouse_id) REFERENCES stock (sku, warehouse_id)
        )""",
        "CREATE INDEX orders_by_stock ON orders (sku, warehouse_id, status)",
        """CREATE TABLE audit_log (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            at TEXT NOT NULL,
            action TEXT NOT NULL,
            outcome TEXT NOT NULL CHECK (outcome IN ('accepted', 'refused')),
            reason TEXT NOT NULL,
            arguments TEXT NOT NULL,
            order_id TEXT,
            run_id TEXT
        )""",
    ),
    (
        """CREATE TABLE proposals (
            number INTEGER PRIMARY KEY AUTOINCREMENT,
            run_id TEXT,
            tool TEXT NOT NULL,
            arguments TEXT NOT NULL,
            arguments_sha256 TEXT NOT NULL,
            observation TEXT,
            live TEXT,
            status TEXT NOT NULL
                CHECK (status IN ('pending', 'approved', 'denied', 'expired', 'failed')),
            created_at TEXT NOT NULL,
            expires_at TEXT NOT NULL,
            decided_by TEXT,
            decided_at TEXT,
            reason TEXT,
            result TEXT,
            order_id TEXT
        )""",
        "CREATE INDEX proposals_by_status ON proposals (status, number)",
        "CREATE INDEX proposals_by_run ON proposals (run_id)",
    ),
    ("ALTER TABLE warehouses ADD COLUMN aliases TEXT NOT NULL DEFAULT ''",),
    (
        """CREATE TABLE column_profiles (
            signature TEXT PRIMARY KEY,
            name TEXT NOT NULL DEFAULT '',
            headers TEXT NOT NULL,
            mapping TEXT NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            created_by TEXT
        )""",
    ),
)
SCHEMA_VERSION = len(_MIGRATIONS)

_LIVE_STOCK = """
    SELECT s.sku, i.name, s.warehouse_id, s.on_hand, s.reorder_point, s.updated_at,
           s.on_order + COALESCE((
               SELECT SUM(o.quantity) FROM orders o
               WHERE o.sku = s.sku AND o.warehouse_id = s.warehouse_id AND o.status = 'open'
           ), 0) AS on_order
    FROM stock s JOIN items i ON i.sku = s.sku
"""


def _ts(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def _dt(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


class SqliteStore:
    """`servers.store.Store` over one SQLite file."""

    def __init__(self, path: Path, *, busy_timeout_s: float = 10.0, max_idle: int = 8) -> None:
        self.path = path
        self.where = str(path)
        self._busy_timeout_s = busy_timeout_s
        self._max_idle = max_idle
        self._idle: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._closed = False
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the store's folder {path.parent}: {exc}") from exc
        conn = self._connect()
        try:
            self._prepare(conn)
        except BaseException:
            conn.close()
            raise
        self._release(conn)

    def __enter__(self) -> SqliteStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()

    @contextmanager
    def reading(self) -> Iterator[_Transaction]:
        with self._transaction("BEGIN") as tx:
            yield tx

    @contextmanager
    def writing(self) -> Iterator[_Transaction]:
        with self._transaction("BEGIN IMMEDIATE") as tx:
            yield tx

    @contextmanager
    def _transaction(self, begin: str) -> Iterator[_Transaction]:
        conn = self._acquire()
        try:
            conn.execute(begin)
            try:
                yield _Transaction(conn)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            raise self._store_error(exc) from exc
        finally:
            self._release(conn)

    def _store_error(self, exc: sqlite3.Error) -> StoreError:
        if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
            return StoreError(
                f"the store is busy: {self.path} stayed locked by another writer for more "
                f"than {self._busy_timeout_s:g} s"
            )
        return StoreError(f"store {self.path}: {exc}")

    def _connect(self) -> sqlite3.Connection:
        try:
            conn = sqlite3.connect(
                self.path,
                timeout=self._busy_timeout_s,
                isolation_level=None,
                check_same_thread=False,
            )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the store {self.path}: {exc}") from exc
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA foreign_keys = ON")
        return conn

    def _prepare(self, conn: sqlite3.Connection) -> None:
        try:
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode != "wal":
                logger.warning("store %s runs in journal mode %s, not WAL", self.path, mode)
            conn.execute("BEGIN IMMEDIATE")
            try:
                self._migrate(conn)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot use {self.path} as a store: {exc}") from exc

    def _migrate(self, conn: sqlite3.Connection) -> None:
        version: int = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"the store {self.path} has schema version {version}, newer than this "
                f"version of stockshot understands ({SCHEMA_VERSION}); upgrade stockshot"
            )
        for number, statements in enumerate(_MIGRATIONS[version:], start=version + 1):
            for statement in statements:
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {number:d}")
            logger.info("store %s migrated to schema version %d", self.path, number)

    def _acquire(self) -> sqlite3.Connection:
        with self._lock:
            if self._closed:
                raise StoreError(f"the store {self.path} is closed")
            if self._idle:
                return self._idle.pop()
        return self._connect()

    def _release(self, conn: sqlite3.Connection) -> None:
        if conn.in_transaction:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                logger.warning("dropping a store connection that could not roll back")
                conn.close()
                return
        with self._lock:
            if not self._closed and len(self._idle) < self._max_idle:
                self._idle.append(conn)
                return
        conn.close()


class _Transaction:
    """Reads and writes inside one open transaction (`StoreReader` and `StoreWriter`)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def _all(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return self._conn.execute(sql, params).fetchall()

    def warehouses(self) -> list[Warehouse]:
        rows = self._all(
            "SELECT warehouse_id, name, city, aliases FROM warehouses ORDER BY warehouse_id"
        )
        return [
            Warehouse(warehouse_id=r[0], name=r[1], city=r[2], aliases=split_aliases(r[3]))
            for r in rows
        ]

    def skus(self) -> list[str]:
        return [r[0] for r in self._all("SELECT sku FROM items ORDER BY sku")]

    def stock_levels(
        self, *, warehouse_id: str | None = None, skus: Sequence[str] | None = None
    ) -> list[StockLevel]:
        where: list[str] = []
        params: list[Any] = []
        if warehouse_id is not None:
            where.append("s.warehouse_id = ?")
            params.append(warehouse_id)
        if skus is not None:
            where.append(f"s.sku IN ({', '.join('?' * len(skus))})")
            params.extend(skus)
        sql = _LIVE_STOCK
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY s.warehouse_id, s.sku"
        return [
            StockLevel.live(
                sku=r["sku"],
                name=r["name"],
                warehouse_id=r["warehouse_id"],
                on_hand=r["on_hand"],
                on_order=r["on_order"],
                reorder_point=r["reorder_point"],
                updated_at=datetime.fromisoformat(r["updated_at"]),
            )
            for r in self._all(sql, params)
        ]

    def stock_records(self) -> list[StockRecord]:
        rows = self._all(
            """SELECT s.sku, i.name, s.warehouse_id, s.on_hand, s.reorder_point, s.on_order
               FROM stock s JOIN items i ON i.sku = s.sku ORDER BY s.warehouse_id, s.sku"""
        )
        return [StockRecord(**dict(r)) for r in rows]

    def orders(self, query: OrderQuery) -> list[Order]:
        since = None if query.created_since is None else _ts(query.created_since)
        filters = [
            (f"{c} =", getattr(query, c)) for c in ("sku", "warehouse_id", "status", "run_id")
        ]
        sql, params = newest_first("orders", [*filters, ("created_at >=", since)], query.limit, "?")
        return [_order(r) for r in self._all(sql, params)]

    def order(self, order_id: str) -> Order | None:
        number = parse_order_id(order_id)
        if number is None:
            return None
        rows = self._all("SELECT * FROM orders WHERE number = ?", (number,))
        return _order(rows[0]) if rows else None

    def order_by_key(self, idempotency_key: str) -> Order | None:
        rows = self._all("SELECT * FROM orders WHERE idempotency_key = ?", (idempotency_key,))
        return _order(rows[0]) if rows else None

    def audit(self, *, limit: int) -> list[AuditEntry]:
        rows = self._all("SELECT * FROM audit_log ORDER BY id DESC LIMIT ?", (limit,))
        return [
            AuditEntry(
                id=r["id"],
                at=datetime.fromisoformat(r["at"]),
                action=r["action"],
                outcome=r["outcome"],
                reason=r["reason"],
                arguments=json.loads(r["arguments"]),
                order_id=r["order_id"],
                run_id=r["run_id"],
            )
            for r in rows
        ]

    def proposals(self, query: ProposalQuery) -> list[Proposal]:
        sql, params = proposals_select(query, "?")
        return [_proposal(r) for r in self._all(sql, params)]

    def proposal(self, proposal_id: str) -> Proposal | None:
        number = parse_proposal_id(proposal_id)
        if number is None:
            return None
        rows = self._all("SELECT * FROM proposals WHERE number = ?", (number,))
        return _proposal(rows[0]) if rows else None

    def profiles(self) -> list[ColumnProfile]:
        rows = self._all("SELECT * FROM column_profiles ORDER BY updated_at DESC, signature")
        return [_profile(r) for r in rows]

    def profile(self, signature: str) -> ColumnProfile | None:
        rows = self._all("SELECT * FROM column_profiles WHERE signature = ?", (signature,))
        return _profile(rows[0]) if rows else None

    def put_profile(self, profile: ColumnProfile) -> None:
        self._conn.execute(
            """INSERT INTO column_profiles
                   (signature, name, headers, mapping, created_at, updated_at, created_by)
               VALUES (?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT (signature) DO UPDATE SET
                   name = excluded.name, headers = excluded.headers, mapping = excluded.mapping,
                   updated_at = excluded.updated_at, created_by = excluded.created_by""",
            (
                profile.signature,
                profile.name,
                json.dumps(list(profile.headers), ensure_ascii=False),
                json.dumps(profile.mapping, ensure_ascii=False, sort_keys=True),
                profile.created_at.isoformat(),
                profile.updated_at.isoformat(),
                profile.created_by,
            ),
        )

    def delete_profile(self, signature: str) -> bool:
        cursor = self._conn.execute("DELETE FROM column_profiles WHERE signature = ?", (signature,))
        return cursor.rowcount > 0

    def lock_stock(
        self, sku: str, warehouse_id: str, *, idempotency_key: str | None = None
    ) -> None:
        """Nothing to do: `BEGIN IMMEDIATE` already holds the whole database."""

    def insert_proposal(self, proposal: NewProposal, *, now: datetime) -> Proposal:
        cursor = self._conn.execute(
            """INSERT INTO proposals (run_id, tool, arguments, arguments_sha256, observation,
                                      live, status, created_at, expires_at)
               VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?)""",
            (
                proposal.run_id,
                proposal.tool,
                _json(proposal.arguments),
                proposal.arguments_sha256,
                None if proposal.observation is None else _json(proposal.observation),
                None if proposal.live is None else _json(proposal.live),
                _ts(now),
                _ts(proposal.expires_at),
            ),
        )
        assert cursor.lastrowid is not None
        created = self.proposal(format_proposal_id(cursor.lastrowid))
        assert created is not None
        return created

    def decide_proposal(
        self,
        proposal_id: str,
        *,
        expect: ApprovalStatus,
        status: ApprovalStatus,
        now: datetime,
        by: str | None = None,
        reason: str | None = None,
        result: dict[str, Any] | None = None,
        order_id: str | None = None,
    ) -> Proposal | None:
        number = parse_proposal_id(proposal_id)
        changed = self._conn.execute(
            """UPDATE proposals SET status = ?, decided_by = COALESCE(?, decided_by),
                   decided_at = ?, reason = COALESCE(?, reason),
                   result = COALESCE(?, result), order_id = COALESCE(?, order_id)
               WHERE number = ? AND status = ?""",
            (
                status,
                by,
                _ts(now),
                reason,
                None if result is None else _json(result),
                order_id,
                number,
                expect,
            ),
        ).rowcount
        return self.proposal(proposal_id) if changed else None

    def add_warehouse(self, warehouse: Warehouse, *, replace: bool) -> bool:
        exists = self._all(
            "SELECT 1 FROM warehouses WHERE warehouse_id = ?", (warehouse.warehouse_id,)
        )
        if exists and not replace:
            return False
        self._conn.execute(
            """INSERT INTO warehouses (warehouse_id, name, city, aliases) VALUES (?, ?, ?, ?)
               ON CONFLICT (warehouse_id) DO UPDATE SET
                   name = excluded.name, city = excluded.city, aliases = excluded.aliases""",
            (warehouse.warehouse_id, warehouse.name, warehouse.city, join_aliases(warehouse)),
        )
        return not exists

    def put_stock(self, record: StockRecord, *, now: datetime) -> bool:
        self._conn.execute(
            """INSERT INTO items (sku, name) VALUES (?, ?)
               ON CONFLICT (sku) DO UPDATE SET name = excluded.name""",
            (record.sku, record.name),
        )
        exists = self._all(
            "SELECT 1 FROM stock WHERE sku = ? AND warehouse_id = ?",
            (record.sku, record.warehouse_id),
        )
        self._conn.execute(
            """INSERT INTO stock (sku, warehouse_id, on_hand, reorder_point, on_order, updated_at)
               VALUES (?, ?, ?, ?, ?, ?)
               ON CONFLICT (sku, warehouse_id) DO UPDATE SET
                   on_hand = excluded.on_hand, reorder_point = excluded.reorder_point,
                   on_order = excluded.on_order, updated_at = excluded.updated_at""",
            (
                record.sku,
                record.warehouse_id,
                record.on_hand,
                record.reorder_point,
                record.on_order,
                _ts(now),
            ),
        )
        return not exists

    def insert_order(self, order: NewOrder, *, now: datetime) -> Order:
        cursor = self._conn.execute(
            """INSERT INTO orders (sku, warehouse_id, quantity, status, created_at,
                                   idempotency_key, run_id, observed_on_hand, observed_at)
               VALUES (?, ?, ?, 'open', ?, ?, ?, ?, ?)""",
            (
                order.sku,
                order.warehouse_id,
                order.quantity,
                _ts(now),
                order.idempotency_key,
                order.run_id,
                order.observed_on_hand,
                None if order.observed_at is None else order.observed_at.isoformat(),
            ),
        )
        assert cursor.lastrowid is not None
        created = self.order(format_order_id(cursor.lastrowid))
        assert created is not None
        return created

    def cancel_order(self, order_id: str, *, now: datetime) -> Order:
        number = parse_order_id(order_id)
        self._conn.execute(
            "UPDATE orders SET status = 'cancelled', cancelled_at = ? WHERE number = ?",
            (_ts(now), number),
        )
        cancelled = self.order(order_id)
        if cancelled is None:
            raise StoreError(f"no order {order_id} to cancel")
        return cancelled

    def append_audit(self, entry: NewAuditEntry) -> None:
        self._conn.execute(
            """INSERT INTO audit_log (at, action, outcome, reason, arguments, order_id, run_id)
               VALUES (?, ?, ?, ?, ?, ?, ?)""",
            (
                _ts(entry.at),
                entry.action,
                entry.outcome,
                entry.reason,
                _json(entry.arguments),
                entry.order_id,
                entry.run_id,
            ),
        )


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def _proposal(row: sqlite3.Row) -> Proposal:
    created_at, expires_at = _dt(row["created_at"]), _dt(row["expires_at"])
    assert created_at is not None and expires_at is not None
    return Proposal(
        id=format_proposal_id(row["number"]),
        run_id=row["run_id"],
        tool=row["tool"],
        arguments=json.loads(row["arguments"]),
        arguments_sha256=row["arguments_sha256"],
        observation=None if row["observation"] is None else json.loads(row["observation"]),
        live=None if row["live"] is None else json.loads(row["live"]),
        status=row["status"],
        created_at=created_at,
        expires_at=expires_at,
        decided_by=row["decided_by"],
        decided_at=_dt(row["decided_at"]),
        reason=row["reason"],
        result=None if row["result"] is None else json.loads(row["result"]),
        order_id=row["order_id"],
    )


def _order(row: sqlite3.Row) -> Order:
    created_at = _dt(row["created_at"])
    assert created_at is not None
    return Order(
        id=format_order_id(row["number"]),
        sku=row["sku"],
        warehouse_id=row["warehouse_id"],
        quantity=row["quantity"],
        status=row["status"],
        created_at=created_at,
        cancelled_at=_dt(row["cancelled_at"]),
        idempotency_key=row["idempotency_key"],
        run_id=row["run_id"],
        observed_on_hand=row["observed_on_hand"],
        observed_at=_dt(row["observed_at"]),
    )


def _profile(row: sqlite3.Row) -> ColumnProfile:
    return ColumnProfile(
        signature=row["signature"],
        name=row["name"],
        headers=tuple(json.loads(row["headers"])),
        mapping=json.loads(row["mapping"]),
        created_at=datetime.fromisoformat(row["created_at"]),
        updated_at=datetime.fromisoformat(row["updated_at"]),
        created_by=row["created_by"],
    )
