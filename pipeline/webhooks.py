"""Outgoing webhooks: people hear about proposals and finished runs where they already look.

The store keeps every event in the transaction of the change itself (`proposal.created`,
`proposal.decided`, `run.finished`), so an event exists exactly when what it announces does.
A `Deliverer` (in `stockshot serve`, and in each `stockshot worker` on PostgreSQL) claims the
deliveries due to each URL of `STOCKSHOT_WEBHOOK_URLS`, POSTs each as JSON, and logs every
attempt. One pass retries a failed POST with exponential backoff and jitter (tenacity); a
delivery still failing stays pending and is tried again on later passes, without end, so a
receiver that is down loses no event. Delivery is at least once: a receiver can tell a repeat
by `X-Stockshot-Delivery`.

Each request carries `X-Stockshot-Event`, `X-Stockshot-Delivery` and, with
`STOCKSHOT_WEBHOOK_SECRET`, `X-Stockshot-Signature: sha256=<HMAC-SHA256 of the body>`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import KW_ONLY, dataclass
from datetime import UTC, datetime, timedelta

import httpx
from tenacity import RetryCallState, wait_exponential_jitter

from pipeline.retrying import retried
from pipeline.settings import Settings
from store.models import Attempt, Delivery, DeliveryRecord
from store.protocol import Store

__all__ = [
    "SIGNATURE_HEADER",
    "Deliverer",
    "LoggedDelivery",
    "body_of",
    "delivering",
    "delivery_log",
    "sign",
    "verify",
]

log = logging.getLogger(__name__)

SIGNATURE_HEADER = "X-Stockshot-Signature"
Clock = Callable[[], datetime]


def sign(secret: str, body: bytes) -> str:
    """The signature header's value for `body`: `sha256=` and the HMAC-SHA256 in hex."""
    return "sha256=" + hmac.new(secret.encode("utf-8"), body, hashlib.sha256).hexdigest()


def verify(secret: str, body: bytes, signature: str | None) -> bool:
    """What a receiver checks: the signature is the body's, compared in constant time."""
    return signature is not None and hmac.compare_digest(sign(secret, body), signature)


def body_of(delivery: Delivery) -> bytes:
    """The JSON a delivery sends (and signs): the event, its number and time, its data."""
    document = {
        "event": delivery.event,
        "event_id": delivery.event_number,
        "at": delivery.created_at.isoformat(),
        "data": delivery.body,
    }
    return json.dumps(document, ensure_ascii=False, sort_keys=True).encode("utf-8")


class _Failed(Exception):
    def __init__(self, error: str) -> None:
        super().__init__(error)
        self.error = error


@dataclass(eq=False)
class Deliverer:
    """Sends the events due to `urls`, logging each attempt in `store`."""

    store: Store
    urls: Sequence[str]
    _: KW_ONLY
    client: httpx.AsyncClient
    clock: Clock
    secret: str | None = None
    attempts: int = 3
    timeout_s: float = 10.0
    lease: timedelta = timedelta(minutes=2)
    max_age: timedelta = timedelta(days=1)
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep

    def __post_init__(self) -> None:
        self.urls = tuple(self.urls)  # the URLs as given, whatever the caller's list becomes

    async def deliver_due(self, *, limit: int = 50) -> int:
        """One pass: claim the deliveries due, send each; how many were delivered."""
        if not self.urls:
            return 0
        now = self.clock()
        claimed = await asyncio.to_thread(self._claim, now, limit)
        delivered = 0
        for delivery in claimed:
            delivered += await self._send(delivery)
        return delivered

    def _claim(self, now: datetime, limit: int) -> list[Delivery]:
        with self.store.writing() as tx:
            return tx.claim_deliveries(
                self.urls, now=now, lease=self.lease, since=now - self.max_age, limit=limit
            )

    async def run(self, stop: asyncio.Event, *, interval_s: float = 5.0) -> None:
        """Pass after pass until `stop` is set; a failing pass is logged and the next one runs."""
        while not stop.is_set():
            try:
                await self.deliver_due()
            except Exception:  # the loop outlives a bad pass (a store busy, a closed store)
                log.exception("webhook delivery pass failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=interval_s)

    async def _send(self, delivery: Delivery) -> bool:
        body = body_of(delivery)
        headers = {
            "Content-Type": "application/json",
            "X-Stockshot-Event": delivery.event,
            "X-Stockshot-Delivery": str(delivery.number),
        }
        if self.secret:
            headers[SIGNATURE_HEADER] = sign(self.secret, body)

        made = [delivery.attempts]  # attempts so far, this pass's included

        async def attempt() -> None:
            made[0] += 1
            status: int | None = None
            cause: Exception | None = None
            try:
                response = await self.client.post(
                    delivery.url, content=body, headers=headers, timeout=self.timeout_s
                )
            except httpx.HTTPError as exc:
                error: str | None = f"{type(exc).__name__}: {exc}".strip()
                cause = exc
            else:
                status = response.status_code
                error = f"HTTP {status}" if status >= 300 else None
            await self._record(delivery.number, made[0], status, error)
            if error is not None:
                raise _Failed(error) from cause

        try:
            await retried(
                attempt,
                attempts=self.attempts,
                retry_on=_Failed,
                wait=wait_exponential_jitter(multiplier=0.5, max=8.0, jitter=0.5),
                sleep=self.sleep,
                before_sleep=_log_retry,
            )
        except _Failed as exc:
            log.warning(
                "webhook %s to %s failed (%s); it stays pending", delivery.event, delivery.url,
                exc.error,
            )  # fmt: skip
            return False
        return True

    async def _record(
        self, delivery: int, attempts: int, status_code: int | None, error: str | None
    ) -> None:
        """Log one attempt: delivered when it has no error."""
        now = self.clock()
        delivered = error is None
        # Not delivered: due again after a pause that doubles with the attempts made (2 s after
        # the first, 8 s after a pass of three, at most 5 minutes).
        pause = timedelta(seconds=min(300.0, 2.0 ** min(attempts, 9)))

        def write() -> None:
            attempt = Attempt(
                delivery=delivery,
                at=now,
                status_code=status_code,
                error=error,
                delivered=delivered,
                next_at=now if delivered else now + pause,
            )
            with self.store.writing() as tx:
                tx.record_attempt(attempt)

        await asyncio.to_thread(write)


def _log_retry(state: RetryCallState) -> None:
    failure = state.outcome.exception() if state.outcome is not None else None
    log.info("webhook attempt %d failed (%s); retrying", state.attempt_number, failure)


@contextlib.asynccontextmanager
async def delivering(settings: Settings, store: Store) -> AsyncIterator[Deliverer]:
    """A `Deliverer` for the settings' URLs, passing in the background until the block ends."""
    async with httpx.AsyncClient() as client:
        deliverer = Deliverer(
            store,
            settings.webhook_urls,
            client=client,
            clock=lambda: datetime.now(UTC),
            secret=settings.webhook_secret,
        )
        stop = asyncio.Event()
        task = asyncio.create_task(deliverer.run(stop, interval_s=settings.webhook_interval_s))
        try:
            yield deliverer
        finally:
            stop.set()
            await task


@dataclass(frozen=True)
class LoggedDelivery:
    """One delivery of the log and each attempt at it (when, the HTTP status, the error)."""

    delivery: DeliveryRecord
    tries: list[tuple[datetime, int | None, str | None]]


def delivery_log(store: Store, *, limit: int) -> list[LoggedDelivery]:
    """The latest deliveries, newest first, each with its attempts (what `GET
    /v1/webhooks/deliveries` and `stockshot webhooks list` show)."""
    with store.reading() as tx:
        return [LoggedDelivery(d, tx.attempts_of(d.number)) for d in tx.deliveries(limit=limit)]
