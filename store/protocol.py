"""The store interface the domain rules and servers depend on.

A store hands out transactions: `reading()` for a consistent snapshot, `writing()` for
one exclusive write transaction that commits when the block ends and rolls back when it
raises. `store.sql.SqlStore` implements them for SQLite (embedded) and PostgreSQL (to
share between machines); `store.stores` opens one by URL. Another database needs only these
protocols.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import datetime, timedelta
from typing import Protocol, Self

from store.models import (
    ApprovalStatus,
    Attempt,
    AuditEntry,
    ColumnProfile,
    Delivery,
    DeliveryRecord,
    Item,
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
)

__all__ = [
    "OpenStore",
    "Store",
    "StoreReader",
    "StoreWriter",
    "join_aliases",
    "split_aliases",
]


def join_aliases(warehouse: Warehouse) -> str:
    """A warehouse's aliases as one stored text (`|` between them)."""
    return "|".join(warehouse.aliases)


def split_aliases(text: str | None) -> tuple[str, ...]:
    return tuple(a for a in (text or "").split("|") if a)


class StoreReader(Protocol):
    def warehouses(self) -> list[Warehouse]:
        """Every warehouse, ordered by id."""
        ...

    def skus(self) -> list[str]:
        """Every known SKU, ordered."""
        ...

    def items(self) -> list[Item]:
        """Every item with its codes, ordered by SKU (codes by kind, then code)."""
        ...

    def stock_levels(
        self, *, warehouse_id: str | None = None, skus: Sequence[str] | None = None
    ) -> list[StockLevel]:
        """Live stock rows (open orders counted in `on_order`), by warehouse then SKU."""
        ...

    def stock_records(self) -> list[StockRecord]:
        """Stock rows as stored, by warehouse then SKU."""
        ...

    def orders(self, query: OrderQuery) -> list[Order]:
        """Orders matching `query`, newest first."""
        ...

    def order(self, order_id: str) -> Order | None: ...

    def order_by_key(self, idempotency_key: str) -> Order | None: ...

    def audit(self, *, limit: int, order_ids: Sequence[str] | None = None) -> list[AuditEntry]:
        """The latest audit entries, newest first; with `order_ids`, only those of these
        orders."""
        ...

    def proposals(self, query: ProposalQuery) -> list[Proposal]:
        """Proposals matching `query`, newest first."""
        ...

    def proposal(self, proposal_id: str) -> Proposal | None: ...

    def profiles(self) -> list[ColumnProfile]:
        """Every saved column profile, newest first."""
        ...

    def profile(self, signature: str) -> ColumnProfile | None: ...

    def deliveries(self, *, limit: int) -> list[DeliveryRecord]:
        """The latest webhook deliveries, newest first."""
        ...

    def attempts_of(self, delivery: int) -> list[tuple[datetime, int | None, str | None]]:
        """Each attempt at one delivery, oldest first: when, the HTTP status, the error."""
        ...


class StoreWriter(StoreReader, Protocol):
    def lock_stock(
        self, sku: str, warehouse_id: str, *, idempotency_key: str | None = None
    ) -> None:
        """Hold the stock row of `sku` in `warehouse_id` (and `idempotency_key`) until the
        transaction ends, so what is checked next still holds when it commits: another
        writer of the same row or key waits for this one."""
        ...

    def add_warehouse(self, warehouse: Warehouse, *, replace: bool) -> bool:
        """Insert a warehouse; with `replace`, overwrite its name and city. True if new."""
        ...

    def put_stock(self, record: StockRecord, *, now: datetime) -> bool:
        """Upsert the item and its stock row by SKU and warehouse, and add the record's codes
        to the item (a code it already has keeps its place, its kind updated). True if the row
        is new."""
        ...

    def insert_order(self, order: NewOrder, *, now: datetime) -> Order: ...

    def cancel_order(self, order_id: str, *, now: datetime) -> Order: ...

    def append_audit(self, entry: NewAuditEntry) -> None: ...

    def insert_proposal(self, proposal: NewProposal, *, now: datetime) -> Proposal | None:
        """Store `proposal` as pending; None, inserting nothing, when a proposal with its
        `store.models.pending_key` is pending already (`pending_proposal` reads it). The
        key is unique in the store, so this holds across processes, not just in this one."""
        ...

    def pending_proposal(self, key: str) -> Proposal | None:
        """The pending proposal holding `key`, if any."""
        ...

    def put_profile(self, profile: ColumnProfile) -> None:
        """Save `profile`, replacing the one with its signature (its created_at kept)."""
        ...

    def delete_profile(self, signature: str) -> bool: ...

    def remove_stock(self, sku: str, warehouse_id: str | None = None) -> int:
        """Forget the stock row of `sku` in `warehouse_id`, or with no warehouse the item
        itself (every stock row, its codes and the item); how many stock rows went."""
        ...

    def append_event(self, name: str, body: JsonObject, *, now: datetime) -> int:
        """Record that `name` happened, in the transaction of the change itself; its number."""
        ...

    def claim_deliveries(
        self, urls: Sequence[str], *, now: datetime, lease: timedelta, since: datetime, limit: int
    ) -> list[Delivery]:
        """Deliveries due to `urls` of the events since `since` (made on first sight), held
        for `lease` so that another process does not send them at the same time."""
        ...

    def record_attempt(self, attempt: Attempt) -> None:
        """Log one attempt; a delivery not delivered is due again at its `next_at`."""
        ...

    def prune_events(self, *, before: datetime) -> int:
        """Forget the events from before `before` with their deliveries and attempts (the
        retention of the webhook log); how many events went."""
        ...

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
        """Move a proposal from `expect` to `status` (the decider, reason and result with
        it); None when it is not in `expect` any more, so two deciders cannot both win. A
        proposal leaving pending frees its pending key."""
        ...


class Store(Protocol):
    def reading(self) -> AbstractContextManager[StoreReader]: ...

    def writing(self) -> AbstractContextManager[StoreWriter]: ...

    def close(self) -> None: ...


class OpenStore(Store, Protocol):
    """A store an entry point opened (`store.stores.open_store`) and will close."""

    @property
    def where(self) -> str:
        """The store for messages: the SQLite file, or the database URL without a password."""
        ...

    def __enter__(self) -> Self: ...

    def __exit__(self, *exc_info: object) -> None: ...
