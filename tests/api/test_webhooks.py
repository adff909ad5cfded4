"""A served API announces a run's proposals and its end to the webhook receivers."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from pipeline.api import create_app
from pipeline.bootstrap import open_store as open_settings_store
from pipeline.cli import main
from pipeline.ingest import Ingestor
from pipeline.settings import Settings
from pipeline.webhooks import SIGNATURE_HEADER, verify
from servers import domain
from servers.models import ReplenishmentRequest
from store.models import Attempt
from tests.api.conftest import SAMPLE, follow, ingest, started
from tests.api.serve import KEY, seed_store, serving
from tests.receivers import Receiver, receiving
from tests.test_webhooks import SECRET


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with receiving() as made:
        yield made


async def test_a_served_run_announces_its_proposals_and_its_end_to_the_receiver(
    settings: Settings, ingestor: Ingestor, receiver: Receiver
) -> None:
    hooked = settings.model_copy(
        update={
            "webhook_urls": [receiver.url],
            "webhook_secret": SECRET,
            "webhook_interval_s": 0.2,
        }
    )
    async with started(create_app(hooked, ingestor=ingestor)) as client:
        (result,) = await ingest(client, (SAMPLE.name, SAMPLE.read_bytes()))
        task = "find the SKUs that are low and raise replenishment orders"
        run = (
            await client.post("/v1/runs", json={"task": task, "ingest_ids": [result["id"]]})
        ).json()
        await follow(client, run["id"])
        for _ in range(100):
            if "run.finished" in receiver.events():
                break
            await asyncio.sleep(0.1)
    events = receiver.events()
    assert events.count("proposal.created") == 5
    finished = json.loads(next(b for _, b in receiver.received if b"run.finished" in b))
    assert finished["data"]["run"]["id"] == run["id"]
    assert finished["data"]["run"]["status"] == "done"
    assert len(finished["data"]["run"]["proposals"]) == 5
    assert all(
        verify(SECRET, body, headers[SIGNATURE_HEADER]) for headers, body in receiver.received
    )


def test_on_postgres_the_api_and_a_worker_deliver_each_event_once_between_them(
    tmp_path: Path, postgres_url: str, receiver: Receiver
) -> None:
    """`serve` and a `stockshot worker` share one PostgreSQL store and both deliver: every
    event of a run reaches the receiver once (no delivery id twice), the run's end included;
    and the run history lists the run the worker executed."""
    hooks = {
        "webhook_urls": receiver.url,
        "webhook_secret": SECRET,
        "webhook_interval_s": "0.2",
    }
    with serving(tmp_path / "data", seed_store(postgres_url), **hooks) as server:

        async def run_the_demo_task(client: httpx.AsyncClient) -> str:
            (result,) = await ingest(client, (SAMPLE.name, SAMPLE.read_bytes()))
            task = "find the SKUs that are low and raise replenishment orders"
            body = {"task": task, "ingest_ids": [result["id"]]}
            run = (await client.post("/v1/runs", json=body)).json()
            await follow(client, run["id"])
            for _ in range(150):
                if "run.finished" in receiver.events():
                    break
                await asyncio.sleep(0.1)
            # The run history reads the shared runs table: the worker's run is there.
            (latest, *_) = (await client.get("/v1/runs")).json()["runs"]
            assert (latest["id"], latest["status"], len(latest["proposals"])) == (
                run["id"],
                "done",
                5,
            )
            return str(run["id"])

        async def over_http() -> str:
            async with httpx.AsyncClient(
                base_url=server.url, headers={"X-API-Key": KEY}, timeout=120
            ) as client:
                return await run_the_demo_task(client)

        run_id = asyncio.run(over_http())
    deliveries = [headers["X-Stockshot-Delivery"] for headers, _ in receiver.received]
    assert len(deliveries) == len(set(deliveries))
    assert sorted(receiver.events()) == ["proposal.created"] * 5 + ["run.finished"]
    finished = json.loads(next(b for _, b in receiver.received if b"run.finished" in b))
    assert finished["data"]["run"]["id"] == run_id


def _one_failed_delivery(settings: Settings) -> None:
    """An order cancelled in the settings' store, and one failed attempt to send it."""
    at = datetime.now(UTC).replace(microsecond=0)
    with open_settings_store(settings) as store:
        written = domain.create_replenishment(
            store,
            ReplenishmentRequest(sku="SKU-10232", warehouse_id="WH-01", quantity=5),
            max_quantity=1000,
            now=at,
        )
        domain.cancel_order(store, written.order.id, now=at)
        with store.writing() as tx:
            (created, _) = tx.claim_deliveries(
                ["http://receiver.test/hook"], now=at, lease=timedelta(minutes=2), since=at,
                limit=5,
            )  # fmt: skip
            tx.record_attempt(
                Attempt(delivery=created.number, at=at, status_code=503, error="HTTP 503",
                        delivered=False, next_at=at + timedelta(minutes=1))
            )  # fmt: skip


async def test_the_delivery_log_shows_each_event_receiver_and_attempt(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    _one_failed_delivery(settings)
    listed = (await client.get("/v1/webhooks/deliveries")).json()["deliveries"]
    assert [(d["event"], d["status"], d["attempts"]) for d in listed] == [
        ("order.cancelled", "pending", 0),
        ("order.created", "pending", 1),
    ]
    assert listed[1]["url"] == "http://receiver.test/hook"
    assert [(t["status_code"], t["error"]) for t in listed[1]["tries"]] == [(503, "HTTP 503")]


def test_webhooks_list_prints_the_delivery_log(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    _one_failed_delivery(settings)
    assert main(["webhooks", "list", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["event"], r["last_error"]) for r in rows] == [
        ("order.cancelled", None),
        ("order.created", "HTTP 503"),
    ]
    assert main(["webhooks", "list"]) == 0
    table = capsys.readouterr().out
    assert "order.created #1" in table and "HTTP 503" in table
