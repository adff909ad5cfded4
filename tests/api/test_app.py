"""The API in process (httpx over ASGI): ingest, runs over in-memory servers, events, orders."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from pipeline.api import create_app
from pipeline.cache import IngestCache
from pipeline.host.record import RunRecord, append_run_log
from pipeline.ingest import Ingestor
from pipeline.settings import Settings
from tests.api.conftest import (
    EXPECTED_ORDERS,
    SAMPLE,
    TASK,
    follow,
    ingest,
    open_orders,
    sse_events,
    started,
    variant,
)
from tests.api.serve import KEY
from tests.conftest import NOW, SAMPLES, CountingEngine, make_ingestor

TRUTH = json.loads((SAMPLES / "erp-light-wh01.png.truth.json").read_text(encoding="utf-8"))


# ---- ingest


async def test_ingest_of_the_sample_returns_its_rows_and_crop_with_the_content_hash_as_id(
    client: httpx.AsyncClient,
) -> None:
    (result,) = await ingest(client, (SAMPLE.name, SAMPLE.read_bytes()))
    assert result["id"] == result["sha256"]
    assert len(result["id"]) == 64
    expected = [{k: row[k] for k in sorted(row)} for row in TRUTH["rows"]]
    got = [{k: row[k] for k in sorted(row) if k != "confidence"} for row in result["rows"]]
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


# ---- runs


async def test_a_run_proposes_the_expected_orders_and_approving_them_writes_exactly_those(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    (result,) = await ingest(client, (SAMPLE.name, SAMPLE.read_bytes()))
    response = await client.post("/v1/runs", json={"task": TASK, "ingest_ids": [result["id"]]})
    assert response.status_code == 202
    started_run = response.json()
    assert started_run["status"] in ("running", "done")
    assert response.headers["location"] == f"/v1/runs/{started_run['id']}"
    events = await follow(client, started_run["id"])
    assert events[-1][1]["type"] == "run_finished"
    assert events[-1][1]["status"] == "done"
    record = (await client.get(f"/v1/runs/{started_run['id']}")).json()
    assert record["status"] == "done" and record["approval"] == "manual"
    assert "SKU-10402 in WH-01: not low any more" in record["final"]
    assert open_orders(settings.resolved_db(), run_id=started_run["id"]) == set()
    proposed = [e for _, e in events if e["type"] == "proposal"]
    assert {(p["arguments"]["sku"], p["arguments"]["warehouse_id"]) for p in proposed} == (
        EXPECTED_ORDERS
    )
    assert [p["id"] for p in record["proposals"]] == [p["id"] for p in proposed]
    for proposal in proposed:
        decided = await client.post(f"/v1/approvals/{proposal['id']}/approve")
        assert decided.status_code == 200, decided.text
    assert open_orders(settings.resolved_db(), run_id=started_run["id"]) == EXPECTED_ORDERS
    listed = (await client.get("/v1/orders", params={"run_id": started_run["id"]})).json()
    assert {(o["sku"], o["warehouse_id"]) for o in listed["orders"]} == EXPECTED_ORDERS


async def test_with_approval_auto_a_run_writes_its_orders_at_once(
    settings: Settings, ingestor: Ingestor
) -> None:
    auto = settings.model_copy(update={"approval": "auto"})
    async with started(create_app(auto, ingestor=ingestor)) as client:
        (result,) = await ingest(client, (SAMPLE.name, SAMPLE.read_bytes()))
        run = await client.post("/v1/runs", json={"task": TASK, "ingest_ids": [result["id"]]})
        events = await follow(client, run.json()["id"])
    assert "proposal" not in {e["type"] for _, e in events}
    assert open_orders(settings.resolved_db(), run_id=run.json()["id"]) == EXPECTED_ORDERS


async def test_the_event_stream_replays_what_happened_then_ends_with_run_finished(
    client: httpx.AsyncClient,
) -> None:
    (result,) = await ingest(client, (SAMPLE.name, SAMPLE.read_bytes()))
    run = (
        await client.post(
            "/v1/runs", json={"task": TASK, "ingest_ids": [result["id"]], "dry_run": True}
        )
    ).json()
    events = await follow(client, run["id"])
    assert [n for n, _ in events] == list(range(len(events)))
    kinds = [e["type"] for _, e in events]
    assert kinds[0] == "run_started"
    assert kinds[-1] == "run_finished"
    assert kinds.count("run_finished") == 1
    assert {"model_response", "tool_call"} <= set(kinds)
    writes = [e for _, e in events if e.get("name") == "orders_create_replenishment"]
    assert writes
    assert all(w["dry_run"] and not w["executed"] for w in writes)
    assert all(e["run_id"] == run["id"] for _, e in events)
    again = await follow(client, run["id"])
    assert again == events


async def test_the_event_stream_delivers_live_events_as_they_happen_and_resumes_by_id(
    settings: Settings, ingestor: Ingestor
) -> None:
    gate = asyncio.Event()

    async def run(_: Settings, **kwargs: Any) -> RunRecord:
        emit: Callable[[dict[str, Any]], None] = kwargs["on_event"]
        emit({"run_id": "run-live", "type": "run_started", "groups": ["inventory"]})
        await gate.wait()
        emit({"run_id": "run-live", "type": "model_response", "hop": 1, "content": "补货\nnext"})
        emit({"run_id": "run-live", "type": "run_finished", "status": "done", "final": "ok"})
        return RunRecord(
            id="run-live", task=kwargs["task"], model="rules", groups=[], status="done",
            final="ok", started_at=NOW,
        )  # fmt: skip

    app = create_app(settings, ingestor=ingestor, run=run)
    async with started(app) as client:
        response = await client.post("/v1/runs", json={"task": "check"})
        started_run = response.json()
        assert {k: started_run[k] for k in ("id", "status")} == {
            "id": "run-live",
            "status": "running",
        }
        assert started_run["task_contract"]["action"] == "report"
        during = (await client.get("/v1/runs/run-live")).json()
        assert during["status"] == "running"
        assert during["groups"] == ["inventory"]
        chunks: asyncio.Queue[bytes] = asyncio.Queue()
        following = asyncio.create_task(stream(app, "/v1/runs/run-live/events", chunks))
        first = await asyncio.wait_for(chunks.get(), timeout=30)
        assert b"event: run_started" in first
        assert chunks.empty()
        gate.set()
        await asyncio.wait_for(following, timeout=30)
        rest = b""
        while not chunks.empty():
            rest += chunks.get_nowait()
        events = sse_events((first + rest).decode())
        assert [e["type"] for _, e in events] == ["run_started", "model_response", "run_finished"]
        # one event per block: its type, its JSON on one line, its number to resume after
        assert (
            "event: model_response\n"
            'data: {"run_id":"run-live","type":"model_response","hop":1,"content":"补货\\nnext"}\n'
            "id: 1\n\n"
        ) in (first + rest).decode()
        resumed = await client.get("/v1/runs/run-live/events", headers={"Last-Event-ID": "0"})
        assert [n for n, _ in sse_events(resumed.text)] == [1, 2]
        assert (await client.get("/v1/runs/run-live")).json()["final"] == "ok"


async def stream(app: Any, path: str, chunks: asyncio.Queue[bytes]) -> None:
    """GET `path` straight through ASGI, handing each body chunk over as it is sent."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1:8000"), (b"x-api-key", KEY.encode())],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }
    done = asyncio.Event()

    async def receive() -> dict[str, Any]:
        await done.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.body":
            if message.get("body"):
                chunks.put_nowait(message["body"])
            if not message.get("more_body", False):
                done.set()

    await app(scope, receive, send)


async def test_a_dry_run_raises_no_orders(client: httpx.AsyncClient, settings: Settings) -> None:
    (result,) = await ingest(client, (SAMPLE.name, SAMPLE.read_bytes()))
    run = (
        await client.post(
            "/v1/runs", json={"task": TASK, "ingest_ids": [result["id"]], "dry_run": True}
        )
    ).json()
    await follow(client, run["id"])
    record = (await client.get(f"/v1/runs/{run['id']}")).json()
    assert record["dry_run"] is True
    assert open_orders(settings.resolved_db()) == set()


async def test_a_run_can_bring_its_screenshots_in_a_multipart_request(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    response = await client.post(
        "/v1/runs",
        files={"file": (SAMPLE.name, SAMPLE.read_bytes(), "image/png")},
        data={"task": TASK, "dry_run": "false"},
    )
    assert response.status_code == 202, response.text
    run_id = response.json()["id"]
    await follow(client, run_id)
    record = (await client.get(f"/v1/runs/{run_id}")).json()
    assert [a["sha256"] for a in record["attachments"]] == [
        (await ingest(client, (SAMPLE.name, SAMPLE.read_bytes())))[0]["id"]
    ]
    assert {
        (p["arguments"]["sku"], p["arguments"]["warehouse_id"]) for p in record["proposals"]
    } == (EXPECTED_ORDERS)


async def test_a_run_whose_tool_servers_fail_still_ends_its_stream(
    settings: Settings, ingestor: Ingestor
) -> None:
    async def broken(_: Settings, **kwargs: Any) -> RunRecord:
        raise RuntimeError("socket closed")

    async with started(create_app(settings, ingestor=ingestor, run=broken)) as client:
        run = (await client.post("/v1/runs", json={"task": "check"})).json()
        assert run["status"] == "error"
        events = await follow(client, run["id"])
        assert [e["type"] for _, e in events] == ["run_finished"]
        assert events[0][1]["final"] == "the run failed: RuntimeError: socket closed"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({}, "task: is required"),
        ({"task": ""}, "task: String should have at least 1 character"),
        ({"task": "x", "ingest_ids": ["nope"]}, "ingest_ids: unknown 'nope'; upload the image"),
        ({"task": "x", "model": "gpt"}, "unknown model 'gpt'; known: openai, rules"),
        ({"task": "x", "model": "scripted:/etc/passwd"}, "not offered over the API"),
        ({"task": "x", "model": "openai:qwen"}, "needs STOCKSHOT_BASE_URL set on the server"),
        ({"task": "x", "guards": {"stall": False}}, "per-request guard switches are off"),
        ({"task": "x", "guards": {"scope": False}}, "scope holds every write to the task"),
        ({"task": "x", "dryrun": True}, "dryrun: Extra inputs are not permitted"),
    ],
)
async def test_a_run_request_that_cannot_run_is_422_and_says_why(
    client: httpx.AsyncClient, body: dict[str, Any], expected: str
) -> None:
    response = await client.post("/v1/runs", json=body)
    assert response.status_code == 422
    assert expected in response.json()["message"]


async def test_guard_switches_per_request_are_the_servers_to_allow_and_never_reach_scope(
    settings: Settings, ingestor: Ingestor
) -> None:
    allowing = settings.model_copy(update={"api_guard_switches": True})
    async with started(create_app(allowing, ingestor=ingestor)) as client:
        typo = await client.post("/v1/runs", json={"task": "x", "guards": {"stal": False}})
        scope = await client.post("/v1/runs", json={"task": "x", "guards": {"scope": False}})
        allowed = await client.post("/v1/runs", json={"task": "x", "guards": {"stall": False}})
    assert typo.status_code == scope.status_code == 422
    assert "unknown guard 'stal'; known: arg_repair" in typo.json()["message"]
    assert "cannot be switched off per request" in scope.json()["message"]
    assert allowed.status_code == 202


@pytest.mark.parametrize(
    ("task", "action", "writes", "groups"),
    [
        ("Which SKUs are low? Do not place any orders, just tell me.", "report", False, 2),
        ("Order 10 units of SKU-10232 only", "order", True, 3),
        ("Cancel order PO-000001", "cancel", True, 1),
    ],
)
async def test_the_contract_of_a_task_is_shown_before_anything_runs(
    client: httpx.AsyncClient, task: str, action: str, writes: bool, groups: int
) -> None:
    response = await client.get("/v1/contract", params={"task": task})
    assert response.status_code == 200
    body = response.json()
    assert body["task_contract"]["action"] == action
    assert body["task_contract"]["writes_allowed"] is writes
    assert len(body["groups"]) == groups
    assert body["summary"].startswith(action)


async def test_a_multipart_run_request_is_checked_before_its_images_are_read(
    settings: Settings, counting: CountingEngine
) -> None:
    app = create_app(settings, ingestor=make_ingestor(counting, IngestCache(None)))
    async with started(app) as client:
        files = {"file": (SAMPLE.name, SAMPLE.read_bytes(), "image/png")}
        bad_model = await client.post("/v1/runs", files=files, data={"task": "x", "model": "gpt"})
        bad_guards = await client.post("/v1/runs", files=files, data={"task": "x", "guards": "{"})
    assert bad_model.status_code == bad_guards.status_code == 422
    assert bad_guards.json()["message"] == 'guards: not valid JSON; send it like {"stall": false}'
    assert counting.calls == 0


async def test_a_run_request_that_is_not_json_or_multipart_is_refused(
    client: httpx.AsyncClient,
) -> None:
    bad_json = await client.post(
        "/v1/runs", content=b"{task:", headers={"Content-Type": "application/json"}
    )
    assert (bad_json.status_code, bad_json.json()["message"]) == (
        422,
        "the body is not valid JSON",
    )
    text = await client.post("/v1/runs", content=b"task", headers={"Content-Type": "text/plain"})
    assert text.status_code == 415


async def test_an_unknown_run_is_404_and_one_from_an_earlier_process_comes_from_the_log(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    assert (await client.get("/v1/runs/run-nope")).status_code == 404
    assert (await client.get("/v1/runs/run-nope/events")).status_code == 404
    earlier = RunRecord(
        id="run-earlier", task="t", model="rules", groups=[], status="done", final="fine",
        started_at=NOW,
    )  # fmt: skip
    append_run_log(settings.resolved_run_log(), earlier)
    assert (await client.get("/v1/runs/run-earlier")).json()["final"] == "fine"
    events = await follow(client, "run-earlier")
    assert [e for _, e in events] == [
        {
            "run_id": "run-earlier",
            "type": "run_finished",
            "status": "done",
            "final": "fine",
            "final_by": None,  # a record written before final_by was kept
        }
    ]


# ---- orders, health, docs, page


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
