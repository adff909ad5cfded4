"""A run's tool calls, a proposal's quantity and a write's source, in the words a person reads
on the dashboard."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from pipeline.api.plain import order_facts, proposal_quantity, proposal_source, step_words
from pipeline.host.record import ToolCallRecord
from pipeline.models import JsonObject
from servers.models import PlannedOrder
from store.models import AuditEntry, Order, Proposal

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def level(sku: str, on_hand: int, reorder_point: int, on_order: int = 0) -> JsonObject:
    return {
        "sku": sku,
        "name": "Hex nut M8",
        "warehouse_id": "WH-01",
        "on_hand": on_hand,
        "on_order": on_order,
        "reorder_point": reorder_point,
        "needs_reorder": on_hand + on_order < reorder_point,
    }


def call(
    name: str,
    arguments: JsonObject,
    structured: JsonObject | None,
    *,
    is_error: bool = False,
    result: str = "",
    dry_run: bool = False,
) -> ToolCallRecord:
    return ToolCallRecord(
        hop=1,
        id="c1",
        name=name,
        arguments=arguments,
        is_error=is_error,
        result=result,
        structured=structured,
        dry_run=dry_run,
    )


ORDER: JsonObject = {
    "id": "PO-000001",
    "sku": "SKU-10232",
    "warehouse_id": "WH-01",
    "quantity": 202,
}
ONE: JsonObject = {"sku": "SKU-10232", "warehouse_id": "WH-01", "observed_on_hand": 38}

STEPS = [
    (
        "a live read of one SKU",
        call(
            "inventory_query_stock",
            {"warehouse_id": "WH-01", "skus": ["SKU-10232"]},
            {"warehouse_id": "WH-01", "items": [level("SKU-10232", 38, 120)]},
        ),
        "read live stock of SKU-10232 in WH-01: 38 on hand, reorder point 120: low",
    ),
    (
        "a live read of several SKUs, with what is on order",
        call(
            "inventory_query_stock",
            {"warehouse_id": "WH-01"},
            {
                "warehouse_id": "WH-01",
                "items": [level("SKU-10232", 38, 120), level("SKU-10403", 95, 200, 120)],
            },
        ),
        "read live stock of 2 SKUs in WH-01: SKU-10232 38 on hand, reorder point 120: low; "
        "SKU-10403 95 on hand + 120 on order, reorder point 200",
    ),
    (
        "an order written",
        call(
            "orders_create_replenishment",
            ONE,
            {"order": ORDER, "created": True, "live": level("SKU-10232", 38, 120)},
        ),
        "ordered 202 of SKU-10232 in WH-01: PO-000001 (checked live: 38 on hand, reorder "
        "point 120: low)",
    ),
    (
        "an order that came back for the same key",
        call("orders_create_replenishment", ONE, {"order": ORDER, "created": False}),
        "ordered 202 of SKU-10232 in WH-01: PO-000001 (the same order again: nothing new was "
        "written)",
    ),
    (
        "a refusal of an order with no quantity named",
        call(
            "orders_create_replenishment",
            ONE,
            {"error": "not_low", "message": "SKU-10232 in WH-01 is not low now: on_hand 300"},
            is_error=True,
        ),
        "refused to order the reorder policy's quantity of SKU-10232 in WH-01: SKU-10232 in "
        "WH-01 is not low now: on_hand 300",
    ),
    (
        "a refusal of a quantity named",
        call(
            "orders_create_replenishment",
            {**ONE, "quantity": 5000},
            {"error": "bad_quantity", "message": "quantity 5000 is over the limit 1000"},
            is_error=True,
        ),
        "refused to order 5000 of SKU-10232 in WH-01: quantity 5000 is over the limit 1000",
    ),
    (
        "a write queued for a person, with the units its proposal orders",
        call(
            "orders_create_replenishment",
            ONE,
            {"queued": [{"proposal_id": "AP-000001", "arguments": ONE}], "message": "queued"},
        ),
        "proposed ordering 202 of SKU-10232 in WH-01 (AP-000001): waiting for a person's approval",
    ),
    (
        "a dry run",
        call("orders_create_replenishment", {**ONE, "quantity": 50}, None, dry_run=True),
        "would order 50 of SKU-10232 in WH-01 (dry run: nothing was written)",
    ),
    (
        "a cancel",
        call("orders_cancel", {"order_id": "PO-000001"}, {"order": ORDER, "cancelled": True}),
        "cancelled PO-000001",
    ),
    (
        "a tool without words of its own, its answer as text",
        call("inventory_get_item", {"sku": "SKU-10232"}, None, result="Hex nut M8\nmore"),
        "inventory_get_item (sku SKU-10232): Hex nut M8",
    ),
    (
        "an answer of an unexpected shape",
        call("inventory_query_stock", {"warehouse_id": "WH-01"}, {"items": "none"}),
        "read live stock in WH-01: no rows",
    ),
]


def test_a_queued_write_whose_quantity_is_not_known_yet_says_the_policy_sets_it() -> None:
    queued = call(
        "orders_create_replenishment",
        ONE,
        {"queued": [{"proposal_id": "AP-000002", "arguments": ONE}]},
    )

    assert step_words(queued) == (
        "proposed ordering SKU-10232 in WH-01 (AP-000002, the quantity the reorder policy "
        "sets): waiting for a person's approval"
    )


@pytest.mark.parametrize(("case", "tool_call", "said"), STEPS, ids=[s[0] for s in STEPS])
def test_each_tool_call_is_said_in_plain_words_with_its_numbers(
    case: str, tool_call: ToolCallRecord, said: str
) -> None:
    assert step_words(tool_call, {"AP-000001": 202}) == said


def proposal(**fields: object) -> Proposal:
    base: dict[str, object] = {
        "id": "AP-000001",
        "status": "pending",
        "created_at": NOW,
        "expires_at": NOW,
        "tool": "orders_create_replenishment",
        "arguments": ONE,
        "arguments_sha256": "0" * 64,
        "run_id": "run-1",
        "live": {"on_hand": 38, "on_order": 0, "reorder_point": 120},
    }
    return Proposal.model_validate({**base, **fields})


def test_a_proposal_orders_what_its_approval_ordered_or_what_it_names() -> None:
    approved = proposal(status="approved", result={"order": {**ORDER, "quantity": 180}})
    named = proposal(arguments={**ONE, "quantity": 40})

    assert proposal_quantity(approved) == (180, "ordered by PO-000001")
    assert proposal_quantity(named) == (40, "named in the call")


def test_a_decided_proposal_with_no_quantity_orders_the_policy_over_its_live_numbers() -> None:
    units, why = proposal_quantity(proposal(status="denied"))

    assert units == 202  # twice 120, less the 38 on hand
    assert why.startswith("by the reorder policy when proposed")


def test_a_pending_proposal_orders_what_an_approval_now_would_and_none_when_not_low() -> None:
    now = PlannedOrder(
        sku="SKU-10232", warehouse_id="WH-01", quantity=180, quantity_source="policy", rule="r"
    )
    gone = now.model_copy(update={"quantity": None})

    assert proposal_quantity(proposal(), now) == (180, "by the reorder policy now: r")
    assert proposal_quantity(proposal(), gone)[0] is None


SOURCES = [
    ("api:mei", "run-1", "run", "run run-1 started by api:mei, read from shot.png"),
    ("watch:inbox", "run-1", "watch", "the watch folder inbox, read from shot.png (run run-1)"),
    ("cli:ana", "run-1", "cli", "stockshot run by ana, read from shot.png (run run-1)"),
    (
        "api:desktop",
        None,
        "mcp",
        "an MCP client's tool call (api:desktop), no run and no screenshot",
    ),
]


@pytest.mark.parametrize(("actor", "run_id", "kind", "words"), SOURCES)
def test_a_proposal_says_where_it_came_from(
    actor: str, run_id: str | None, kind: str, words: str
) -> None:
    observed = {"screen": "shot.png"} if run_id else None
    source = proposal_source(proposal(requested_by=actor, run_id=run_id, observation=observed))

    assert (source.kind, source.words, source.run_id) == (kind, words, run_id)


def entry(action: str, reason: str, actor: str) -> AuditEntry:
    return AuditEntry(
        id=1,
        at=NOW,
        action=action,
        outcome="accepted",
        reason=reason,
        arguments={},
        order_id="PO-000001",
        actor=actor,
    )


def test_an_order_names_its_proposal_approver_and_who_cancelled_it_and_why() -> None:
    order = Order.model_validate({**ORDER, "status": "cancelled", "created_at": NOW})
    approved = proposal(status="approved", decided_by="api:mei", order_id="PO-000001")
    audit = [
        entry("orders_cancel", "cancelled: ordered twice", "api:ops"),
        entry("orders_create_replenishment", "ordered", "api:mei"),
    ]

    facts = order_facts(order, approved, audit)

    assert (facts.proposal_id, facts.approved_by) == ("AP-000001", "api:mei")
    assert (facts.cancelled_by, facts.cancel_reason) == ("api:ops", "ordered twice")
    assert facts.source.run_id == "run-1"


def test_an_order_written_at_once_by_a_run_has_no_proposal_and_names_who_it_acted_for() -> None:
    order = Order.model_validate({**ORDER, "status": "open", "created_at": NOW, "run_id": "run-2"})

    facts = order_facts(order, None, [entry("orders_create_replenishment", "ordered", "cli:ana")])

    assert (facts.proposal_id, facts.approved_by, facts.ordered_by) == (None, None, "cli:ana")
    assert (facts.source.kind, facts.source.run_id) == ("cli", "run-2")
