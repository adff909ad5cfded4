"""`GET /v1/runs`: the latest runs, newest first, those of an earlier process included."""

from __future__ import annotations

from datetime import UTC, datetime

from pipeline.api import create_app
from pipeline.host.record import RunRecord, append_run_log
from pipeline.ingest import Ingestor
from pipeline.settings import Settings
from tests.api.conftest import SAMPLE, follow, ingest, started

TASK = "find the SKUs that are low and raise replenishment orders"


async def test_a_finished_run_is_listed_first_with_how_it_was_read_and_what_it_proposed(
    settings: Settings, ingestor: Ingestor
) -> None:
    earlier = RunRecord(
        id="run-earlier",
        task="report the low SKUs",
        model="rules",
        groups=["inventory"],
        status="done",
        final="Nothing is low.",
        final_by="model",
        started_at=datetime(2026, 11, 30, 8, 0, tzinfo=UTC),
    )
    append_run_log(settings.resolved_run_log(), earlier)
    async with started(create_app(settings, ingestor=ingestor)) as client:
        (result,) = await ingest(client, (SAMPLE.name, SAMPLE.read_bytes()))
        run = (
            await client.post("/v1/runs", json={"task": TASK, "ingest_ids": [result["id"]]})
        ).json()
        await follow(client, run["id"])
        listed = (await client.get("/v1/runs")).json()["runs"]
        one = (await client.get("/v1/runs", params={"limit": 1})).json()["runs"]
    assert [r["id"] for r in listed] == [run["id"], "run-earlier"]
    latest = listed[0]
    assert (latest["status"], latest["approval"], len(latest["proposals"])) == ("done", "manual", 5)
    assert latest["contract"] and "replenish" in latest["contract"].lower()
    assert latest["ledger"] and "waiting for approval 5" in latest["ledger"]
    assert latest["tool_calls"] >= 6
    assert (listed[1]["final"], listed[1]["final_by"]) == ("Nothing is low.", "model")
    assert [r["id"] for r in one] == [run["id"]]
