"""Ingests and runs through the PostgreSQL queue: real database, real Procrastinate, real
workers (in this event loop, or as their own processes killed with SIGKILL). The model is
the rules planner, or a replay of an endpoint (`replay_endpoint`) where a run must be held
mid-way."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from pipeline.api import create_app
from pipeline.ingest.cache import IngestCache
from pipeline.ocr import OcrEngine
from pipeline.settings import Settings
from servers import domain
from store.models import OrderQuery
from store.stores import open_store
from tests.api.conftest import BASE_URL, SAMPLE, TASK, running, sse_events, started, variant
from tests.api.serve import KEY, seed_store
from tests.conftest import SAMPLES, make_ingestor
from tests.jobs.replay_endpoint import SKU, WAREHOUSE, replay_endpoint
from tests.jobs.workers import worker_process

PHOTO = SAMPLES / "photo-monitor-wh01.jpg"


@pytest.fixture
def settings(tmp_path: Path, postgres_url: str) -> Settings:
    return Settings(
        data_dir=tmp_path / "data",
        timezone="Asia/Shanghai",
        api_keys=[KEY],
        database_url=seed_store(postgres_url),
        worker_heartbeat_s=1.0,
    )


def app_for(settings: Settings, rapidocr: OcrEngine) -> Any:
    return create_app(settings, ingestor=make_ingestor(rapidocr, IngestCache(None)))


def rows_of(response: httpx.Response) -> list[dict[str, Any]]:
    assert response.status_code == 200, response.text
    rows: list[dict[str, Any]] = response.json()["results"][0]["rows"]
    return rows


def query(url: str, sql: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute(sql).fetchall()


async def events_of(client: httpx.AsyncClient, run_id: str, after: int = -1) -> list[Any]:
    headers = {"Last-Event-ID": str(after)} if after >= 0 else {}
    async with client.stream("GET", f"/v1/runs/{run_id}/events", headers=headers) as stream:
        text = "".join([chunk async for chunk in stream.aiter_text()])
    return sse_events(text)


def client_of(app: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url=BASE_URL,
        headers={"X-API-Key": KEY},
        timeout=120,
    )


async def test_the_same_screenshot_sent_to_two_instances_at_once_is_analysed_once(
    settings: Settings, rapidocr: OcrEngine
) -> None:
    data = variant(SAMPLE.read_bytes(), 701)
    first, second = app_for(settings, rapidocr), app_for(settings, rapidocr)
    async with started(first) as a, running(second), client_of(second) as b:
        sent = await asyncio.gather(
            *(c.post("/v1/ingest", files={"file": ("s.png", data, "image/png")}) for c in (a, b))
        )
        again = await b.post("/v1/ingest", files={"file": ("s.png", data, "image/png")})
    assert rows_of(sent[0]) == rows_of(sent[1]) == rows_of(again)
    assert {r["sku"] for r in rows_of(again)} >= {"SKU-10232", "SKU-10310"}
    assert again.json()["results"][0]["cache"] == "memory"
    url = settings.store_url()
    assert query(url, "SELECT count(*) FROM stockshot_ingest_cache") == [(1,)]
    assert query(url, "SELECT count(*) FROM stockshot_uploads") == [(0,)]


async def test_a_run_queued_on_one_instance_is_followed_and_read_from_another(
    settings: Settings, rapidocr: OcrEngine
) -> None:
    first, second = app_for(settings, rapidocr), app_for(settings, rapidocr)
    async with started(first) as a, running(second), client_of(second) as b:
        response = await a.post(
            "/v1/runs",
            data={"task": TASK},
            files={"file": (SAMPLE.name, SAMPLE.read_bytes(), "image/png")},
        )
        assert response.status_code == 202, response.text
        run_id = response.json()["id"]
        assert response.headers["Location"] == f"/v1/runs/{run_id}"
        events = await events_of(b, run_id)
        record = (await b.get(f"/v1/runs/{run_id}")).json()
        resumed = await events_of(b, run_id, after=events[1][0])
    numbers = [n for n, _ in events]
    assert numbers == list(range(len(events)))
    assert events[0][1]["type"] == "run_started"
    assert events[-1][1]["type"] == "run_finished"
    assert [e for _, e in events].count({**events[-1][1]}) == 1
    assert resumed == events[2:]
    assert record["id"] == run_id and record["status"] == "done"
    proposed = {
        (p["arguments"]["sku"], p["arguments"]["warehouse_id"]) for p in record["proposals"]
    }
    assert ("SKU-10232", "WH-01") in proposed  # serve approves by hand: proposals, no orders
    with open_store(settings.store_url()) as store:
        assert domain.list_orders(store, OrderQuery(limit=50)).orders == []


async def test_a_screenshot_the_worker_cannot_read_is_refused_with_its_reason(
    settings: Settings, rapidocr: OcrEngine
) -> None:
    broken = SAMPLE.read_bytes()[:300]  # a PNG that stops after its first bytes
    async with started(app_for(settings, rapidocr)) as client:
        response = await client.post("/v1/ingest", files={"file": ("cut.png", broken, "image/png")})
        healthy = await client.post(
            "/v1/ingest", files={"file": ("s.png", SAMPLE.read_bytes(), "image/png")}
        )
    assert response.status_code == 422, response.text
    assert "cut.png" in response.json()["message"]
    assert rows_of(healthy)


async def test_with_no_worker_an_upload_is_answered_with_what_to_start(
    settings: Settings, rapidocr: OcrEngine
) -> None:
    waiting = settings.model_copy(update={"job_wait_s": 1.5})
    app = app_for(waiting, rapidocr)
    async with running(app), client_of(app) as client:
        response = await client.post(
            "/v1/ingest", files={"file": ("s.png", variant(SAMPLE.read_bytes(), 702), "image/png")}
        )
    assert response.status_code == 503
    assert "stockshot worker" in response.json()["message"]


def _doing(url: str, task: str) -> bool:
    rows = query(
        url,
        f"SELECT count(*) FROM procrastinate_jobs WHERE status = 'doing' AND task_name = '{task}'",
    )
    return bool(rows[0][0] > 0)


async def _until(check: Any, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while not await asyncio.to_thread(check):
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


async def test_a_worker_killed_during_ocr_has_its_job_taken_by_another(
    settings: Settings, rapidocr: OcrEngine, tmp_path: Path
) -> None:
    url, data_dir = settings.store_url(), str(tmp_path / "workers")
    app = app_for(settings, rapidocr)
    async with running(app), client_of(app) as client:
        with worker_process(url, data_dir, concurrency="1", worker_heartbeat_s="1") as doomed:
            upload = asyncio.create_task(
                client.post("/v1/ingest", files={"file": (PHOTO.name, PHOTO.read_bytes())})
            )
            await _until(lambda: _doing(url, "stockshot.ingest"))
            os.kill(doomed.pid, signal.SIGKILL)
            doomed.wait(timeout=30)
        assert not upload.done()
        with worker_process(url, data_dir, concurrency="1", worker_heartbeat_s="1"):
            response = await asyncio.wait_for(upload, timeout=120)
    rows = rows_of(response)
    assert len(rows) >= 10
    assert query(url, "SELECT count(*) FROM stockshot_ingest_cache") == [(1,)]
    assert query(url, "SELECT count(*) FROM procrastinate_jobs WHERE status <> 'succeeded'") == [
        (0,)
    ]


async def test_a_worker_killed_mid_run_has_it_executed_again_without_a_second_order(
    settings: Settings, rapidocr: OcrEngine, tmp_path: Path
) -> None:
    url, data_dir = settings.store_url(), str(tmp_path / "workers")
    with replay_endpoint(hold_step=2) as endpoint:
        api = settings.model_copy(update={"base_url": endpoint.url, "approval": "auto"})
        app = app_for(api, rapidocr)
        worker_env = {"worker_heartbeat_s": "1", "base_url": endpoint.url, "vlm_steps": "native"}
        async with running(app), client_of(app) as client:
            with worker_process(url, data_dir, **worker_env) as doomed:
                response = await client.post(
                    "/v1/runs",
                    data={"task": f"replenish {SKU} in {WAREHOUSE}", "model": "openai:replay"},
                    files={"file": (SAMPLE.name, SAMPLE.read_bytes(), "image/png")},
                )
                assert response.status_code == 202, response.text
                run_id = response.json()["id"]
                # The order is made; the model's last answer is held: kill the worker now.
                assert await asyncio.to_thread(endpoint.reached.wait, 120)
                os.kill(doomed.pid, signal.SIGKILL)
                doomed.wait(timeout=30)
            endpoint.release.set()
            with worker_process(url, data_dir, **worker_env):
                events = await asyncio.wait_for(events_of(client, run_id), timeout=120)
                record = (await client.get(f"/v1/runs/{run_id}")).json()
    kinds = [e["type"] for _, e in events]
    assert kinds.count("run_started") == 2 and kinds.count("run_finished") == 1
    assert "run_retried" in kinds
    assert record["status"] == "done", record["final"]
    with open_store(url) as store:
        orders = domain.list_orders(store, OrderQuery(limit=50)).orders
    assert [(o.sku, o.warehouse_id, o.run_id) for o in orders] == [(SKU, WAREHOUSE, run_id)]
    # The attempt that finished got the first attempt's order back (the dead attempt's last
    # events may not have been written before the kill: its order is in the store either way).
    ledger = record["ledger_summary"]
    assert ledger["ordered"] == []
    assert [e["order_id"] for e in ledger["returned"]] == [orders[0].id]
    assert endpoint.steps.count(1) == 2
