"""What a person reviewing orders sees over the API: every order with its run, proposal,
approver and screenshot; a run's steps in plain words with the screenshot it read; each
proposal's source and quantity."""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from pipeline.api import create_app
from pipeline.bootstrap import open_store, screen_shelf
from pipeline.ingest.cache import IngestCache
from pipeline.ocr import OcrEngine
from pipeline.settings import Settings
from servers import domain
from servers.models import ReplenishmentRequest
from tests.api.conftest import SAMPLE, follow, ingest, started, variant
from tests.api.serve import seed_store
from tests.conftest import make_ingestor

TASK = "find the SKUs that are low and raise replenishment orders"


@pytest.fixture(params=["sqlite", "postgresql"])
def settings(request: pytest.FixtureRequest, settings: Settings) -> Settings:
    """Each test runs on the seeded SQLite file and on a seeded PostgreSQL database (named by
    STOCKSHOT_DATABASE_URL), where the runs are a worker's jobs."""
    if request.param == "sqlite":
        return settings
    url = seed_store(request.getfixturevalue("postgres_url"))
    return settings.model_copy(update={"database_url": url})


async def proposed_run(client: httpx.AsyncClient) -> tuple[str, str, dict[str, str]]:
    """The demo task run over the sample under manual approval: (run id, the screenshot's
    id, proposal id by SKU)."""
    (result,) = await ingest(client, (SAMPLE.name, SAMPLE.read_bytes()))
    run = (await client.post("/v1/runs", json={"task": TASK, "ingest_ids": [result["id"]]})).json()
    await follow(client, run["id"])
    record = (await client.get(f"/v1/runs/{run['id']}")).json()
    return run["id"], result["id"], {p["arguments"]["sku"]: p["id"] for p in record["proposals"]}


def one(orders: list[dict[str, Any]], sku: str) -> dict[str, Any]:
    (found,) = [o for o in orders if o["sku"] == sku]
    return found


async def test_an_approved_then_cancelled_order_lists_its_run_proposal_approver_screenshot_and_reason(
    client: httpx.AsyncClient,
) -> None:
    run_id, shot, proposals = await proposed_run(client)
    chosen = proposals["SKU-10232"]
    approved = await client.post(f"/v1/approvals/{chosen}/approve")
    order_id = approved.json()["order"]["id"]
    await client.post(f"/v1/orders/{order_id}/cancel", json={"reason": "ordered twice"})
    await client.post(f"/v1/approvals/{proposals['SKU-10310']}/approve")

    listed = (await client.get("/v1/orders")).json()["orders"]
    cancelled = one(listed, "SKU-10232")
    still_open = one(listed, "SKU-10310")

    assert cancelled["status"] == "cancelled"
    assert cancelled["proposal_id"] == chosen
    assert cancelled["approved_by"] == "api:key-1"
    assert (cancelled["cancelled_by"], cancelled["cancel_reason"]) == ("api:key-1", "ordered twice")
    assert cancelled["source"] == {
        "kind": "run",
        "words": f"run {run_id} started by api:key-1, read from {SAMPLE.name}",
        "run_id": run_id,
        "screen": SAMPLE.name,
        "ingest_id": shot,
    }
    assert still_open["status"] == "open" and still_open["cancelled_by"] is None
    only_open = (await client.get("/v1/orders", params={"status": "open"})).json()["orders"]
    assert [o["sku"] for o in only_open] == ["SKU-10310"]


async def test_an_order_written_with_no_run_says_an_mcp_client_wrote_it_and_has_no_screenshot(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    with open_store(settings) as store:
        domain.create_replenishment(
            store,
            ReplenishmentRequest(sku="SKU-10318", warehouse_id="WH-01", quantity=30),
            max_quantity=1000,
            now=datetime.now(UTC),
            actor="api:desktop",
        )

    (order,) = (await client.get("/v1/orders")).json()["orders"]

    assert (order["proposal_id"], order["ordered_by"]) == (None, "api:desktop")
    assert order["source"] == {
        "kind": "mcp",
        "words": "an MCP client's tool call (api:desktop), no run and no screenshot",
        "run_id": None,
        "screen": None,
        "ingest_id": None,
    }


async def test_the_screenshot_a_run_read_is_served_as_uploaded_and_an_unknown_one_is_404(
    client: httpx.AsyncClient,
) -> None:
    _, shot, _ = await proposed_run(client)

    picture = await client.get(f"/v1/ingest/{shot}/image")
    missing = await client.get(f"/v1/ingest/{'0' * 64}/image")

    assert picture.status_code == 200
    assert picture.headers["content-type"] == "image/png"
    assert picture.content == SAMPLE.read_bytes()
    assert missing.status_code == 404
    assert "upload it again" in missing.json()["message"]


async def test_a_run_says_its_steps_in_plain_words_and_shows_the_table_box_on_its_screenshot(
    client: httpx.AsyncClient,
) -> None:
    run_id, shot, proposals = await proposed_run(client)

    record = (await client.get(f"/v1/runs/{run_id}")).json()

    said = [s["words"] for s in record["said"]]
    assert said[0].startswith("read live stock of 7 SKUs in WH-01: ")
    assert "SKU-10232 38 on hand, reorder point 120: low" in said[0]
    assert (
        f"proposed ordering 202 of SKU-10232 in WH-01 ({proposals['SKU-10232']}): waiting for "
        "a person's approval"
    ) in said
    assert not any("policy" in s for s in said)
    streamed = [e["words"] for _, e in await follow(client, run_id) if e["type"] == "tool_call"]
    assert streamed[0] == said[0]
    (screen,) = record["screens"]
    assert (screen["name"], screen["ingest_id"], screen["kept"]) == (SAMPLE.name, shot, True)
    x0, y0, x1, y1 = screen["crop"]
    width, height = screen["size"]
    assert 0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height


async def test_each_proposal_in_the_inbox_says_its_source_and_the_units_it_orders(
    client: httpx.AsyncClient,
) -> None:
    run_id, shot, proposals = await proposed_run(client)
    await client.post(f"/v1/approvals/{proposals['SKU-10520']}/deny", json={"reason": "no"})

    listed = (await client.get("/v1/approvals")).json()["proposals"]
    by_sku = {p["arguments"]["sku"]: p for p in listed}

    pending, denied = by_sku["SKU-10232"], by_sku["SKU-10520"]
    assert pending["quantity"] == 202
    assert pending["quantity_why"].startswith("by the reorder policy now")
    assert pending["source"]["run_id"] == run_id
    assert pending["source"]["ingest_id"] == shot
    assert denied["status"] == "denied"
    assert denied["quantity"] == 17
    assert denied["quantity_why"].startswith("by the reorder policy when proposed")


async def test_after_a_restart_the_screenshot_a_run_read_is_still_shown_from_the_data_folder(
    settings: Settings, rapidocr: OcrEngine, shared_cache: IngestCache
) -> None:
    async with started(create_app(settings, ingestor=make_ingestor(rapidocr, shared_cache))) as api:
        run_id, shot, _ = await proposed_run(api)

    restarted = create_app(settings, ingestor=make_ingestor(rapidocr, shared_cache))
    async with started(restarted) as api:
        picture = await api.get(f"/v1/ingest/{shot}/image")
        (screen,) = (await api.get(f"/v1/runs/{run_id}")).json()["screens"]

    assert picture.status_code == 200
    assert picture.content == SAMPLE.read_bytes()
    assert (screen["ingest_id"], screen["kept"]) == (shot, True)


async def test_a_damaged_kept_screenshot_is_410_saying_so_then_404_until_it_is_uploaded_again(
    settings: Settings, rapidocr: OcrEngine, shared_cache: IngestCache
) -> None:
    async with started(create_app(settings, ingestor=make_ingestor(rapidocr, shared_cache))) as api:
        (result,) = await ingest(api, (SAMPLE.name, SAMPLE.read_bytes()))
    path = screen_shelf(settings).path_of(result["id"])
    assert path is not None
    path.write_bytes(b"\x89PNG\r\n\x1a\n damaged")

    async with started(create_app(settings, ingestor=make_ingestor(rapidocr, shared_cache))) as api:
        damaged = await api.get(f"/v1/ingest/{result['id']}/image")
        gone = await api.get(f"/v1/ingest/{result['id']}/image")
        await ingest(api, (SAMPLE.name, SAMPLE.read_bytes()))
        again = await api.get(f"/v1/ingest/{result['id']}/image")

    assert (damaged.status_code, damaged.json()["error"]) == (410, "damaged")
    assert "damaged on disk" in damaged.json()["message"]
    assert "upload it again" in damaged.json()["message"]
    assert (gone.status_code, gone.json()["error"]) == (404, "not_kept")
    assert "STOCKSHOT_SCREENSHOT_RETENTION_DAYS" in gone.json()["message"]
    assert again.content == SAMPLE.read_bytes()


def last_read(settings: Settings, ingest_id: str, days_ago: float) -> None:
    path = screen_shelf(settings).path_of(ingest_id)
    assert path is not None
    when = time.time() - days_ago * 86400
    os.utime(path, (when, when))


async def test_a_restart_prunes_screenshots_unread_past_the_retention_but_not_one_a_pending_proposal_shows(
    settings: Settings, rapidocr: OcrEngine, shared_cache: IngestCache
) -> None:
    other = variant(SAMPLE.read_bytes(), 1)
    async with started(create_app(settings, ingestor=make_ingestor(rapidocr, shared_cache))) as api:
        _, shot, _ = await proposed_run(api)
        (unused,) = await ingest(api, ("other.png", other))
    last_read(settings, shot, 40)
    last_read(settings, unused["id"], 40)

    async with started(create_app(settings, ingestor=make_ingestor(rapidocr, shared_cache))) as api:
        shown = await api.get(f"/v1/ingest/{shot}/image")
        pruned = await api.get(f"/v1/ingest/{unused['id']}/image")

    assert shown.status_code == 200
    assert (pruned.status_code, pruned.json()["error"]) == (404, "not_kept")
