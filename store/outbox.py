"""Events and their webhook deliveries, as statements on one open transaction.

An event is written in the transaction of the change it announces. A delivery (an event for
one receiver URL) is made on first sight, claimed for a while by whoever sends it (`SKIP
LOCKED` on PostgreSQL; SQLite's write lock holds the whole file), and each attempt at it is
logged. `store.sql` hands these to its transactions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Table, delete, literal, or_, select, update

from store.models import Attempt, Delivery, DeliveryRecord, JsonObject
from store.schema import Stamp, events, webhook_attempts, webhook_deliveries

if TYPE_CHECKING:
    from store.dialects import Upsert

__all__ = [
    "append_event",
    "attempts_of",
    "claim_deliveries",
    "deliveries",
    "prune",
    "record_attempt",
]


def append_event(conn: Connection, name: str, body: JsonObject, now: datetime) -> int:
    row = conn.execute(
        events.insert().values(name=name, body=body, created_at=now).returning(events.c.number)
    ).one()
    return int(row.number)


def claim_deliveries(
    conn: Connection,
    insert: Callable[[Table], Upsert],
    urls: Sequence[str],
    *,
    now: datetime,
    until: datetime,
    since: datetime,
    limit: int,
) -> list[Delivery]:
    """The deliveries due to `urls` (each event since `since` gets one per URL, made here),
    held until `until` so that another sender passes them by."""
    for url in urls:
        missing = select(
            events.c.number, literal(url), literal("pending"), literal(now, Stamp)
        ).where(events.c.created_at >= since)
        conn.execute(
            insert(webhook_deliveries)
            .from_select(["event", "url", "status", "next_at"], missing)
            .on_conflict_do_nothing(index_elements=["event", "url"])
        )
    free = or_(
        webhook_deliveries.c.claimed_until.is_(None), webhook_deliveries.c.claimed_until <= now
    )
    due = (
        select(webhook_deliveries.c.number)
        .where(
            webhook_deliveries.c.status == "pending",
            webhook_deliveries.c.url.in_(list(urls)),
            webhook_deliveries.c.next_at <= now,
            free,
        )
        .order_by(webhook_deliveries.c.event, webhook_deliveries.c.number)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    numbers = list(conn.scalars(due))
    if not numbers:
        return []
    claimed = webhook_deliveries.c.number.in_(numbers)
    conn.execute(update(webhook_deliveries).where(claimed).values(claimed_until=until))
    rows = conn.execute(
        select(
            webhook_deliveries.c.number,
            webhook_deliveries.c.url,
            webhook_deliveries.c.attempts,
            events.c.number.label("event_number"),
            events.c.name.label("event"),
            events.c.body,
            events.c.created_at,
        )
        .join_from(webhook_deliveries, events, events.c.number == webhook_deliveries.c.event)
        .where(claimed)
        .order_by(events.c.number, webhook_deliveries.c.number)
    ).all()
    return [Delivery(**r._asdict()) for r in rows]


def record_attempt(conn: Connection, attempt: Attempt) -> None:
    conn.execute(
        webhook_attempts.insert().values(
            delivery=attempt.delivery,
            at=attempt.at,
            status_code=attempt.status_code,
            error=attempt.error,
        )
    )
    delivered = attempt.delivered
    conn.execute(
        update(webhook_deliveries)
        .where(webhook_deliveries.c.number == attempt.delivery)
        .values(
            attempts=webhook_deliveries.c.attempts + 1,
            status="delivered" if delivered else "pending",
            last_error=None if delivered else attempt.error,
            delivered_at=attempt.at if delivered else None,
            next_at=attempt.next_at,
            claimed_until=None,
        )
    )


def deliveries(conn: Connection, limit: int) -> list[DeliveryRecord]:
    rows = conn.execute(
        select(
            webhook_deliveries.c.number,
            webhook_deliveries.c.event.label("event_number"),
            events.c.name.label("event"),
            webhook_deliveries.c.url,
            webhook_deliveries.c.status,
            webhook_deliveries.c.attempts,
            webhook_deliveries.c.last_error,
            webhook_deliveries.c.delivered_at,
        )
        .join_from(webhook_deliveries, events, events.c.number == webhook_deliveries.c.event)
        .order_by(webhook_deliveries.c.number.desc())
        .limit(limit)
    ).all()
    return [DeliveryRecord(**r._asdict()) for r in rows]


def attempts_of(conn: Connection, delivery: int) -> list[tuple[datetime, int | None, str | None]]:
    rows = conn.execute(
        select(webhook_attempts.c.at, webhook_attempts.c.status_code, webhook_attempts.c.error)
        .where(webhook_attempts.c.delivery == delivery)
        .order_by(webhook_attempts.c.number)
    ).all()
    return [(r.at, r.status_code, r.error) for r in rows]


def prune(conn: Connection, before: datetime) -> int:
    """Forget the events that happened before `before`, with their deliveries and attempts
    (delivered or not: past the retention they are history); how many events went."""
    old = select(events.c.number).where(events.c.created_at < before)
    sent = select(webhook_deliveries.c.number).where(webhook_deliveries.c.event.in_(old))
    conn.execute(delete(webhook_attempts).where(webhook_attempts.c.delivery.in_(sent)))
    conn.execute(delete(webhook_deliveries).where(webhook_deliveries.c.event.in_(old)))
    return int(conn.execute(delete(events).where(events.c.created_at < before)).rowcount)
