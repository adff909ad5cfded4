"""The SQL store: `store.protocol.Store` over SQLAlchemy Core, for SQLite and PostgreSQL alike.

Every statement is written once, against `store.schema`; what the databases do
differently is in `store.dialects`. A write runs in one exclusive transaction: a rule
checked inside it first holds what it checks (`lock_stock`), so it still holds at commit,
across threads and processes. A read sees one snapshot. Idempotency keys sit under a unique
index and an order is inserted with `ON CONFLICT DO NOTHING`. Driver errors become
`StoreError` here, once. The schema is migrated when the store opens (`store.migrate`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Integer,
    Row,
    Select,
    cast,
    delete,
    exc as sa_exc,
    func,
    literal,
    select,
    update,
)

from store import outbox
from store.dialects import SqlDialect, Upsert
from store.errors import StoreError
from store.migrate import migrate
from store.models import (
    ApprovalStatus,
    Attempt,
    AuditEntry,
    ColumnProfile,
    Delivery,
    DeliveryRecord,
    Item,
    ItemCode,
    JsonObject,
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
    pending_key,
)
from store.protocol import join_aliases, split_aliases
from store.schema import (
    audit_log,
    column_profiles,
    item_codes,
    items,
    orders,
    proposals,
    stock,
    warehouses,
)

__all__ = ["SqlStore"]

logger = logging.getLogger(__name__)


def _ts(moment: datetime) -> datetime:
    """A stamp as the store keeps it: UTC, whole seconds."""
    return moment.astimezone(UTC).replace(microsecond=0)


class SqlStore:
    """`store.protocol.Store` over one SQL database (`store.stores.open_store` opens it)."""

    def __init__(self, dialect: SqlDialect) -> None:
        self._dialect = dialect
        self.where = dialect.where
        self._closed = False
        # What a statement may raise: SQLAlchemy's errors and the driver's own.
        self._errors: tuple[type[BaseException], ...] = (
            sa_exc.SQLAlchemyError,
            *dialect.driver_errors,
        )
        try:
            dialect.prepare_database(dialect)
            with self._connection(writing=True) as conn, conn.begin():
                migrate(conn, f"the store {self.where}")
        except StoreError:
            dialect.engine.dispose()
            raise
        except self._errors as exc:
            dialect.engine.dispose()
            orig = exc.orig if isinstance(exc, sa_exc.DBAPIError) else exc
            raise StoreError(f"cannot use {self.where} as a store: {orig}") from exc

    def __enter__(self) -> SqlStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self._closed = True
        self._dialect.engine.dispose()

    @contextmanager
    def reading(self) -> Iterator[_Transaction]:
        with self._transaction(writing=False) as tx:
            yield tx

    @contextmanager
    def writing(self) -> Iterator[_Transaction]:
        with self._transaction(writing=True) as tx:
            yield tx

    @contextmanager
    def _connection(self, *, writing: bool) -> Iterator[Connection]:
        with self._dialect.engine.connect() as conn:
            if writing:
                self._dialect.prepare_writing(conn)
            else:
                self._dialect.prepare_reading(conn)
            yield conn

    @contextmanager
    def _transaction(self, *, writing: bool) -> Iterator[_Transaction]:
        if self._closed:
            raise StoreError(f"the store {self.where} is closed")
        try:
            with self._connection(writing=writing) as conn, conn.begin():
                if writing:
                    self._dialect.writing_begun(conn)
                yield _Transaction(conn, self._dialect, writing=writing)
        except self._errors as exc:
            raise self._dialect.store_error(exc) from exc


_LIVE_ON_ORDER = (
    select(func.coalesce(func.sum(orders.c.quantity), 0))
    .where(
        orders.c.sku == stock.c.sku,
        orders.c.warehouse_id == stock.c.warehouse_id,
        orders.c.status == "open",
    )
    .scalar_subquery()
)

_LIVE_STOCK = select(
    stock.c.sku,
    items.c.name,
    stock.c.warehouse_id,
    stock.c.on_hand,
    stock.c.reorder_point,
    stock.c.updated_at,
    cast(stock.c.on_order + _LIVE_ON_ORDER, Integer).label("on_order"),
).join_from(stock, items, items.c.sku == stock.c.sku)

_STOCK_RECORDS = (
    select(
        stock.c.sku,
        items.c.name,
        stock.c.warehouse_id,
        stock.c.on_hand,
        stock.c.reorder_point,
        stock.c.on_order,
    )
    .join_from(stock, items, items.c.sku == stock.c.sku)
    .order_by(stock.c.warehouse_id, stock.c.sku)
)


_ITEM_CODES = select(item_codes).order_by(item_codes.c.sku, item_codes.c.kind, item_codes.c.code)


def _codes_by_sku(rows: Sequence[Row[Any]]) -> dict[str, tuple[ItemCode, ...]]:
    found: dict[str, list[ItemCode]] = {}
    for r in rows:
        found.setdefault(r.sku, []).append(ItemCode(kind=r.kind, code=r.code))
    return {sku: tuple(codes) for sku, codes in found.items()}


class _Transaction:
    """Reads and writes inside one open transaction (`StoreReader` and `StoreWriter`)."""

    def __init__(self, conn: Connection, dialect: SqlDialect, *, writing: bool) -> None:
        self._conn = conn
        self._dialect = dialect
        # A write transaction locks the order it reads, as it may be about to change it.
        self._writing = writing

    def _rows(self, statement: Any) -> Sequence[Row[Any]]:
        return self._conn.execute(statement).all()

    def warehouses(self) -> list[Warehouse]:
        rows = self._rows(select(warehouses).order_by(warehouses.c.warehouse_id))
        return [
            Warehouse(warehouse_id=r.warehouse_id, name=r.name, city=r.city,
                      aliases=split_aliases(r.aliases))
            for r in rows
        ]  # fmt: skip

    def skus(self) -> list[str]:
        return list(self._conn.scalars(select(items.c.sku).order_by(items.c.sku)))

    def items(self) -> list[Item]:
        codes = _codes_by_sku(self._rows(_ITEM_CODES))
        rows = self._rows(select(items).order_by(items.c.sku))
        return [Item(sku=r.sku, name=r.name, codes=codes.get(r.sku, ())) for r in rows]

    def stock_levels(
        self, *, warehouse_id: str | None = None, skus: Sequence[str] | None = None
    ) -> list[StockLevel]:
        query = _LIVE_STOCK
        if warehouse_id is not None:
            query = query.where(stock.c.warehouse_id == warehouse_id)
        if skus is not None:
            query = query.where(stock.c.sku.in_(list(skus)))
        query = query.order_by(stock.c.warehouse_id, stock.c.sku)
        return [StockLevel.live(**r._asdict()) for r in self._rows(query)]

    def stock_records(self) -> list[StockRecord]:
        codes = _codes_by_sku(self._rows(_ITEM_CODES))
        return [
            StockRecord(**r._asdict(), codes=codes.get(r.sku, ()))
            for r in self._rows(_STOCK_RECORDS)
        ]

    def orders(self, query: OrderQuery) -> list[Order]:
        since = None if query.created_since is None else _ts(query.created_since)
        conditions = [
            orders.c[name] == getattr(query, name)
            for name in ("sku", "warehouse_id", "status", "run_id")
            if getattr(query, name) is not None
        ]
        if since is not None:
            conditions.append(orders.c.created_at >= since)
        return [_order(r) for r in self._rows(_newest(orders, conditions, query.limit))]

    def order(self, order_id: str) -> Order | None:
        number = parse_order_id(order_id)
        if number is None:
            return None
        query = select(orders).where(orders.c.number == number)
        if self._writing:
            query = query.with_for_update()
        rows = self._rows(query)
        return _order(rows[0]) if rows else None

    def order_by_key(self, idempotency_key: str) -> Order | None:
        rows = self._rows(select(orders).where(orders.c.idempotency_key == idempotency_key))
        return _order(rows[0]) if rows else None

    def audit(self, *, limit: int, order_ids: Sequence[str] | None = None) -> list[AuditEntry]:
        query = select(audit_log).order_by(audit_log.c.id.desc()).limit(limit)
        if order_ids is not None:
            query = query.where(audit_log.c.order_id.in_(list(order_ids)))
        return [AuditEntry(**r._asdict()) for r in self._rows(query)]

    def proposals(self, query: ProposalQuery) -> list[Proposal]:
        conditions = [
            proposals.c[name] == getattr(query, name)
            for name in ("status", "run_id")
            if getattr(query, name) is not None
        ]
        if query.order_ids is not None:
            conditions.append(proposals.c.order_id.in_(list(query.order_ids)))
        return [_proposal(r) for r in self._rows(_newest(proposals, conditions, query.limit))]

    def proposal(self, proposal_id: str) -> Proposal | None:
        number = parse_proposal_id(proposal_id)
        if number is None:
            return None
        rows = self._rows(select(proposals).where(proposals.c.number == number))
        return _proposal(rows[0]) if rows else None

    def profiles(self) -> list[ColumnProfile]:
        query = select(column_profiles).order_by(
            column_profiles.c.updated_at.desc(), column_profiles.c.signature
        )
        return [_profile(r) for r in self._rows(query)]

    def profile(self, signature: str) -> ColumnProfile | None:
        rows = self._rows(select(column_profiles).where(column_profiles.c.signature == signature))
        return _profile(rows[0]) if rows else None

    def put_profile(self, profile: ColumnProfile) -> None:
        values = profile.model_dump()
        values["headers"] = list(profile.headers)
        statement = self._dialect.insert(column_profiles).values(**values)
        kept = ("name", "headers", "mapping", "updated_at", "created_by")
        self._conn.execute(
            statement.on_conflict_do_update(
                index_elements=["signature"], set_={c: statement.excluded[c] for c in kept}
            )
        )

    def delete_profile(self, signature: str) -> bool:
        cursor = self._conn.execute(
            delete(column_profiles).where(column_profiles.c.signature == signature)
        )
        return cursor.rowcount > 0

    def remove_stock(self, sku: str, warehouse_id: str | None = None) -> int:
        row = stock.c.sku == sku
        if warehouse_id is not None:
            return self._conn.execute(
                delete(stock).where(row, stock.c.warehouse_id == warehouse_id)
            ).rowcount
        removed = self._conn.execute(delete(stock).where(row)).rowcount
        self._conn.execute(delete(item_codes).where(item_codes.c.sku == sku))
        self._conn.execute(delete(items).where(items.c.sku == sku))
        return removed

    def lock_stock(
        self, sku: str, warehouse_id: str, *, idempotency_key: str | None = None
    ) -> None:
        self._dialect.lock_stock(self._conn, sku, warehouse_id, idempotency_key)

    def insert_proposal(self, proposal: NewProposal, *, now: datetime) -> Proposal | None:
        values = proposal.model_dump()
        values.update(
            status="pending",
            created_at=_ts(now),
            expires_at=_ts(proposal.expires_at),
            pending_key=pending_key(proposal.tool, proposal.arguments),
        )
        statement = (
            self._dialect.insert(proposals)
            .values(**values)
            .on_conflict_do_nothing(index_elements=["pending_key"])
            .returning(*proposals.c)
        )
        row = self._conn.execute(statement).one_or_none()
        return None if row is None else _proposal(row)

    def pending_proposal(self, key: str) -> Proposal | None:
        query = select(proposals).where(proposals.c.pending_key == key)
        if self._writing:
            query = query.with_for_update()
        rows = self._rows(query)
        return _proposal(rows[0]) if rows else None

    def decide_proposal(
        self,
        proposal_id: str,
        *,
        expect: ApprovalStatus,
        status: ApprovalStatus,
        now: datetime,
        by: str | None = None,
        reason: str | None = None,
        result: JsonObject | None = None,
        order_id: str | None = None,
    ) -> Proposal | None:
        changes: dict[str, Any] = {"status": status, "decided_at": _ts(now)}
        # What the decision does not say, it leaves as it was.
        given = {"decided_by": by, "reason": reason, "result": result, "order_id": order_id}
        changes.update({name: value for name, value in given.items() if value is not None})
        if status != "pending":
            changes["pending_key"] = None
        row = self._conn.execute(
            update(proposals)
            .where(
                proposals.c.number == parse_proposal_id(proposal_id),
                proposals.c.status == expect,
            )
            .values(**changes)
            .returning(*proposals.c)
        ).one_or_none()
        return None if row is None else _proposal(row)

    def add_warehouse(self, warehouse: Warehouse, *, replace: bool) -> bool:
        values = warehouse.model_dump()
        values["aliases"] = join_aliases(warehouse)
        statement = self._dialect.insert(warehouses).values(**values)
        kept = ("name", "city", "aliases")
        upsert = (
            statement.on_conflict_do_update(
                index_elements=["warehouse_id"], set_={c: statement.excluded[c] for c in kept}
            )
            if replace
            else statement.on_conflict_do_nothing(index_elements=["warehouse_id"])
        )
        return self._upsert(upsert, warehouses.c.warehouse_id == warehouse.warehouse_id)

    def put_stock(self, record: StockRecord, *, now: datetime) -> bool:
        item = self._dialect.insert(items).values(sku=record.sku, name=record.name)
        self._conn.execute(
            item.on_conflict_do_update(index_elements=["sku"], set_={"name": item.excluded.name})
        )
        for code in record.codes:
            known = self._dialect.insert(item_codes).values(
                code=code.code, sku=record.sku, kind=code.kind
            )
            self._conn.execute(
                known.on_conflict_do_update(
                    index_elements=["code", "sku"], set_={"kind": known.excluded.kind}
                )
            )
        values = record.model_dump(exclude={"name", "codes"})
        statement = self._dialect.insert(stock).values(**values, updated_at=_ts(now))
        kept = ("on_hand", "reorder_point", "on_order", "updated_at")
        upsert = statement.on_conflict_do_update(
            index_elements=["sku", "warehouse_id"], set_={c: statement.excluded[c] for c in kept}
        )
        row = (stock.c.sku == record.sku) & (stock.c.warehouse_id == record.warehouse_id)
        return self._upsert(upsert, row)

    def _upsert(self, statement: Upsert, row: ColumnElement[bool]) -> bool:
        """Run an upsert; True when it inserted the row (`row` finds it)."""
        inserted = self._dialect.inserted
        if inserted is not None:
            found = self._conn.execute(statement.returning(inserted)).one_or_none()
            return found is not None and bool(found.inserted)
        existed = self._conn.execute(select(literal(1)).where(row).limit(1)).first() is not None
        self._conn.execute(statement)
        return not existed

    def insert_order(self, order: NewOrder, *, now: datetime) -> Order:
        values = order.model_dump()
        if order.observed_at is not None:
            values["observed_at"] = order.observed_at.isoformat()
        statement = (
            self._dialect.insert(orders)
            .values(**values, status="open", created_at=_ts(now))
            .on_conflict_do_nothing(index_elements=["idempotency_key"])
            .returning(*orders.c)
        )
        row = self._conn.execute(statement).one_or_none()
        if row is None:
            raise StoreError(
                f"idempotency key {order.idempotency_key!r} is already used by another order"
            )
        return _order(row)

    def cancel_order(self, order_id: str, *, now: datetime) -> Order:
        row = self._conn.execute(
            update(orders)
            .where(orders.c.number == parse_order_id(order_id))
            .values(status="cancelled", cancelled_at=_ts(now))
            .returning(*orders.c)
        ).one_or_none()
        if row is None:
            raise StoreError(f"no order {order_id} to cancel")
        return _order(row)

    def append_audit(self, entry: NewAuditEntry) -> None:
        values = entry.model_dump()
        values["at"] = _ts(entry.at)
        self._conn.execute(audit_log.insert().values(**values))

    # ---- events and their webhook deliveries (`store.outbox`)

    def append_event(self, name: str, body: JsonObject, *, now: datetime) -> int:
        return outbox.append_event(self._conn, name, body, _ts(now))

    def claim_deliveries(
        self, urls: Sequence[str], *, now: datetime, lease: timedelta, since: datetime, limit: int
    ) -> list[Delivery]:
        return outbox.claim_deliveries(
            self._conn, self._dialect.insert, urls, now=_ts(now), until=_ts(now + lease),
            since=_ts(since), limit=limit,
        )  # fmt: skip

    def record_attempt(self, attempt: Attempt) -> None:
        stamped = {"at": _ts(attempt.at), "next_at": _ts(attempt.next_at)}
        outbox.record_attempt(self._conn, attempt.model_copy(update=stamped))

    def deliveries(self, *, limit: int) -> list[DeliveryRecord]:
        return outbox.deliveries(self._conn, limit)

    def attempts_of(self, delivery: int) -> list[tuple[datetime, int | None, str | None]]:
        return outbox.attempts_of(self._conn, delivery)

    def prune_events(self, *, before: datetime) -> int:
        return outbox.prune(self._conn, _ts(before))


def _newest(table: Any, conditions: list[ColumnElement[bool]], limit: int) -> Select[Any]:
    """`table`'s rows that meet every condition, newest first."""
    return select(table).where(*conditions).order_by(table.c.number.desc()).limit(limit)


def _proposal(row: Row[Any]) -> Proposal:
    fields = row._asdict()
    fields["id"] = format_proposal_id(fields.pop("number"))
    del fields["pending_key"]  # the store's own: the status says whether it is pending
    return Proposal(**fields)


def _order(row: Row[Any]) -> Order:
    fields = row._asdict()
    observed_at = fields["observed_at"]
    fields["observed_at"] = None if observed_at is None else datetime.fromisoformat(observed_at)
    fields["id"] = format_order_id(fields.pop("number"))
    return Order(**fields)


def _profile(row: Row[Any]) -> ColumnProfile:
    fields = row._asdict()
    fields["headers"] = tuple(fields["headers"])
    return ColumnProfile(**fields)
