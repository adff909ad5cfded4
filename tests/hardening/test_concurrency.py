"""Fifty agent runs at once, all replenishing the same low SKUs of one store: each SKU and
warehouse gets exactly one order, and every refusal is in the audit log."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path

from pipeline.approval_desk import ApprovalDesk, StoreProposals
from pipeline.bootstrap import utc_now
from pipeline.host.attachments import from_ingest
from pipeline.host.loop import HostLimits
from pipeline.host.record import RunRecord
from pipeline.host.toolbox import MemoryTarget
from pipeline.models import IngestResult
from pipeline.vlm.rules import RulesModel
from servers import domain
from servers.factory import build_server
from store.models import OrderQuery, ProposalQuery
from store.stores import sqlite_store
from tests.hardening.conftest import FIGURES, GROUPS, TASK, run_on
from tests.host.conftest import LOW_LIVE

RUNS = 50
CREATE = "orders_create_replenishment"


async def one_run(
    db: Path, screenshot: IngestResult, n: int, proposals: StoreProposals | None = None
) -> RunRecord:
    """A run as its own process would make it: its own store connections, servers, toolbox.

    Half the runs share one screenshot (so one idempotency key per order); the others each
    saw the screen a second later, so their keys differ and only the live re-check inside the
    write can stop a second order."""
    shot = screenshot
    if n % 2:
        later = screenshot.captured_at + timedelta(seconds=n)
        shot = screenshot.model_copy(
            update={
                "captured_at": later,
                "text": screenshot.text.replace(
                    screenshot.captured_at.isoformat(timespec="seconds"),
                    later.isoformat(timespec="seconds"),
                ),
            }
        )
    with sqlite_store(db) as store:
        return await run_on(
            store,
            task=TASK,
            model=RulesModel(),
            groups=GROUPS,
            attachments=from_ingest([shot]),
            limits=HostLimits(wall_clock_s=120.0),
            run_id=f"run-concurrent-{n:02d}",
            approvals=proposals,
        )


async def test_fifty_concurrent_runs_raise_one_order_per_sku_and_audit_every_refusal(
    db: Path, screenshot: IngestResult
) -> None:
    started = time.perf_counter()
    records = await asyncio.wait_for(
        asyncio.gather(*(one_run(db, screenshot, n) for n in range(RUNS))), timeout=300
    )
    spent = time.perf_counter() - started

    assert [r.status for r in records] == ["done"] * RUNS, [r.final for r in records]
    with sqlite_store(db) as store:
        orders = domain.list_orders(store, OrderQuery(limit=1000)).orders
        audit = [a for a in domain.audit_log(store, limit=5000) if a.action == CREATE]
    per_sku = Counter((o.sku, o.warehouse_id) for o in orders)
    assert set(per_sku) == LOW_LIVE
    assert set(per_sku.values()) == {1}

    # Every executed create call is one audit entry of its run, and the other way round.
    executed = Counter(
        (r.id, c.arguments["sku"])
        for r in records
        for c in r.tool_calls
        if c.name == CREATE and c.executed
    )
    audited = Counter((a.run_id, a.arguments["sku"]) for a in audit)
    assert executed == audited
    refusals = [
        (r.id, c.arguments["sku"])
        for r in records
        for c in r.tool_calls
        if c.name == CREATE and c.is_error
    ]
    refused_in_audit = Counter(
        (a.run_id, a.arguments["sku"]) for a in audit if a.outcome == "refused"
    )
    assert Counter(refusals) == refused_in_audit
    accepted = [a for a in audit if a.outcome == "accepted"]
    created = [a for a in accepted if a.reason.startswith("created ")]
    assert len(created) == len(LOW_LIVE)
    FIGURES["concurrency: 50 runs on one store"] = {
        "orders": len(orders),
        "per SKU and warehouse": sorted(set(per_sku.values())),
        "create calls": sum(executed.values()),
        "created": len(created),
        "same order returned (idempotency key)": len(accepted) - len(created),
        "refused (audited)": len(refusals),
        "wall": f"{spent:.1f} s",
    }


async def test_fifty_runs_under_manual_approval_propose_each_sku_once_then_all_approved_at_once(
    db: Path, screenshot: IngestResult
) -> None:
    """Each run proposes instead of writing, and every run asking for the same SKU and
    warehouse gets the one proposal waiting for it; then every proposal is approved at the
    same time, each by its own approver with its own store connections: exactly one order per
    SKU and warehouse."""
    started = time.perf_counter()
    with sqlite_store(db) as store:
        queue = StoreProposals(store, ttl=timedelta(hours=1), clock=utc_now)
        records = await asyncio.wait_for(
            asyncio.gather(*(one_run(db, screenshot, n, proposals=queue) for n in range(RUNS))),
            timeout=300,
        )
    proposed_in = time.perf_counter() - started
    assert [r.status for r in records] == ["done"] * RUNS, [r.final for r in records]
    answered = [p.id for r in records for p in r.proposals]
    ids = sorted(set(answered))
    assert len(answered) == RUNS * len(LOW_LIVE)
    assert len(ids) == len(LOW_LIVE)
    with sqlite_store(db) as store:
        assert domain.list_orders(store, OrderQuery(limit=10)).orders == []
        with store.reading() as tx:
            assert len(tx.proposals(ProposalQuery(limit=1000))) == len(LOW_LIVE)

    async def approve(proposal_id: str) -> str:
        with sqlite_store(db) as own:
            orders_server = build_server("orders", own)
            desk = ApprovalDesk(own, [MemoryTarget("orders", orders_server)], clock=utc_now)
            return (await desk.approve(proposal_id, by="approver")).outcome

    started = time.perf_counter()
    outcomes = await asyncio.wait_for(asyncio.gather(*(approve(i) for i in ids)), timeout=300)
    approved_in = time.perf_counter() - started

    with sqlite_store(db) as store:
        orders = domain.list_orders(store, OrderQuery(limit=1000)).orders
        with store.reading() as tx:
            final = {p.id: p.status for p in tx.proposals(ProposalQuery(limit=1000))}
    per_sku = Counter((o.sku, o.warehouse_id) for o in orders)
    assert set(per_sku) == LOW_LIVE and set(per_sku.values()) == {1}
    assert Counter(outcomes) == {"approved": len(LOW_LIVE)}
    assert Counter(final.values()) == Counter(outcomes)
    FIGURES["concurrency: 50 runs under manual approval, then all approved at once"] = {
        "proposals answered to the runs": len(answered),
        "proposals stored": len(ids),
        "orders": len(orders),
        "per SKU and warehouse": sorted(set(per_sku.values())),
        "approvals that wrote": outcomes.count("approved"),
        "wall (runs / approvals)": f"{proposed_in:.1f} s / {approved_in:.1f} s",
    }
