"""`/v1/ingest` in process (httpx over ASGI): rows and crops, several images in one upload, the
capture time sent, one OCR run for the same bytes, and an answer while every worker is busy."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import httpx

from pipeline.api import create_app
from pipeline.ingest.cache import IngestCache
from pipeline.settings import Settings
from tests.api.conftest import (
    SAMPLE,
    ingest,
    started,
    variant,
)
from tests.conftest import SAMPLES, CountingEngine, make_ingestor

TRUTH = json.loads((SAMPLES / "erp-light-wh01.png.truth.json").read_text(encoding="utf-8"))


async def test_ingest_of_the_sample_returns_its_rows_and_crop_with_the_content_hash_as_id(
    client: httpx.AsyncClient,
) -> None:
    (result,) = await ingest(client, (SAMPLE.name, SAMPLE.read_bytes()))
    assert result["id"] == result["sha256"]
    assert len(result["id"]) == 64
    # the sample writes no unit beside its quantities
    expected = [{**row, "unit": None} for row in TRUTH["rows"]]
    got = [{k: v for k, v in row.items() if k != "confidence"} for row in result["rows"]]
    assert got == expected
    assert result["size"] == TRUTH["size"]
    assert result["crop"] is not None
    assert result["captured_at_source"] == "png-text"
    assert "image" not in result


async def test_several_images_in_one_upload_come_back_in_the_order_sent(
    client: httpx.AsyncClient,
) -> None:
    second = SAMPLES / "erp-classic-wh02.png"
    results = await ingest(
        client, (second.name, second.read_bytes()), (SAMPLE.name, SAMPLE.read_bytes())
    )
    assert [r["file"] for r in results] == [second.name, SAMPLE.name]
    assert {r["rows"][0]["warehouse_id"] for r in results} == {"WH-02", "WH-01"}


async def test_a_capture_time_sent_with_the_upload_wins(client: httpx.AsyncClient) -> None:
    (result,) = await ingest(
        client, (SAMPLE.name, SAMPLE.read_bytes()), captured_at="2026-11-30T19:00:00+08:00"
    )
    assert result["captured_at_source"] == "caller"
    assert result["captured_at"] == "2026-11-30T19:00:00+08:00"
    assert result["age_s"] == 3600.0


async def test_concurrent_uploads_of_the_same_bytes_share_one_ocr_run(
    settings: Settings, counting: CountingEngine
) -> None:
    data = variant(SAMPLE.read_bytes(), 7)
    alone = CountingEngine(counting.inner)
    make_ingestor(alone, IngestCache(None)).ingest_bytes(data, name="alone.png")
    ingestor = make_ingestor(counting, IngestCache(None))
    async with started(create_app(settings, ingestor=ingestor)) as client:
        uploads = [ingest(client, (f"copy-{n}.png", data)) for n in range(4)]
        results = [r for (r,) in await asyncio.gather(*uploads)]
    assert sorted(r["cache"] for r in results) == ["memory", "memory", "memory", "miss"]
    assert counting.calls == alone.calls
    assert len({r["id"] for r in results}) == 1


class HeldEngine:
    """The real engine; while `hold` is set, each read waits (bounded) for `release`."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.models = inner.models
        self.hold = threading.Event()
        self.holding = threading.Event()
        self.release = threading.Event()

    def _wait(self) -> None:
        if self.hold.is_set():
            self.holding.set()
            assert self.release.wait(timeout=60), "never released"

    def recognize(self, crops: Any) -> Any:
        self._wait()
        return self.inner.recognize(crops)

    def read(self, image: Any) -> Any:
        self._wait()
        return self.inner.read(image)


async def test_an_upload_already_read_answers_while_every_ocr_worker_is_busy(
    settings: Settings, counting: CountingEngine
) -> None:
    engine = HeldEngine(counting.inner)
    ingestor = make_ingestor(engine, IngestCache(None))
    one_worker = settings.model_copy(update={"api_workers": 1})
    read_before = (SAMPLE.name, SAMPLE.read_bytes())
    async with started(create_app(one_worker, ingestor=ingestor)) as client:
        await ingest(client, read_before)
        engine.hold.set()
        busy = asyncio.create_task(ingest(client, ("new.png", variant(SAMPLE.read_bytes(), 9))))
        try:
            assert await asyncio.to_thread(engine.holding.wait, 60)
            (again,) = await asyncio.wait_for(ingest(client, read_before), timeout=30)
            assert not busy.done()
        finally:
            engine.release.set()
        (new,) = await asyncio.wait_for(busy, timeout=60)
    assert again["cache"] == "memory"
    assert new["cache"] == "miss"
