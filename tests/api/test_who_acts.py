"""Who acts, on every write: the key that started a run is on its proposals, the decider on
the audit entries; an approver cancels an order from the API under its own name; under
separation of duties the starter of a run cannot approve what it proposed; and where it is
allowed, an approver's MCP client writes through the mount at once, audited under its name."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import RequestParamsMeta

from pipeline.api import create_app
from pipeline.ingest import Ingestor
from pipeline.settings import Settings
from servers import domain
from servers.models import ReplenishmentRequest
from store.models import AuditEntry, Proposal, ProposalQuery
from store.stores import open_store
from tests.api.conftest import SAMPLE, follow, ingest, started
from tests.api.serve import serving
from tests.mcp_http import INITIALIZE

TASK = "find the SKUs that are low and raise replenishment orders"
OTTO = "otto:otto-secret:operator+approver"
ANNA = "anna:anna-secret:approver"
OLGA = "olga:olga-secret:operator"


def audit(store_url: str | Path) -> list[AuditEntry]:
    with open_store(str(store_url)) as store:
        return domain.audit_log(store, limit=500)


@pytest.fixture
async def client(settings: Settings, ingestor: Ingestor) -> AsyncIterator[httpx.AsyncClient]:
    keyed = settings.model_copy(update={"api_keys": [OTTO, ANNA, OLGA], "approval_separate": True})
    async with started(create_app(keyed, ingestor=ingestor)) as http:
        http.headers["X-API-Key"] = "otto-secret"
        yield http


async def test_the_key_that_started_a_run_cannot_approve_its_proposals_and_another_can(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    (result,) = await ingest(client, (SAMPLE.name, SAMPLE.read_bytes()))
    run = (await client.post("/v1/runs", json={"task": TASK, "ingest_ids": [result["id"]]})).json()
    await follow(client, run["id"])
    first = (await client.get(f"/v1/runs/{run['id']}")).json()["proposals"][0]["id"]

    proposal = (await client.get(f"/v1/approvals/{first}")).json()
    own = await client.post(f"/v1/approvals/{first}/approve")
    still = (await client.get(f"/v1/approvals/{first}")).json()
    other = await client.post(
        f"/v1/approvals/{first}/approve", headers={"X-API-Key": "anna-secret"}
    )

    assert proposal["requested_by"] == "api:otto"
    assert own.status_code == 403, own.text
    assert own.json()["error"] == "same_requester"
    assert "another key or person must approve it" in own.json()["message"]
    assert still["status"] == "pending"
    assert other.status_code == 200, other.text
    assert other.json()["proposal"]["decided_by"] == "api:anna"
    decisions = [
        (e.action, e.outcome, e.actor)
        for e in reversed(audit(settings.resolved_db()))
        if e.arguments.get("proposal_id") == first
    ]
    assert decisions == [
        ("approval proposed", "accepted", "api:otto"),
        ("approval approved", "refused", "api:otto"),
        ("approval approved", "accepted", "api:anna"),
        ("approval approved", "accepted", "api:anna"),
    ]
    (written,) = [e for e in audit(settings.resolved_db()) if e.action == domain.CREATE]
    assert (written.outcome, written.actor) == ("accepted", "api:anna")


async def test_an_approver_cancels_an_order_from_the_api_under_its_name_and_an_operator_cannot(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    with open_store(str(settings.resolved_db())) as store:
        made = domain.create_replenishment(
            store,
            ReplenishmentRequest(sku="SKU-10232", warehouse_id="WH-01", quantity=5),
            max_quantity=1000,
            now=datetime.now(UTC),
        )
    path = f"/v1/orders/{made.order.id}/cancel"

    refused = await client.post(path, headers={"X-API-Key": "olga-secret"})
    cancelled = await client.post(
        path, headers={"X-API-Key": "anna-secret"}, json={"reason": "ordered twice by mistake"}
    )
    again = await client.post(path, headers={"X-API-Key": "anna-secret"})
    unknown = await client.post("/v1/orders/PO-999999/cancel", headers={"X-API-Key": "anna-secret"})

    assert refused.status_code == 403
    assert "lacks the 'approver' role" in refused.json()["message"]
    assert cancelled.status_code == 200, cancelled.text
    assert cancelled.json() == {
        "order": {**cancelled.json()["order"], "status": "cancelled"},
        "cancelled": True,
        "by": "api:anna",
    }
    assert (again.status_code, again.json()["cancelled"]) == (200, False)
    assert unknown.status_code == 404
    assert "PO-999999" in unknown.json()["message"]
    cancels = [
        (e.outcome, e.actor, e.reason)
        for e in reversed(audit(settings.resolved_db()))
        if e.action == domain.CANCEL
    ]
    assert cancels[:2] == [
        ("accepted", "api:anna", "cancelled: ordered twice by mistake"),
        ("accepted", "api:anna", "already cancelled"),
    ]
    assert cancels[2][:2] == ("refused", "api:anna")


async def test_an_approver_key_cannot_reach_the_mounts_unless_direct_writes_are_allowed(
    client: httpx.AsyncClient,
) -> None:
    response = await client.post(
        "/mcp/orders/mcp",
        json=INITIALIZE,
        headers={
            "Accept": "application/json, text/event-stream",
            "Authorization": "Bearer anna-secret",
        },
    )
    assert response.status_code == 403
    assert "lacks the 'operator' role" in response.json()["message"]


async def _write_through_the_mount(
    url: str, secret: str, write: dict[str, Any], meta: dict[str, str] | None = None
) -> Any:
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {secret}"}, timeout=60) as http,
        Client(streamable_http_client(f"{url}/mcp/orders/mcp", http_client=http)) as mcp,
    ):
        return await mcp.call_tool(
            "orders_create_replenishment", write, meta=cast(RequestParamsMeta | None, meta)
        )


@pytest.mark.subprocess
def test_an_approver_writes_through_the_mount_at_once_and_an_operator_proposes_each_named(
    tmp_path: Path,
) -> None:
    """With STOCKSHOT_APPROVER_DIRECT_WRITES on, an approver key's MCP client (the SDK's own,
    over streamable HTTP) writes at once, audited as that key; an operator's write, and a
    `_meta` claiming to be someone else, still make a proposal named after the real key."""
    direct = {"sku": "SKU-10232", "warehouse_id": "WH-01", "quantity": 50}
    proposed = {"sku": "SKU-10310", "warehouse_id": "WH-01", "quantity": 20}
    with serving(
        tmp_path / "data", api_keys=f"{ANNA},{OLGA}", approver_direct_writes="true"
    ) as server:
        by_anna = asyncio.run(_write_through_the_mount(server.url, "anna-secret", direct))
        claim = {"io.stockshot/actor": "api:anna"}  # what a client says is not who it is
        by_olga = asyncio.run(
            _write_through_the_mount(server.url, "olga-secret", proposed, meta=claim)
        )
        store_proposals = _pending(server.store_url)
        (pending,) = store_proposals
        entries = audit(server.store_url)

    assert not by_anna.is_error, by_anna
    assert by_anna.structured_content["order"]["quantity"] == 50
    assert "queued" in by_olga.structured_content
    assert store_proposals[0].requested_by == "api:olga"
    assert pending.arguments == proposed
    written = next(e for e in entries if e.action == domain.CREATE)
    assert (written.outcome, written.actor, written.order_id) == (
        "accepted",
        "api:anna",
        by_anna.structured_content["order"]["id"],
    )


def _pending(store_url: str) -> list[Proposal]:
    with open_store(store_url) as store, store.reading() as tx:
        return tx.proposals(ProposalQuery(status="pending"))
