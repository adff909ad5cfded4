"""Streamable HTTP: the bearer guard in process, and real servers on 127.0.0.1 end to end."""

from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import anyio
import httpx2
import pytest
from mcp import Client, MCPError
from mcp.client.streamable_http import streamable_http_client
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from servers import approvals, domain
from servers.http_app import BearerAuth
from servers.toolkit import run_meta
from store.models import OrderQuery, ProposalQuery
from store.protocol import Store

TOKEN = "s3cret-token"


def hello(request: Request) -> PlainTextResponse:
    return PlainTextResponse("hello")


def guarded_client() -> httpx2.AsyncClient:
    app = BearerAuth(Starlette(routes=[Route("/", hello)]), TOKEN)
    return httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url="http://test")


@pytest.mark.parametrize(
    "authorization",
    [None, "Bearer wrong-token", f"Basic {TOKEN}", TOKEN, f"Bearer {TOKEN}x", "Bearer"],
)
async def test_a_request_without_the_right_bearer_token_gets_401(authorization: str | None) -> None:
    headers = {} if authorization is None else {"Authorization": authorization}
    async with guarded_client() as http:
        response = await http.get("/", headers=headers)
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == 'Bearer realm="stockshot"'


@pytest.mark.parametrize("scheme", ["Bearer", "bearer"])
async def test_a_request_with_the_bearer_token_passes(scheme: str) -> None:
    async with guarded_client() as http:
        response = await http.get("/", headers={"Authorization": f"{scheme} {TOKEN}"})
    assert (response.status_code, response.text) == (200, "hello")


def leaves(error: BaseException) -> Iterator[BaseException]:
    if isinstance(error, BaseExceptionGroup):
        for inner in error.exceptions:
            yield from leaves(inner)
    else:
        yield error


@contextmanager
def http_server(
    group: str, store_url: Path | str, token: str | None = None, approval: str | None = None
) -> Iterator[str]:
    """Run `python -m servers GROUP --transport http --port 0` on the store `store_url` (a
    SQLite path or a database URL); yield its base URL."""
    env = {**os.environ, "STOCKSHOT_DATABASE_URL": str(store_url)}
    if approval is not None:
        env["STOCKSHOT_APPROVAL"] = approval
    if token is not None:
        env["STOCKSHOT_MCP_TOKEN"] = token
    command = [sys.executable, "-m", "servers", group, "--transport", "http", "--port", "0"]
    with subprocess.Popen(
        command,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    ) as process:
        lines: queue.Queue[str | None] = queue.Queue()

        def read_stderr() -> None:
            assert process.stderr is not None
            for line in process.stderr:
                lines.put(line)
            lines.put(None)

        reader = threading.Thread(target=read_stderr, daemon=True)
        reader.start()
        try:
            yield _wait_for_url(lines)
        finally:
            process.terminate()
            process.wait(timeout=15)
            reader.join(timeout=15)


def _wait_for_url(lines: queue.Queue[str | None]) -> str:
    seen: list[str] = []
    while True:
        line = lines.get(timeout=30)
        if line is None:
            raise AssertionError(f"the server exited before serving: {''.join(seen)}")
        seen.append(line)
        if match := re.search(r"at (http://127\.0\.0\.1:\d+)", line):
            return match.group(1)


async def test_all_groups_over_http_need_the_token_and_work_with_it(
    store: Store, store_url: str
) -> None:
    with http_server("all", store_url, token=TOKEN) as base:
        with anyio.fail_after(60):
            async with httpx2.AsyncClient() as anonymous:
                refused = await anonymous.post(f"{base}/orders/mcp", json={})
            assert refused.status_code == 401

            with pytest.raises(BaseExceptionGroup) as caught:
                async with Client(f"{base}/inventory/mcp") as client:
                    await client.list_tools()
            assert any(isinstance(e, MCPError) for e in leaves(caught.value))

            headers = {"Authorization": f"Bearer {TOKEN}"}
            async with httpx2.AsyncClient(headers=headers, timeout=30) as http:
                async with Client(
                    streamable_http_client(f"{base}/inventory/mcp", http_client=http)
                ) as inventory:
                    names = [t.name for t in (await inventory.list_tools()).tools]
                    read = await inventory.call_tool(
                        "inventory_query_stock", {"warehouse_id": "WH-01", "skus": ["SKU-10232"]}
                    )
                async with Client(
                    streamable_http_client(f"{base}/orders/mcp", http_client=http)
                ) as orders:
                    write = await orders.call_tool(
                        "orders_create_replenishment",
                        {"sku": "SKU-10232", "warehouse_id": "WH-01", "quantity": 100},
                        meta=run_meta("run-http"),
                    )
    assert names == ["inventory_query_stock", "inventory_find_items", "inventory_get_item"]
    assert read.structured_content is not None
    assert read.structured_content["items"][0]["on_hand"] == 38
    # A standalone server holds writes for a person unless told otherwise.
    assert not write.is_error
    assert write.structured_content is not None
    (queued,) = write.structured_content["queued"]
    assert domain.list_orders(store, OrderQuery()).orders == []
    (proposal,) = approvals.list_proposals(store, ProposalQuery(), now=datetime.now(UTC))
    assert (proposal.id, proposal.status, proposal.run_id) == (
        queued["proposal_id"],
        "pending",
        "run-http",
    )


async def test_a_standalone_server_told_to_approve_automatically_writes_at_once(
    store: Store, store_url: str
) -> None:
    with http_server("orders", store_url, approval="auto") as base, anyio.fail_after(60):
        async with Client(f"{base}/mcp") as orders:
            write = await orders.call_tool(
                "orders_create_replenishment",
                {"sku": "SKU-10232", "warehouse_id": "WH-01", "quantity": 100},
                meta=run_meta("run-http"),
            )
    assert not write.is_error
    (stored,) = domain.list_orders(store, OrderQuery()).orders
    assert stored.run_id == "run-http"


async def test_one_group_over_http_without_a_token_serves_at_slash_mcp(
    store: Store, store_url: str
) -> None:
    with http_server("warehouses", store_url) as base, anyio.fail_after(60):
        async with Client(f"{base}/mcp") as client:
            listed = await client.call_tool("warehouses_list", {})
            instructions = client.instructions
    assert listed.structured_content is not None
    assert len(listed.structured_content["warehouses"]) == 3
    assert instructions is not None
    assert instructions.startswith("Warehouse tools")
