"""A served API announces a run's proposals and its end to the webhook receivers."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from pipeline.api import create_app
from pipeline.ingest import Ingestor
from pipeline.settings import Settings
from pipeline.webhooks import SIGNATURE_HEADER, verify
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
