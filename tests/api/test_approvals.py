"""The approvals inbox over the API: runs propose, people approve or deny, the ledger holds
exactly what was approved, once, re-checked live at the moment of approval."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from pipeline.api import create_app
from pipeline.bootstrap import open_store as open_settings_store
from pipeline.ingest import Ingestor
from pipeline.settings import Settings
from servers import domain
from store.models import OrderQuery, StockRecord
from store.stores import open_store
from tests.api.conftest import BASE_URL, SAMPLE, follow, ingest, open_orders, started
from tests.api.serve import KEY, seed_store, serving
from tests.host.conftest import LOW_LIVE

TASK = "find the SKUs that are low and raise replenishment orders"
LOW_SKUS = {sku for sku, _ in LOW_LIVE}


async def propose(client: httpx.AsyncClient) -> list[dict[str, Any]]:
    """Run the demo task over the sample; the writes come back as proposals."""
    (result,) = await ingest(client, (SAMPLE.name, SAMPLE.read_bytes()))
    run = (await client.post("/v1/runs", json={"task": TASK, "ingest_ids": [result["id"]]})).json()
    await follow(client, run["id"])
    record = (await client.get(f"/v1/runs/{run['id']}")).json()
    assert record["approval"] == "manual"
    return list(record["proposals"])


def orders(store_url: str) -> list[tuple[str, str, int, str | None]]:
    with open_store(store_url) as store:
        found = domain.list_orders(store, OrderQuery(limit=500)).orders
    return [(o.sku, o.warehouse_id, o.quantity, o.idempotency_key) for o in found]


@pytest.fixture(params=["sqlite", "postgresql"])
def settings(request: pytest.FixtureRequest, settings: Settings) -> Settings:
    """The approvals suite runs on each kind of store: the seeded SQLite file, or a seeded
    PostgreSQL database named by STOCKSHOT_DATABASE_URL."""
    if request.param == "sqlite":
        return settings
    url = seed_store(request.getfixturevalue("postgres_url"))
    return settings.model_copy(update={"database_url": url})


@pytest.fixture(params=["sqlite", "postgresql"])
def served_store(request: pytest.FixtureRequest) -> str | None:
    """The store a served process uses: its SQLite file (None), or a PostgreSQL database."""
    if request.param == "sqlite":
        return None
    url: str = request.getfixturevalue("postgres_url")
    return url


async def delivered_after_proposal(
    client: httpx.AsyncClient,
    settings: Settings,
    sku: str,
    *,
    name: str,
    on_hand: int,
    reorder_point: int,
) -> str:
    """The id of the demo run's proposal for `sku`, after which a delivery to WH-01 made the
    live row of `sku` say `on_hand`."""
    chosen = by_sku(await propose(client), sku)
    row = StockRecord(
        sku=sku,
        name=name,
        warehouse_id="WH-01",
        on_hand=on_hand,
        reorder_point=reorder_point,
        on_order=0,
    )
    with open_settings_store(settings) as store:
        domain.import_records(store, [row], now=datetime.now(UTC), source="a delivery")
    return chosen


def by_sku(proposals: list[dict[str, Any]], sku: str) -> str:
    return next(str(p["id"]) for p in proposals if p["arguments"]["sku"] == sku)


async def test_a_run_under_manual_approval_writes_nothing_and_lists_what_it_proposed(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    proposals = await propose(client)

    assert {p["arguments"]["sku"] for p in proposals} == LOW_SKUS
    assert orders(settings.store_url()) == []
    listed = (await client.get("/v1/approvals", params={"status": "pending"})).json()
    assert [p["id"] for p in listed["proposals"]] == [p["id"] for p in reversed(proposals)]
    one = (await client.get(f"/v1/approvals/{by_sku(proposals, 'SKU-10232')}")).json()
    assert one["status"] == "pending"
    assert one["arguments"] == {
        "sku": "SKU-10232",
        "warehouse_id": "WH-01",
        "observed_on_hand": 38,
        "observed_at": "2026-11-28T10:05:00+08:00",
    }
    assert len(one["arguments_sha256"]) == 64
    assert one["observation"] == {
        "sku": "SKU-10232",
        "warehouse_id": "WH-01",
        "on_hand": 38,
        "reorder_point": 120,
        "captured_at": "2026-11-28T10:05:00+08:00",
        "screen": SAMPLE.name,
    }
    assert one["live"] == {"on_hand": 38, "on_order": 0, "reorder_point": 120}
    assert one["screenshot_age_s"] > 0


async def test_approving_writes_exactly_the_stored_call_once_and_says_who_decided(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    proposals = await propose(client)
    chosen = by_sku(proposals, "SKU-10232")

    approved = await client.post(f"/v1/approvals/{chosen}/approve")
    again = await client.post(f"/v1/approvals/{chosen}/approve")

    assert approved.status_code == 200, approved.text
    body = approved.json()
    assert body["outcome"] == "approved"
    assert body["order"]["sku"] == "SKU-10232" and body["order"]["quantity"] == 202
    assert body["proposal"]["decided_by"] == "api:key-1"
    assert body["proposal"]["order_id"] == body["order"]["id"]
    assert again.status_code == 409
    assert again.json()["error"] == "not_pending"
    assert "is approved by api:key-1" in again.json()["message"]
    assert orders(settings.store_url()) == [("SKU-10232", "WH-01", 202, f"approval-{chosen}")]
    with open_settings_store(settings) as store:
        audit = [(e.action, e.outcome) for e in domain.audit_log(store, limit=50)]
    assert ("approval approved", "accepted") in audit
    assert ("orders_create_replenishment", "accepted") in audit


async def test_a_proposal_whose_sku_was_restocked_expires_saying_why_and_is_not_approved(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    chosen = await delivered_after_proposal(
        client, settings, "SKU-10310", name="x", on_hand=900, reorder_point=100
    )

    refused = await client.post(f"/v1/approvals/{chosen}/approve")

    assert refused.status_code == 409
    body = refused.json()
    assert body["error"] == "not_pending"
    assert (
        "SKU-10310 in WH-01 is not low now: on_hand 900 + on_order 0 >= reorder_point 100"
        in body["message"]
    )
    assert orders(settings.store_url()) == []
    later = (await client.get(f"/v1/approvals/{chosen}")).json()
    assert later["status"] == "expired"
    assert later["reason"].startswith("no longer needed: SKU-10310 in WH-01 is not low now")


async def test_a_pending_proposal_shows_the_quantity_and_the_item_an_approval_would_order(
    client: httpx.AsyncClient,
) -> None:
    proposals = await propose(client)
    one = (await client.get(f"/v1/approvals/{by_sku(proposals, 'SKU-10232')}")).json()
    listed = (await client.get("/v1/approvals", params={"status": "pending"})).json()
    planned = one["planned"]
    # 38 on hand, 0 on order, reorder point 120: up to 2 x 120 = 240, so 202 units.
    assert (planned["quantity"], planned["quantity_source"]) == (202, "policy")
    assert planned["quantity_at_proposal"] == 202 and planned["change"] is None
    assert planned["name"] == "Hex nut M8 (box of 200)"
    assert "2 x 120 - (38 on hand + 0 on order) = 202" in planned["rule"]
    assert all(p["planned"]["quantity"] is not None for p in listed["proposals"])


async def test_an_approval_after_a_partial_restock_orders_less_and_says_why(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    chosen = await delivered_after_proposal(
        client, settings, "SKU-10232", name="Hex nut M8 (box of 200)", on_hand=60, reorder_point=120
    )
    shown = (await client.get(f"/v1/approvals/{chosen}")).json()["planned"]
    approved = await client.post(f"/v1/approvals/{chosen}/approve")

    assert shown["quantity"] == 180
    assert shown["change"] == "quantity 202 -> 180: 22 arrived or were ordered since the proposal"
    body = approved.json()
    assert approved.status_code == 200, approved.text
    assert body["order"]["quantity"] == 180
    assert "quantity 202 -> 180: 22 arrived" in body["message"]
    with open_settings_store(settings) as store:
        reasons = [e.reason for e in domain.audit_log(store, limit=20)]
    assert any(r.startswith("quantity 202 -> 180") for r in reasons if r)


async def test_deny_keeps_the_reason_writes_nothing_and_cannot_be_approved_after(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    proposals = await propose(client)
    chosen = by_sku(proposals, "SKU-10520")

    denied = await client.post(f"/v1/approvals/{chosen}/deny", json={"reason": "supplier away"})
    approve = await client.post(f"/v1/approvals/{chosen}/approve")
    bare = await client.post(f"/v1/approvals/{by_sku(proposals, 'SKU-10501')}/deny")

    assert denied.status_code == 200
    assert denied.json()["proposal"]["status"] == "denied"
    assert denied.json()["proposal"]["reason"] == "supplier away"
    assert approve.status_code == 409 and "is denied by api:key-1" in approve.json()["message"]
    assert bare.status_code == 200 and bare.json()["proposal"]["reason"] == "denied"
    assert orders(settings.store_url()) == []


async def test_unknown_ids_are_404_and_another_key_is_401(client: httpx.AsyncClient) -> None:
    for path in ("/v1/approvals/AP-999999", "/v1/approvals/PO-000001"):
        missing = await client.get(path)
        assert missing.status_code == 404
        assert "no proposal" in missing.json()["message"]
    assert (await client.post("/v1/approvals/AP-999999/approve")).status_code == 404
    foreign = await client.post(
        "/v1/approvals/AP-000001/approve", headers={"X-API-Key": "not-ours"}
    )
    assert foreign.status_code == 401
    assert (await client.get("/v1/approvals", params={"status": "maybe"})).status_code == 422


async def test_an_expired_proposal_cannot_be_approved(
    settings: Settings, ingestor: Ingestor
) -> None:
    short = settings.model_copy(update={"approval_ttl_s": 0.001})
    async with started(create_app(short, ingestor=ingestor)) as client:
        proposals = await propose(client)
        chosen = proposals[0]["id"]
        late = await client.post(f"/v1/approvals/{chosen}/approve")
        listed = (await client.get("/v1/approvals", params={"status": "expired"})).json()
    assert late.status_code == 409 and f"{chosen} is expired" in late.json()["message"]
    assert {p["id"] for p in listed["proposals"]} == {p["id"] for p in proposals}
    assert orders(settings.store_url()) == []


async def test_a_named_key_is_who_decided(settings: Settings, ingestor: Ingestor) -> None:
    named = settings.model_copy(update={"api_keys": ["alice:alice-secret"]})
    async with started(create_app(named, ingestor=ingestor)) as client:
        client.headers["X-API-Key"] = "alice-secret"
        proposals = await propose(client)
        decided = await client.post(f"/v1/approvals/{proposals[0]['id']}/deny")
    assert decided.json()["proposal"]["decided_by"] == "api:alice"


# ---- a served process: real HTTP, real concurrency, a restart


@pytest.mark.subprocess
def test_twenty_concurrent_approvals_of_one_proposal_write_one_order(
    tmp_path: Path, served_store: str | None
) -> None:
    with serving(tmp_path / "data", served_store, api_workers="2") as server:
        proposals = asyncio.run(_over_http(server.url, propose))
        chosen = by_sku(proposals, "SKU-10232")

        async def approve_twenty(client: httpx.AsyncClient) -> list[int]:
            answers = await asyncio.gather(
                *(client.post(f"/v1/approvals/{chosen}/approve") for _ in range(20))
            )
            return [a.status_code for a in answers]

        statuses = asyncio.run(_over_http(server.url, approve_twenty))
        written = orders(server.store_url)
    assert sorted(statuses) == [200] + [409] * 19
    assert written == [("SKU-10232", "WH-01", 202, f"approval-{chosen}")]


@pytest.mark.subprocess
def test_a_pending_proposal_survives_a_restart_and_is_approved_after_it(
    tmp_path: Path, served_store: str | None
) -> None:
    data = tmp_path / "data"
    with serving(data, served_store) as server:
        proposals = asyncio.run(_over_http(server.url, propose))
    with serving(data, server.store_url) as server:
        chosen = by_sku(proposals, "SKU-10318")

        async def approve(client: httpx.AsyncClient) -> dict[str, Any]:
            pending = (await client.get("/v1/approvals", params={"status": "pending"})).json()
            assert {p["id"] for p in pending["proposals"]} == {p["id"] for p in proposals}
            answer = await client.post(f"/v1/approvals/{chosen}/approve")
            assert answer.status_code == 200, answer.text
            body: dict[str, Any] = answer.json()
            return body

        body = asyncio.run(_over_http(server.url, approve))
        assert open_orders(server.store_url) == {("SKU-10318", "WH-01")}
    assert body["order"]["quantity"] == 48


async def _over_http(url: str, work: Any) -> Any:
    async with httpx.AsyncClient(base_url=url, headers={"X-API-Key": KEY}, timeout=120) as client:
        return await work(client)


@pytest.mark.parametrize("path", ["/v1/approvals", "/v1/approvals/AP-000001"])
def test_the_approvals_routes_are_in_the_openapi_document(path: str) -> None:
    app = create_app(Settings())
    assert path.replace("AP-000001", "{proposal_id}") in app.openapi()["paths"]
    assert BASE_URL


@pytest.mark.subprocess
def test_an_mcp_client_on_the_served_mount_gets_a_proposal_and_the_inbox_approves_it(
    tmp_path: Path, served_store: str | None
) -> None:
    """Any agent connected to `serve`'s MCP mount (a desktop client, an IDE) goes through the
    inbox: its write is a proposal, and the order exists only once a person approves it."""
    write = {"sku": "SKU-10232", "warehouse_id": "WH-01", "quantity": 50}
    with serving(tmp_path / "data", served_store) as server:

        async def call_the_mount() -> Any:
            headers = {"Authorization": f"Bearer {KEY}"}
            url = f"{server.url}/mcp/orders/mcp"
            async with (
                httpx2.AsyncClient(headers=headers, timeout=60) as http,
                Client(streamable_http_client(url, http_client=http)) as client,
            ):
                return await client.call_tool("orders_create_replenishment", write)

        result = asyncio.run(call_the_mount())
        assert not result.is_error
        (queued,) = result.structured_content["queued"]
        assert orders(server.store_url) == []

        async def decide(client: httpx.AsyncClient) -> tuple[dict[str, Any], httpx.Response]:
            pending = (await client.get("/v1/approvals", params={"status": "pending"})).json()
            (listed,) = pending["proposals"]
            return listed, await client.post(f"/v1/approvals/{listed['id']}/approve")

        listed, answer = asyncio.run(_over_http(server.url, decide))
        written = orders(server.store_url)
    assert (listed["id"], listed["arguments"]) == (queued["proposal_id"], write)
    assert answer.status_code == 200, answer.text
    assert written == [("SKU-10232", "WH-01", 50, f"approval-{queued['proposal_id']}")]


async def test_the_same_task_run_twice_leaves_one_pending_proposal_per_sku(
    client: httpx.AsyncClient,
) -> None:
    first = await propose(client)
    second = await propose(client)
    pending = (await client.get("/v1/approvals", params={"status": "pending"})).json()
    assert sorted(p["id"] for p in second) == sorted(p["id"] for p in first)
    assert sorted(p["arguments"]["sku"] for p in pending["proposals"]) == sorted(LOW_SKUS)
