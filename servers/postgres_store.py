"""The PostgreSQL store: psycopg 3 over a connection pool.

Writes run in READ COMMITTED transactions. A rule checked inside one first holds what it
checks (`lock_stock`): the stock row `SELECT … FOR UPDATE` and, for an idempotency key, a
transaction-scoped advisory lock on the key. A second writer of the same row or key waits
for the first to commit and, since each statement of a READ COMMITTED transaction reads
what is committed when it starts, then sees the first one's order. Idempotency keys sit
under a unique index, and an order is inserted with `ON CONFLICT DO NOTHING`. Reads run in
one REPEATABLE READ, READ ONLY transaction and see one snapshot.

The schema is migrated when the store opens (`servers.postgres_schema`). `psycopg` errors
are mapped to `StoreError` here, once.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import partial
from typing import Any

import psycopg
from psycopg import errors
from psycopg.conninfo import conninfo_to_dict
from psycopg.rows import DictRow, dict_row
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool, PoolTimeout

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
from servers.postgres_schema import migrate
from servers.store import join_aliases, newest_first, proposals_select, split_aliases

__all__ = ["PostgresStore", "describe_url"]

logger = logging.getLogger(__name__)

_LIVE_STOCK = """
    SELECT s.sku, i.name, s.warehouse_id, s.on_hand, s.reorder_point, s.updated_at,
           s.on_order + COALESCE((
               SELECT SUM(o.quantity) FROM orders o
               WHERE o.sku = s.sku AND o.warehouse_id = s.warehouse_id AND o.status = 'open'
           ), 0)::INTEGER AS on_order
    FROM stock s JOIN items i ON i.sku = s.sku
"""

_ORDER = "SELECT * FROM orders WHERE number = %s"
_ORDER_FOR_UPDATE = _ORDER + " FOR UPDATE"

# `xmax = 0` holds for a row this statement inserted, not for one it updated.
_ADD_WAREHOUSE = """
    INSERT INTO warehouses (warehouse_id, name, city, aliases) VALUES (%s, %s, %s, %s)
    ON CONFLICT (warehouse_id) DO NOTHING RETURNING (xmax = 0) AS inserted
"""
_REPLACE_WAREHOUSE = """
    INSERT INTO warehouses (warehouse_id, name, city, aliases) VALUES (%s, %s, %s, %s)
    ON CONFLICT (warehouse_id) DO UPDATE SET
        name = excluded.name, city = excluded.city, aliases = excluded.aliases
    RETURNING (xmax = 0) AS inserted
"""

_dumps = partial(json.dumps, ensure_ascii=False, sort_keys=True, default=str)


def describe_url(url: str) -> str:
    """The URL with its password left out, for messages and logs."""
    try:
        parts = conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "postgresql://…"
    user = f"{parts['user']}@" if parts.get("user") else ""
    host = parts.get("host") or "localhost"
    port = f":{parts['port']}" if parts.get("port") else ""
    return f"postgresql://{user}{host}{port}/{parts.get('dbname') or ''}"


class PostgresStore:
    """`servers.store.Store` over a PostgreSQL database."""

    def __init__(self, url: str, *, busy_timeout_s: float = 10.0, max_connections: int = 8) -> None:
        self.url = url
        self.where = describe_url(url)
        self._lock_timeout_ms = max(1, round(busy_timeout_s * 1000))
        self._busy_timeout_s = busy_timeout_s
        try:
            with psycopg.connect(url, connect_timeout=10) as conn:
                migrate(conn, f"the store {self.where}")
        except psycopg.Error as exc:
            raise StoreError(f"cannot use {self.where} as a store: {exc}") from exc
        self._pool: ConnectionPool[psycopg.Connection[DictRow]] = ConnectionPool(
            url,
            min_size=1,
            max_size=max_connections,
            kwargs={"autocommit": True, "row_factory": dict_row},
            connection_class=psycopg.Connection[DictRow],
            timeout=max(busy_timeout_s, 1.0),
            # A connection the server dropped (a restart, an idle timeout) is replaced
            # before use rather than failing the transaction handed out on it.
            check=ConnectionPool.check_connection,
            name="stockshot-store",
            open=True,
        )

    def __enter__(self) -> PostgresStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self._pool.close()

    @contextmanager
    def reading(self) -> Iterator[_Transaction]:
        with self._transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", False) as tx:
            yield tx

    @contextmanager
    def writing(self) -> Iterator[_Transaction]:
        with self._transaction("BEGIN ISOLATION LEVEL READ COMMITTED", True) as tx:
            tx.execute(f"SET LOCAL lock_timeout = {self._lock_timeout_ms:d}")
            yield tx

    @contextmanager
    def _transaction(self, begin: str, writing: bool) -> Iterator[_Transaction]:
        if self._pool.closed:
            raise StoreError(f"the store {self.where} is closed")
        try:
            with self._pool.connection() as conn:
                conn.execute(begin)
                try:
                    yield _Transaction(conn, writing=writing)
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")
        except PoolTimeout as exc:
            raise StoreError(
                f"the store is busy: no connection to {self.where} came free within "
                f"{self._pool.timeout:g} s"
            ) from exc
        except errors.LockNotAvailable as exc:
            raise StoreError(
                f"the store is busy: {self.where} stayed locked by another writer for more "
                f"than {self._busy_timeout_s:g} s"
            ) from exc
        except (errors.DeadlockDetected, errors.SerializationFailure) as exc:
            raise StoreError(
                f"the store is busy: {self.where} rolled this write back to let a "
                f"concurrent one finish ({exc.sqlstate})"
            ) from exc
        except psycopg.Error as exc:
            raise StoreError(f"store {self.where}: {exc}") from exc


def _ts(moment: datetime) -> datetime:
    """A stamp as the stores keep it: UTC, whole seconds."""
    return moment.astimezone(UTC).replace(microsecond=0)


def _utc(value: datetime | None) -> datetime | None:
    return None if value is None else value.astimezone(UTC)


def _jsonb(value: Any) -> Jsonb | None:
    return None if value is None else Jsonb(value, dumps=_dumps)


class _Transaction:
    """Reads and writes inside one open transaction (`StoreReader` and `StoreWriter`)."""

    def __init__(self, conn: psycopg.Connection[DictRow], *, writing: bool) -> None:
        self._conn = conn
        # A write transaction locks the order it reads, as it may be about to change it.
        self._order_by_number = _ORDER_FOR_UPDATE if writing else _ORDER

    def execute(self, sql: str, params: Sequence[Any] = ()) -> psycopg.Cursor[DictRow]:
        return self._conn.execute(sql, params)

    def _all(self, sql: str, params: Sequence[Any] = ()) -> list[DictRow]:
        return self._conn.execute(sql, params).fetchall()

    def warehouses(self) -> list[Warehouse]:
        rows = self._all(
            "SELECT warehouse_id, name, city, aliases FROM warehouses ORDER BY warehouse_id"
        )
        return [Warehouse(**{**r, "aliases": split_aliases(r["aliases"])}) for r in rows]

    def skus(self) -> list[str]:
        return [r["sku"] for r in self._all("SELECT sku FROM items ORDER BY sku")]

    def stock_levels(
        self, *, warehouse_id: str | None = None, skus: Sequence[str] | None = None
    ) -> list[StockLevel]:
        where: list[str] = []
        params: list[Any] = []
        if warehouse_id is not None:
            where.append("s.warehouse_id = %s")
            params.append(warehouse_id)
        if skus is not None:
            where.append("s.sku = ANY(%s)")
            params.append(list(skus))
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
                updated_at=r["updated_at"].astimezone(UTC),
            )
            for r in self._all(sql, params)
        ]

    def stock_records(self) -> list[StockRecord]:
        rows = self._all(
            """SELECT s.sku, i.name, s.warehouse_id, s.on_hand, s.reorder_point, s.on_order
               FROM stock s JOIN items i ON i.sku = s.sku ORDER BY s.warehouse_id, s.sku"""
        )
        return [StockRecord(**r) for r in rows]

    def orders(self, query: OrderQuery) -> list[Order]:
        since = None if query.created_since is None else _ts(query.created_since)
        filters = [
            (f"{c} =", getattr(query, c)) for c in ("sku", "warehouse_id", "status", "run_id")
        ]
        sql, params = newest_first(
            "orders", [*filters, ("created_at >=", since)], query.limit, "%s"
        )
        return [_order(r) for r in self._all(sql, params)]

    def order(self, order_id: str) -> Order | None:
        number = parse_order_id(order_id)
        if number is None:
            return None
        rows = self._all(self._order_by_number, (number,))
        return _order(rows[0]) if rows else None

    def order_by_key(self, idempotency_key: str) -> Order | None:
        rows = self._all("SELECT * FROM orders WHERE idempotency_key = %s", (idempotency_key,))
        return _order(rows[0]) if rows else None

    def audit(self, *, limit: int) -> list[AuditEntry]:
        rows = self._all("SELECT * FROM audit_log ORDER BY id DESC LIMIT %s", (limit,))
        return [AuditEntry(**{**r, "at": r["at"].astimezone(UTC)}) for r in rows]

    def proposals(self, query: ProposalQuery) -> list[Proposal]:
        sql, params = proposals_select(query, "%s")
        return [_proposal(r) for r in self._all(sql, params)]

    def proposal(self, proposal_id: str) -> Proposal | None:
        number = parse_proposal_id(proposal_id)
        if number is None:
            return None
        rows = self._all("SELECT * FROM proposals WHERE number = %s", (number,))
        return _proposal(rows[0]) if rows else None

    def profiles(self) -> list[ColumnProfile]:
        rows = self._all("SELECT * FROM column_profiles ORDER BY updated_at DESC, signature")
        return [_profile(r) for r in rows]

    def profile(self, signature: str) -> ColumnProfile | None:
        rows = self._all("SELECT * FROM column_profiles WHERE signature = %s", (signature,))
        return _profile(rows[0]) if rows else None

    def put_profile(self, profile: ColumnProfile) -> None:
        self.execute(
            """INSERT INTO column_profiles
                   (signature, name, headers, mapping, created_at, updated_at, created_by)
               VALUES (%s, %s, %s, %s, %s, %s, %s)
               ON CONFLICT (signature) DO UPDATE SET
                   name = excluded.name, headers = excluded.headers, mapping = excluded.mapping,
                   updated_at = excluded.updated_at, created_by = excluded.created_by""",
            (
                profile.signature,
                profile.name,
                Jsonb(list(profile.headers)),
                Jsonb(profile.mapping),
                profile.created_at,
                profile.updated_at,
                profile.created_by,
            ),
        )

    def delete_profile(self, signature: str) -> bool:
        cursor = self.execute("DELETE FROM column_profiles WHERE signature = %s", (signature,))
        return cursor.rowcount > 0

    def lock_stock(
        self, sku: str, warehouse_id: str, *, idempotency_key: str | None = None
    ) -> None:
        # The key first, then the row: every writer takes them in this order.
        if idempotency_key is not None:
            self.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
                (f"stockshot order {idempotency_key}",),
            )
        self.execute(
            "SELECT 1 FROM stock WHERE sku = %s AND warehouse_id = %s FOR UPDATE",
            (sku, warehouse_id),
        )

    def insert_proposal(self, proposal: NewProposal, *, now: datetime) -> Proposal:
        row = self.execute(
            """INSERT INTO proposals (run_id, tool, arguments, arguments_sha256, observation,
                                      live, status, created_at, expires_at)
               VALUES (%s, %s, %s, %s, %s, %s, 'pending', %s, %s) RETURNING *""",
            (
                proposal.run_id,
                proposal.tool,
                _jsonb(proposal.arguments),
                proposal.arguments_sha256,
                _jsonb(proposal.observation),
                _jsonb(proposal.live),
                _ts(now),
                _ts(proposal.expires_at),
            ),
        ).fetchone()
        assert row is not None
        return _proposal(row)

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
        row = self.execute(
            """UPDATE proposals SET status = %s, decided_by = COALESCE(%s, decided_by),
                   decided_at = %s, reason = COALESCE(%s, reason),
                   result = COALESCE(%s, result), order_id = COALESCE(%s, order_id)
               WHERE number = %s AND status = %s RETURNING *""",
            (
                status,
                by,
                _ts(now),
                reason,
                _jsonb(result),
                order_id,
                parse_proposal_id(proposal_id),
                expect,
            ),
        ).fetchone()
        return None if row is None else _proposal(row)

    def add_warehouse(self, warehouse: Warehouse, *, replace: bool) -> bool:
        row = self.execute(
            _REPLACE_WAREHOUSE if replace else _ADD_WAREHOUSE,
            (warehouse.warehouse_id, warehouse.name, warehouse.city, join_aliases(warehouse)),
        ).fetchone()
        return row is not None and bool(row["inserted"])

    def put_stock(self, record: StockRecord, *, now: datetime) -> bool:
        self.execute(
            """INSERT INTO items (sku, name) VALUES (%s, %s)
               ON CONFLICT (sku) DO UPDATE SET name = excluded.name""",
            (record.sku, record.name),
        )
        row = self.execute(
            """INSERT INTO stock (sku, warehouse_id, on_hand, reorder_point, on_order,
                                  updated_at)
               VALUES (%s, %s, %s, %s, %s, %s)
               ON CONFLICT (sku, warehouse_id) DO UPDATE SET
                   on_hand = excluded.on_hand, reorder_point = excluded.reorder_point,
                   on_order = excluded.on_order, updated_at = excluded.updated_at
               RETURNING (xmax = 0) AS inserted""",
            (
                record.sku,
                record.warehouse_id,
                record.on_hand,
                record.reorder_point,
                record.on_order,
                _ts(now),
            ),
        ).fetchone()
        return row is not None and bool(row["inserted"])

    def insert_order(self, order: NewOrder, *, now: datetime) -> Order:
        row = self.execute(
            """INSERT INTO orders (sku, warehouse_id, quantity, status, created_at,
                                   idempotency_key, run_id, observed_on_hand, observed_at)
               VALUES (%s, %s, %s, 'open', %s, %s, %s, %s, %s)
               ON CONFLICT (idempotency_key) DO NOTHING RETURNING *""",
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
        ).fetchone()
        if row is None:
            raise StoreError(
                f"idempotency key {order.idempotency_key!r} is already used by another order"
            )
        return _order(row)

    def cancel_order(self, order_id: str, *, now: datetime) -> Order:
        row = self.execute(
            """UPDATE orders SET status = 'cancelled', cancelled_at = %s
               WHERE number = %s RETURNING *""",
            (_ts(now), parse_order_id(order_id)),
        ).fetchone()
        if row is None:
            raise StoreError(f"no order {order_id} to cancel")
        return _order(row)

    def append_audit(self, entry: NewAuditEntry) -> None:
        self.execute(
            """INSERT INTO audit_log (at, action, outcome, reason, arguments, order_id, run_id)
               VALUES (%s, %s, %s, %s, %s, %s, %s)""",
            (
                _ts(entry.at),
                entry.action,
                entry.outcome,
                entry.reason,
                _jsonb(entry.arguments),
                entry.order_id,
                entry.run_id,
            ),
        )


def _proposal(row: DictRow) -> Proposal:
    fields = dict(row)
    fields.update(
        id=format_proposal_id(fields.pop("number")),
        created_at=row["created_at"].astimezone(UTC),
        expires_at=row["expires_at"].astimezone(UTC),
        decided_at=_utc(row["decided_at"]),
    )
    return Proposal(**fields)


def _order(row: DictRow) -> Order:
    observed_at = row["observed_at"]
    fields = dict(row)
    fields.update(
        id=format_order_id(fields.pop("number")),
        created_at=row["created_at"].astimezone(UTC),
        cancelled_at=_utc(row["cancelled_at"]),
        observed_at=None if observed_at is None else datetime.fromisoformat(observed_at),
    )
    return Order(**fields)


def _profile(row: DictRow) -> ColumnProfile:
    fields = dict(row)
    fields.update(
        headers=tuple(row["headers"]),
        created_at=row["created_at"].astimezone(UTC),
        updated_at=row["updated_at"].astimezone(UTC),
    )
    return ColumnProfile(**fields)
