"""An API over a seeded scratch store, the shared OCR engine and an in-memory ingest cache."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from pipeline.api import create_app
from pipeline.ingest import Ingestor
from pipeline.ingest.cache import IngestCache
from pipeline.ocr import OcrEngine
from pipeline.settings import Settings
from servers import domain
from store.models import OrderQuery
from store.stores import open_store, store_scheme
from tests.api.serve import KEY, Served, seed, serving
from tests.conftest import SAMPLES, make_ingestor
from tests.hardening.images import png_chunk
from tests.jobs.workers import in_process_worker

OTHER_KEY = "test-key-2"
BASE_URL = "http://127.0.0.1:8000"
SAMPLE = SAMPLES / "erp-light-wh01.png"
TASK = "find the SKUs that are low and raise replenishment orders"
STARTUP_S = 300
"""How long an app may take to start: it loads the OCR engine's models before it is ready,
which takes a while on a loaded machine."""


@pytest.fixture
def ingestor(rapidocr: OcrEngine, shared_cache: IngestCache) -> Ingestor:
    return make_ingestor(rapidocr, shared_cache)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    settings = Settings(
        data_dir=tmp_path / "data", timezone="Asia/Shanghai", api_keys=[KEY, OTHER_KEY]
    )
    seed(settings.resolved_db())
    return settings


def open_orders(store_url: Path | str, run_id: str | None = None) -> set[tuple[str, str]]:
    with open_store(str(store_url)) as store:
        orders = domain.list_orders(store, OrderQuery(status="open", run_id=run_id, limit=500))
    return {(o.sku, o.warehouse_id) for o in orders.orders}


@contextlib.asynccontextmanager
async def running(app: FastAPI) -> AsyncIterator[None]:
    """The app's lifespan, entered and left in one task of its own (the MCP session managers
    hold task groups that must be closed by the task that opened them)."""
    up = asyncio.Event()
    stop = asyncio.Event()

    async def hold() -> None:
        async with app.router.lifespan_context(app):
            up.set()
            await stop.wait()

    task = asyncio.create_task(hold())
    waiting = asyncio.create_task(up.wait())
    await asyncio.wait({task, waiting}, timeout=STARTUP_S, return_when=asyncio.FIRST_COMPLETED)
    waiting.cancel()
    if task.done():
        task.result()
    try:
        yield
    finally:
        stop.set()
        await asyncio.wait_for(task, timeout=60)


@contextlib.asynccontextmanager
async def with_worker(app: FastAPI) -> AsyncIterator[None]:
    """On a PostgreSQL store jobs wait for a worker: a real one, in this event loop, lending
    the app's engine. On SQLite the app runs them itself."""
    services = app.state.services
    if store_scheme(services.settings.store_url()) != "postgresql":
        yield
        return
    async with in_process_worker(services.settings, services.jobs.ingestor):
        yield


@contextlib.asynccontextmanager
async def started(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with (
        running(app),
        with_worker(app),
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app),
            base_url=BASE_URL,
            headers={"X-API-Key": KEY},
            timeout=60,
        ) as client,
    ):
        yield client


@pytest.fixture
async def client(settings: Settings, ingestor: Ingestor) -> AsyncIterator[httpx.AsyncClient]:
    async with started(create_app(settings, ingestor=ingestor)) as http:
        yield http


def http_scope(method: str, path: str, *headers: tuple[bytes, bytes]) -> dict[str, Any]:
    """The ASGI scope a server on 127.0.0.1:8000 hands the app for one request with the test
    key and `headers`: for a test that drives the app straight through ASGI."""
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1:8000"), (b"x-api-key", KEY.encode()), *headers],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }


def variant(data: bytes, n: int) -> bytes:
    """The same PNG picture with other bytes: a text chunk after the header."""
    text = png_chunk(b"tEXt", b"Comment\x00variant " + str(n).encode("ascii"))
    return data[:33] + text + data[33:]


def sse_events(text: str) -> list[tuple[int, dict[str, Any]]]:
    """(id, data) of each event in a server-sent event stream."""
    events = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        fields = dict(
            line.split(": ", 1) for line in block.split("\n") if line and not line.startswith(":")
        )
        if "data" in fields:
            events.append((int(fields["id"]), json.loads(fields["data"])))
    return events


async def ingest(client: httpx.AsyncClient, *files: tuple[str, bytes], **data: str) -> Any:
    response = await client.post(
        "/v1/ingest", files=[("file", (name, body, "image/png")) for name, body in files], data=data
    )
    assert response.status_code == 200, response.text
    return response.json()["results"]


async def follow(client: httpx.AsyncClient, run_id: str) -> list[tuple[int, dict[str, Any]]]:
    response = await client.get(f"/v1/runs/{run_id}/events")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    return sse_events(response.text)


@pytest.fixture(scope="session")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with serving(tmp_path_factory.mktemp("served"), api_workers="2") as server:
        yield server
