"""Under manual approval the orders server itself holds every write for a person: a write call
becomes a proposal, and only a proposal a person approved runs, with exactly its arguments."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any, cast

import pytest
from mcp import Client
from mcp.types import CallToolResult, RequestParamsMeta, TextContent

from servers import approvals, domain
from servers.errors import NotPending
from servers.factory import build_server
from store.models import OrderQuery, ProposalQuery
from store.protocol import Store
from tests.servers.conftest import NOW, SetStock

CREATE = "orders_create_replenishment"
ARGS = {"sku": "SKU-10232", "warehouse_id": "WH-01", "quantity": 100}


def manual(store: Store) -> Client:
    server = build_server("orders", store, clock=lambda: NOW, approval="manual")
    return Client(server)


def meta(proposal_id: str | None = None) -> RequestParamsMeta:
    tags: dict[str, str] = {"io.stockshot/run_id": "run-7"}
    if proposal_id is not None:
        tags["io.stockshot/proposal_id"] = proposal_id
    return cast(RequestParamsMeta, tags)


def text_of(result: CallToolResult) -> str:
    assert isinstance(result.content[0], TextContent)
    return result.content[0].text


def orders(store: Store) -> list[Any]:
    return domain.list_orders(store, OrderQuery(limit=100)).orders


def approved(store: Store, proposal_id: str, at: datetime = NOW) -> None:
    approvals.claim(store, proposal_id, by="key:approver", now=at)


async def propose(client: Client, tool: str = CREATE, arguments: dict[str, Any] = ARGS) -> str:
    """A write call without an approval, and the id of the proposal it became."""
    queued = await client.call_tool(tool, arguments, meta=meta())
    return str((queued.structured_content or {})["queued"][0]["proposal_id"])


async def approved_proposal(client: Client, store: Store) -> str:
    """A proposal of the write `ARGS`, approved by a person: its id."""
    proposal_id = await propose(client)
    approved(store, proposal_id)
    return proposal_id


async def ordered(client: Client, store: Store) -> tuple[str, Any]:
    """The approved proposal of the write `ARGS`, run: its id and the one order it wrote."""
    proposal_id = await approved_proposal(client, store)
    await client.call_tool(CREATE, ARGS, meta=meta(proposal_id))
    (order,) = orders(store)
    return proposal_id, order


def error_of(result: CallToolResult) -> Any:
    return (result.structured_content or {})["error"]


async def test_a_write_call_without_an_approval_becomes_a_proposal_and_no_order(
    store: Store,
) -> None:
    async with manual(store) as client:
        result = await client.call_tool(CREATE, ARGS, meta=meta())
    assert not result.is_error, text_of(result)
    assert "queued for approval, not executed" in text_of(result)
    (queued,) = (result.structured_content or {})["queued"]
    assert orders(store) == []
    (proposal,) = approvals.list_proposals(store, ProposalQuery(), now=NOW)
    assert (proposal.id, proposal.status, proposal.run_id) == (
        queued["proposal_id"],
        "pending",
        "run-7",
    )
    assert proposal.arguments == ARGS


async def test_a_call_for_several_skus_becomes_one_proposal_per_sku(store: Store) -> None:
    call = {"skus": ["SKU-10232", "SKU-10318"], "warehouse_id": "WH-01"}
    async with manual(store) as client:
        result = await client.call_tool(CREATE, call, meta=meta())
    assert len((result.structured_content or {})["queued"]) == 2
    held = approvals.list_proposals(store, ProposalQuery(), now=NOW)
    assert sorted(str(p.arguments["sku"]) for p in held) == ["SKU-10232", "SKU-10318"]
    assert orders(store) == []


async def test_a_call_naming_an_unknown_sku_is_refused_before_it_is_proposed(store: Store) -> None:
    async with manual(store) as client:
        result = await client.call_tool(CREATE, {**ARGS, "sku": "SKU-99999"}, meta=meta())
    assert result.is_error
    assert approvals.list_proposals(store, ProposalQuery(), now=NOW) == []


async def test_an_approved_proposal_runs_once_with_its_own_idempotency_key(store: Store) -> None:
    async with manual(store) as client:
        proposal_id = await approved_proposal(client, store)
        first = await client.call_tool(CREATE, ARGS, meta=meta(proposal_id))
        again = await client.call_tool(CREATE, ARGS, meta=meta(proposal_id))
    assert not first.is_error, text_of(first)
    (order,) = orders(store)
    assert order.idempotency_key == approvals.approval_key(proposal_id)
    assert (again.structured_content or {})["created"] is False  # the same order came back


@pytest.mark.parametrize(
    ("approve", "arguments", "error"),
    [
        pytest.param(False, ARGS, "not_approved", id="nobody-approved-it"),
        pytest.param(True, {**ARGS, "quantity": 900}, "other_arguments", id="another-quantity"),
        pytest.param(True, {**ARGS, "sku": "SKU-10318"}, "other_arguments", id="another-sku"),
    ],
)
async def test_a_proposal_does_not_run_unless_approved_and_only_with_its_own_arguments(
    store: Store, approve: bool, arguments: dict[str, Any], error: str
) -> None:
    async with manual(store) as client:
        proposal_id = await (approved_proposal(client, store) if approve else propose(client))
        result = await client.call_tool(CREATE, arguments, meta=meta(proposal_id))
    assert result.is_error
    assert error_of(result) == error
    assert orders(store) == []


async def test_a_call_refused_for_other_arguments_leaves_the_proposal_to_run_as_approved(
    store: Store,
) -> None:
    async with manual(store) as client:
        proposal_id = await approved_proposal(client, store)
        more = await client.call_tool(CREATE, {**ARGS, "quantity": 900}, meta=meta(proposal_id))
        other = await client.call_tool(CREATE, {**ARGS, "sku": "SKU-10318"}, meta=meta(proposal_id))
        own = await client.call_tool(CREATE, ARGS, meta=meta(proposal_id))
    assert [error_of(r) for r in (more, other)] == ["other_arguments", "other_arguments"]
    assert not own.is_error, text_of(own)
    (order,) = orders(store)
    assert (order.sku, order.quantity) == (ARGS["sku"], ARGS["quantity"])


async def test_a_settled_proposal_cannot_be_run_again(store: Store) -> None:
    async with manual(store) as client:
        proposal_id, order = await ordered(client, store)
        claimed = approvals.get_proposal(store, proposal_id, now=NOW)
        approvals.settle(
            store, claimed, ran=True, message="ok", result={}, order_id=order.id, now=NOW
        )
        domain.cancel_order(store, order.id, now=NOW)
        result = await client.call_tool(CREATE, ARGS, meta=meta(proposal_id))
    assert error_of(result) == "executed"
    assert len(orders(store)) == 1


async def test_a_proposal_approved_after_it_expired_does_not_run(store: Store) -> None:
    server = build_server(
        "orders", store, clock=lambda: NOW, approval="manual", approval_ttl=timedelta(minutes=5)
    )
    async with Client(server) as client:
        proposal_id = await propose(client)
    late = NOW + timedelta(minutes=10)
    with pytest.raises(NotPending):
        approved(store, proposal_id, at=late)
    async with Client(server) as client:
        result = await client.call_tool(CREATE, ARGS, meta=meta(proposal_id))
    assert result.is_error
    assert orders(store) == []


async def test_cancelling_under_manual_approval_is_a_proposal_until_approved(store: Store) -> None:
    async with manual(store) as client:
        create_id, order = await ordered(client, store)
        cancel_id = await propose(client, "orders_cancel", {"order_id": order.id})
        assert orders(store)[0].status == "open"
        wrong = await client.call_tool(
            "orders_cancel", {"order_id": order.id}, meta=meta(create_id)
        )
        approved(store, cancel_id)
        done = await client.call_tool("orders_cancel", {"order_id": order.id}, meta=meta(cancel_id))
    assert error_of(wrong) == "wrong_tool"
    assert not done.is_error, text_of(done)
    assert orders(store)[0].status == "cancelled"


async def test_cancelling_an_unknown_order_is_refused_not_proposed(store: Store) -> None:
    async with manual(store) as client:
        result = await client.call_tool("orders_cancel", {"order_id": "PO-999999"}, meta=meta())
    assert result.is_error
    assert approvals.list_proposals(store, ProposalQuery(), now=NOW) == []


async def test_a_server_under_automatic_approval_writes_at_once(store: Store) -> None:
    server = build_server("orders", store, clock=lambda: NOW, approval="auto")
    async with Client(server) as client:
        result = await client.call_tool(CREATE, ARGS, meta=meta())
    assert not result.is_error, text_of(result)
    assert len(orders(store)) == 1


async def test_a_stale_order_for_a_sku_that_is_not_low_live_is_refused_not_queued(
    store: Store, set_stock: SetStock
) -> None:
    set_stock("SKU-10232", "WH-01", on_hand=500, reorder_point=50)
    stale = {**ARGS, "observed_on_hand": 12, "observed_at": "2026-11-28T08:00:00+00:00"}
    async with manual(store) as client:
        result = await client.call_tool(CREATE, stale, meta=meta())
    assert result.is_error
    assert error_of(result) == "not_low"
    assert text_of(result).startswith(
        "refused: SKU-10232 in WH-01 is not low now: on_hand 500 + on_order 0 >= reorder_point 50 "
        "(the screenshot showed 12 at 2026-11-28T08:00:00+00:00)"
    )
    assert approvals.list_proposals(store, ProposalQuery(), now=NOW) == []


async def test_twenty_concurrent_identical_calls_leave_one_pending_proposal(store: Store) -> None:
    async with manual(store) as client:
        results = await asyncio.gather(
            *(client.call_tool(CREATE, ARGS, meta=meta()) for _ in range(20))
        )
    ids = {str((r.structured_content or {})["queued"][0]["proposal_id"]) for r in results}
    pending = approvals.list_proposals(store, ProposalQuery(status="pending"), now=NOW)
    assert [p.id for p in pending] == list(ids)
    assert orders(store) == []


async def test_the_same_write_from_another_client_says_it_is_already_waiting_since_when(
    store: Store,
) -> None:
    async with manual(store) as first:
        proposal_id = await propose(first)
    later = NOW + timedelta(hours=2)
    server = build_server("orders", store, clock=lambda: later, approval="manual")
    async with Client(server) as other:
        again = await other.call_tool(CREATE, {**ARGS, "quantity": 40})
    (queued,) = (again.structured_content or {})["queued"]
    assert not again.is_error, text_of(again)
    assert (queued["proposal_id"], queued["waiting_since"]) == (proposal_id, "2026-11-30T08:00:00Z")
    assert str((again.structured_content or {})["message"]).startswith(
        "already waiting for approval, not executed: an order of SKU-10232 in WH-01 was asked "
        f"before and waits as {proposal_id} since 2026-11-30T08:00:00+00:00."
    )


async def test_a_call_for_several_skus_queues_the_low_ones_and_refuses_the_rest(
    store: Store,
) -> None:
    call = {"skus": ["SKU-10232", "SKU-10231"], "warehouse_id": "WH-01"}
    async with manual(store) as client:
        result = await client.call_tool(CREATE, call, meta=meta())
    body = result.structured_content or {}
    assert not result.is_error, text_of(result)
    assert [q["arguments"]["sku"] for q in body["queued"]] == ["SKU-10232"]
    ((refused,),) = [[r for r in body["results"] if r["sku"] == "SKU-10231"]]
    assert refused["refused"]["error"] == "not_low"
