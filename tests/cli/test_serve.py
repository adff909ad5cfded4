"""`stockshot serve` as a real process on 127.0.0.1: HTTP, the event stream and MCP."""

from __future__ import annotations

import json
import socket

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from pipeline.bootstrap import run_agent
from pipeline.cli import main
from pipeline.cli.serve import bind
from pipeline.ingest import Ingestor
from pipeline.settings import Settings
from tests.api.conftest import SAMPLE, TASK
from tests.api.serve import KEY, Served


def test_the_served_api_reads_a_sample_and_wants_a_key(served: Served) -> None:
    with httpx.Client(base_url=served.url, timeout=60) as http:
        assert http.get("/readyz").json()["ready"] is True
        files = {"file": (SAMPLE.name, SAMPLE.read_bytes(), "image/png")}
        assert http.post("/v1/ingest", files=files).status_code == 401
        response = http.post("/v1/ingest", files=files, headers={"X-API-Key": KEY})
    assert response.status_code == 200
    (result,) = response.json()["results"]
    assert len(result["rows"]) == 17
    assert sum(r["on_hand"] < r["reorder_point"] for r in result["rows"]) == 7


def test_a_served_run_streams_its_events_until_it_finishes(served: Served) -> None:
    headers = {"Authorization": f"Bearer {KEY}"}
    with httpx.Client(base_url=served.url, timeout=60, headers=headers) as http:
        files = {"file": (SAMPLE.name, SAMPLE.read_bytes(), "image/png")}
        run = http.post("/v1/runs", files=files, data={"task": TASK, "dry_run": "true"}).json()
        kinds = []
        with http.stream("GET", f"/v1/runs/{run['id']}/events") as stream:
            for line in stream.iter_lines():
                if line.startswith("data: "):
                    kinds.append(json.loads(line[6:])["type"])
        assert kinds[0] == "run_started"
        assert kinds[-1] == "run_finished"
        assert http.get(f"/v1/runs/{run['id']}").json()["status"] == "done"


async def test_the_mounted_mcp_servers_answer_a_client_with_the_bearer_token(
    served: Served,
) -> None:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {KEY}"}, timeout=30)
    url = f"{served.url}/mcp/inventory/mcp"
    async with http, Client(streamable_http_client(url, http_client=http)) as client:
        tools = await client.list_tools()
        stock = await client.call_tool("inventory_query_stock", {"warehouse_id": "WH-01"})
    assert {"inventory_query_stock", "inventory_get_item"} <= {t.name for t in tools.tools}
    assert stock.is_error is False
    async with httpx2.AsyncClient(timeout=30) as anonymous:
        assert (await anonymous.post(url, json={})).status_code == 401


async def test_the_host_can_run_over_a_served_instance_by_its_mcp_url(
    served: Served, ingestor: Ingestor
) -> None:
    settings = Settings(mcp_url=f"{served.url}/mcp", mcp_token=KEY)
    screenshot = ingestor.ingest_path(SAMPLE)
    record = await run_agent(settings, task=TASK, results=[screenshot], dry_run=True, log_run=False)
    assert record.status == "done", record.final
    called = {c.name for c in record.tool_calls}
    assert {"inventory_query_stock", "orders_create_replenishment"} <= called


def test_serve_on_a_busy_port_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err


def test_the_served_socket_sends_small_responses_without_waiting() -> None:
    with bind("127.0.0.1", 0) as sock:
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
