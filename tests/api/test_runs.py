"""`/v1/runs` in process (httpx over ASGI), over in-memory tool servers: proposals and
approvals, the event stream live and resumed, dry runs, multipart requests, what is refused."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from pipeline.api import create_app
from pipeline.host.record import RunRecord, append_run_log
from pipeline.ingest import Ingestor
from pipeline.ingest.cache import IngestCache
from pipeline.settings import Settings
from tests.api.conftest import (
    SAMPLE,
    TASK,
    follow,
    http_scope,
    ingest,
    open_orders,
    sse_events,
    started,
)
from tests.conftest import NOW, CountingEngine, make_ingestor
from tests.host.conftest import LOW_LIVE


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
    assert {(p["arguments"]["sku"], p["arguments"]["warehouse_id"]) for p in proposed} == LOW_LIVE
    assert [p["id"] for p in record["proposals"]] == [p["id"] for p in proposed]
    for proposal in proposed:
        decided = await client.post(f"/v1/approvals/{proposal['id']}/approve")
        assert decided.status_code == 200, decided.text
    assert open_orders(settings.resolved_db(), run_id=started_run["id"]) == LOW_LIVE
    listed = (await client.get("/v1/orders", params={"run_id": started_run["id"]})).json()
    assert {(o["sku"], o["warehouse_id"]) for o in listed["orders"]} == LOW_LIVE


async def test_with_approval_auto_a_run_writes_its_orders_at_once(
    settings: Settings, ingestor: Ingestor
) -> None:
    auto = settings.model_copy(update={"approval": "auto"})
    async with started(create_app(auto, ingestor=ingestor)) as client:
        (result,) = await ingest(client, (SAMPLE.name, SAMPLE.read_bytes()))
        run = await client.post("/v1/runs", json={"task": TASK, "ingest_ids": [result["id"]]})
        events = await follow(client, run.json()["id"])
    assert "proposal" not in {e["type"] for _, e in events}
    assert open_orders(settings.resolved_db(), run_id=run.json()["id"]) == LOW_LIVE


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
        response = await client.post("/v1/runs", json={"task": "check SKU-10232"})
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

    await app(http_scope("GET", path), receive, send)


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
    } == LOW_LIVE


async def test_a_run_whose_tool_servers_fail_still_ends_its_stream(
    settings: Settings, ingestor: Ingestor
) -> None:
    async def broken(_: Settings, **kwargs: Any) -> RunRecord:
        raise RuntimeError("socket closed")

    async with started(create_app(settings, ingestor=ingestor, run=broken)) as client:
        run = (await client.post("/v1/runs", json={"task": "check SKU-10232"})).json()
        assert run["status"] == "error"
        events = await follow(client, run["id"])
        assert [e["type"] for _, e in events] == ["run_finished"]
        assert events[0][1]["final"] == "the run failed: RuntimeError: socket closed"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({}, "task: is required"),
        ({"task": ""}, "task: String should have at least 1 character"),
        ({"task": "  \n\t "}, "task: Value error, only spaces; say what to do, like"),
        (
            {"task": "find the SKUs that are low and raise replenishment orders"},
            "no screenshot: the task (replenish · writes allowed) works from the table on a "
            "screenshot; upload images in 'file', or give ingest_ids from POST /v1/ingest",
        ),
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


async def test_a_run_that_asks_is_answered_a_yes_runs_its_reading_and_a_no_runs_nothing(
    settings: Settings, ingestor: Ingestor
) -> None:
    auto = settings.model_copy(update={"approval": "auto"})
    async with started(create_app(auto, ingestor=ingestor)) as client:
        (result,) = await ingest(client, (SAMPLE.name, SAMPLE.read_bytes()))
        task = "Replenish the low rows, SKU-10232 is quarantined."
        asked = await client.post("/v1/runs", json={"task": task, "ingest_ids": [result["id"]]})
        run_id = asked.json()["id"]
        events = await follow(client, run_id)
        assert events[-1][1]["status"] == "ask"
        record = (await client.get(f"/v1/runs/{run_id}")).json()
        assert "except SKU-10232" in record["question"]["text"]
        assert open_orders(settings.resolved_db()) == set()

        no = await client.post(f"/v1/runs/{run_id}/confirm", json={"go_ahead": False})
        assert no.status_code == 200 and no.json()["go_ahead"] is False
        assert open_orders(settings.resolved_db()) == set()

        yes = await client.post(f"/v1/runs/{run_id}/confirm", json={"go_ahead": True})
        assert yes.status_code == 202, yes.text
        confirmed = yes.json()["id"]
        await follow(client, confirmed)
        record = (await client.get(f"/v1/runs/{confirmed}")).json()
        assert (record["status"], record["confirms"]) == ("done", run_id)
        written = open_orders(settings.resolved_db(), run_id=confirmed)
        assert written == {o for o in LOW_LIVE if o[0] != "SKU-10232"}

        again = await client.post(f"/v1/runs/{confirmed}/confirm", json={"go_ahead": True})
        assert again.status_code == 409 and "asks nothing" in again.json()["message"]
