"""Webhooks: every proposal made or decided and every finished run reaches each receiver as a
signed JSON POST, each attempt logged; a receiver that is down gets every event once it is
back, and nothing is sent twice by two deliverers at once."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from pipeline.retention import logged_screens, tidy
from pipeline.settings import Settings
from pipeline.webhooks import SIGNATURE_HEADER, Deliverer, sign, verify
from servers import approvals, catalog, domain
from servers.models import ReplenishmentRequest
from store.models import JsonObject
from store.protocol import OpenStore
from store.stores import open_store
from tests.receivers import Receiver, receiving

SECRET = "webhook-secret"
T0 = datetime(2026, 12, 2, 8, 0, 0, tzinfo=UTC)
ARGS: JsonObject = {"sku": "SKU-10232", "warehouse_id": "WH-01", "quantity": 202}


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with receiving() as made:
        yield made


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[OpenStore]:
    url = str(tmp_path / "stockshot.db")
    if request.param == "postgresql":
        url = request.getfixturevalue("postgres_url")
    with open_store(url) as opened:
        domain.seed(opened, *catalog.seed_data(), now=T0)
        yield opened


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


class Pauses:
    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


def deliverer(store: OpenStore, urls: list[str], clock: Clock, pauses: Pauses) -> Deliverer:
    client = httpx.AsyncClient()
    return Deliverer(store, urls, client=client, clock=clock, secret=SECRET, sleep=pauses)


def test_a_signature_is_the_bodys_hmac_and_anything_else_fails_verification() -> None:
    body = b'{"event": "run.finished"}'
    assert sign(SECRET, body).startswith("sha256=") and len(sign(SECRET, body)) == 71
    assert verify(SECRET, body, sign(SECRET, body))
    assert not verify(SECRET, body + b" ", sign(SECRET, body))
    assert not verify("other", body, sign(SECRET, body))
    assert not verify(SECRET, body, None)


def test_a_receiver_that_is_down_gets_every_event_once_it_is_back_each_attempt_logged(
    store: OpenStore, receiver: Receiver
) -> None:
    proposal = approvals.propose(
        store, tool="orders_create_replenishment", arguments=ARGS, now=T0, ttl=timedelta(days=1)
    ).proposal
    approvals.deny(store, proposal.id, by="api:anna", reason="not now", now=T0)
    clock, pauses = Clock(), Pauses()
    sending = deliverer(store, [receiver.url], clock, pauses)

    receiver.down = True
    assert asyncio.run(sending.deliver_due()) == 0
    clock.now = T0 + timedelta(seconds=1)  # not due yet: the pause after 3 failed attempts
    assert asyncio.run(sending.deliver_due()) == 0
    receiver.down = False
    clock.now = T0 + timedelta(minutes=10)
    delivered = asyncio.run(sending.deliver_due())
    clock.now = T0 + timedelta(minutes=20)
    again = asyncio.run(sending.deliver_due())

    assert (delivered, again) == (2, 0)
    assert receiver.events() == ["proposal.created", "proposal.decided"]
    for headers, body in receiver.received:
        assert verify(SECRET, body, headers[SIGNATURE_HEADER])
        assert headers["Content-Type"] == "application/json"
    created, decided = (json.loads(body) for _, body in receiver.received)
    assert created["data"]["proposal"]["id"] == proposal.id
    assert decided["data"]["proposal"]["status"] == "denied"
    assert decided["data"]["proposal"]["decided_by"] == "api:anna"
    assert len(pauses.delays) == 4 and all(0.5 <= d <= 8.5 for d in pauses.delays)
    with store.reading() as tx:
        log = tx.deliveries(limit=10)
        tries = [tx.attempts_of(d.number) for d in log]
    assert [(d.event, d.status, d.attempts) for d in log] == [
        ("proposal.decided", "delivered", 4),
        ("proposal.created", "delivered", 4),
    ]
    assert [[code for _, code, _ in t] for t in tries] == [[503, 503, 503, 204]] * 2


def test_a_receiver_that_refuses_connections_is_logged_with_the_error_and_stays_pending(
    store: OpenStore,
) -> None:
    approvals.propose(
        store, tool="orders_create_replenishment", arguments=ARGS, now=T0, ttl=timedelta(days=1)
    )
    sending = deliverer(store, ["http://127.0.0.1:1/hook"], Clock(), Pauses())
    assert asyncio.run(sending.deliver_due()) == 0
    with store.reading() as tx:
        (pending,) = tx.deliveries(limit=10)
    assert (pending.status, pending.attempts) == ("pending", 3)
    assert pending.last_error is not None and "ConnectError" in pending.last_error


def test_a_delivery_claimed_by_one_deliverer_is_not_sent_by_another_meanwhile(
    store: OpenStore,
) -> None:
    approvals.propose(
        store, tool="orders_create_replenishment", arguments=ARGS, now=T0, ttl=timedelta(days=1)
    )
    with store.writing() as tx:
        first = tx.claim_deliveries(
            ["http://a/"], now=T0, lease=timedelta(minutes=2), since=T0, limit=10
        )
    with store.writing() as tx:
        second = tx.claim_deliveries(
            ["http://a/"], now=T0, lease=timedelta(minutes=2), since=T0, limit=10
        )
    with store.writing() as tx:
        after_lease = tx.claim_deliveries(
            ["http://a/"], now=T0 + timedelta(minutes=3), lease=timedelta(minutes=2),
            since=T0, limit=10,
        )  # fmt: skip
    assert [d.event for d in first] == ["proposal.created"]
    assert second == []
    assert [d.number for d in after_lease] == [first[0].number]


def _due(store: OpenStore, at: datetime) -> list[tuple[str, str]]:
    """The events due to one receiver: their names and the status of the order they carry."""
    with store.writing() as tx:
        due = tx.claim_deliveries(
            ["http://a/"], now=at, lease=timedelta(minutes=2), since=T0, limit=50
        )
    orders = [d.body.get("order") for d in due]
    return [
        (d.event, str(order.get("status") if isinstance(order, dict) else None))
        for d, order in zip(due, orders, strict=True)
    ]


def test_an_order_written_and_cancelled_announces_each_change_once(store: OpenStore) -> None:
    request = ReplenishmentRequest(sku="SKU-10232", warehouse_id="WH-01", quantity=5)
    written = domain.create_replenishment(store, request, max_quantity=1000, now=T0)
    domain.cancel_order(store, written.order.id, now=T0)
    domain.cancel_order(store, written.order.id, now=T0)  # already cancelled: no event
    assert _due(store, T0) == [("order.created", "open"), ("order.cancelled", "cancelled")]


def test_an_approved_proposal_announces_the_order_it_wrote(store: OpenStore) -> None:
    proposal = approvals.propose(
        store, tool="orders_create_replenishment", arguments=ARGS, now=T0, ttl=timedelta(days=1)
    ).proposal
    claimed = approvals.claim(store, proposal.id, by="api:anna", now=T0)
    request = ReplenishmentRequest(
        sku="SKU-10232", warehouse_id="WH-01", quantity=202,
        idempotency_key=approvals.approval_key(claimed.id),
    )  # fmt: skip
    domain.create_replenishment(store, request, max_quantity=1000, now=T0)
    assert ("order.created", "open") in _due(store, T0)


def test_events_and_their_delivery_log_are_pruned_after_the_retention_by_any_process(
    store: OpenStore, receiver: Receiver, tmp_path: Path
) -> None:
    approvals.propose(
        store, tool="orders_create_replenishment", arguments=ARGS, now=T0, ttl=timedelta(days=1)
    )
    sending = deliverer(store, [receiver.url], Clock(), Pauses())
    assert asyncio.run(sending.deliver_due()) == 1
    settings = Settings(data_dir=tmp_path / "data", webhook_retention_days=30)
    runs = logged_screens(settings.resolved_run_log())

    kept = tidy(settings, store, runs, now=T0 + timedelta(days=29)).events
    pruned = tidy(settings, store, runs, now=T0 + timedelta(days=31)).events

    with store.reading() as tx:
        log = tx.deliveries(limit=10)
    assert (kept, pruned, log) == (0, 1, [])
