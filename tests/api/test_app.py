"""The API in process (httpx over ASGI): orders, health and readiness, the OpenAPI document,
CORS and the dashboard's files."""

from __future__ import annotations

from pathlib import Path

import httpx

from pipeline.api import create_app
from pipeline.ingest import Ingestor
from pipeline.ocr import OcrEngine
from pipeline.settings import Settings
from tests.api.conftest import (
    SAMPLE,
    started,
)
from tests.conftest import CountingEngine, make_ingestor


class LoadCountingEngine(CountingEngine):
    """The real engine, counting its reads and how often it was asked to load its models."""

    def __init__(self, inner: OcrEngine) -> None:
        super().__init__(inner)
        self.loads = 0

    def load(self) -> None:
        self.loads += 1


async def test_orders_are_listed_newest_first_and_a_bad_filter_says_what_exists(
    client: httpx.AsyncClient,
) -> None:
    assert (await client.get("/v1/orders")).json() == {"orders": []}
    response = await client.get("/v1/orders", params={"warehouse_id": "SKU-10232"})
    assert response.status_code == 422
    assert "warehouses: WH-01" in response.json()["message"]
    assert (await client.get("/v1/orders", params={"limit": 0})).status_code == 422
    status = await client.get("/v1/orders", params={"status": "lost"})
    assert status.status_code == 422
    assert status.json()["message"].startswith("status: Input should be 'open' or 'cancelled'")


async def test_health_and_readiness_report_the_store_and_the_ocr_engine(
    client: httpx.AsyncClient, settings: Settings, ingestor: Ingestor, tmp_path: Path
) -> None:
    assert (await client.get("/healthz")).json()["status"] == "ok"
    ready = (await client.get("/readyz")).json()
    assert ready["ready"] is True
    assert ready["checks"]["store"] == {"ok": True, "warehouses": 3}
    assert ready["checks"]["ocr"] == {"ok": True, "engine": "rapidocr"}


async def test_a_server_loads_its_engine_before_it_is_ready_and_keeps_it_for_every_upload(
    settings: Settings, rapidocr: OcrEngine
) -> None:
    engine = LoadCountingEngine(rapidocr)
    async with started(create_app(settings, ingestor=make_ingestor(engine))) as client:
        assert (await client.get("/readyz")).status_code == 200
        assert (engine.loads, engine.calls) == (1, 0)
        for _ in range(2):
            upload = {"file": (SAMPLE.name, SAMPLE.read_bytes(), "image/png")}
            response = await client.post("/v1/ingest", files=upload)
            assert response.json()["results"][0]["rows"]
    assert engine.loads == 1
    assert engine.calls > 0


async def test_readiness_is_503_while_the_store_cannot_be_read(
    settings: Settings, ingestor: Ingestor
) -> None:
    async with started(create_app(settings, ingestor=ingestor)) as client:
        client._transport.app.state.services.slot.store = None  # type: ignore[attr-defined]
        response = await client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"]["store"]["ok"] is False


async def test_the_openapi_document_lists_every_route_with_examples(
    client: httpx.AsyncClient,
) -> None:
    spec = (await client.get("/openapi.json")).json()
    assert {
        "/v1/ingest",
        "/v1/runs",
        "/v1/runs/{run_id}",
        "/v1/runs/{run_id}/events",
        "/v1/orders",
        "/healthz",
        "/readyz",
    } <= set(spec["paths"])
    run_body = spec["paths"]["/v1/runs"]["post"]["requestBody"]["content"]
    assert run_body["application/json"]["example"]["task"]
    assert "multipart/form-data" in spec["paths"]["/v1/ingest"]["post"]["requestBody"]["content"]
    assert {"APIKeyHeader", "HTTPBearer"} <= set(spec["components"]["securitySchemes"])
    assert "401" in spec["paths"]["/v1/orders"]["get"]["responses"]
    assert (await client.get("/docs")).status_code == 200


async def test_cors_lets_configured_origins_in_and_no_others(
    settings: Settings, ingestor: Ingestor
) -> None:
    allowed = "https://dash.example.com"
    app = create_app(settings.model_copy(update={"cors_origins": [allowed]}), ingestor=ingestor)
    async with started(app) as client:
        preflight = {"Access-Control-Request-Method": "POST"}
        ok = await client.options("/v1/ingest", headers={"Origin": allowed, **preflight})
        other = await client.options(
            "/v1/ingest", headers={"Origin": "https://evil.example", **preflight}
        )
    assert ok.status_code == 200
    assert ok.headers["access-control-allow-origin"] == allowed
    assert other.status_code == 400
    assert "access-control-allow-origin" not in other.headers


async def test_the_dashboard_page_and_its_files_are_served(client: httpx.AsyncClient) -> None:
    page = await client.get("/")
    assert page.headers["content-type"].startswith("text/html")
    assert '<label for="file">' in page.text
    assert '<script src="/static/app.js"' in page.text
    assert (await client.get("/static/app.css")).status_code == 200
