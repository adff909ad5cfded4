"""`stockshot demo`: the main job on a bundled sample, against a fresh demo store.

Seed a fresh demo store, read a sample screenshot, let the rules model raise replenishment
orders through the tool servers, and print what it did.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.cli import Commands, command, servers_option, with_servers
from pipeline.cli.ingest import ingest_all
from pipeline.cli.output import print_result, print_run
from pipeline.settings import Settings

if TYPE_CHECKING:
    from pipeline.approval_desk import ApprovalDesk

__all__ = ["DEMO_TASK", "capture_age", "register"]

DEMO_TASK = "find the SKUs that are low and raise replenishment orders"
SAMPLES_DIR = Path(__file__).resolve().parents[2] / "samples"


def register(sub: Commands) -> None:
    parser = command(sub, "demo", __doc__)
    parser.add_argument("--image", type=Path, default=SAMPLES_DIR / "erp-light-wh01.png")
    parser.add_argument("--task", default=DEMO_TASK)
    parser.add_argument("--model", default="rules")
    servers_option(parser)
    parser.set_defaults(handler=_demo)


def _demo(args: argparse.Namespace, settings: Settings) -> int:
    import asyncio
    import time

    from pipeline.approval_desk import ApprovalDesk
    from pipeline.bootstrap import (
        approval_policy,
        proposal_queue,
        run_agent,
        server_targets,
        utc_now,
    )
    from servers import catalog, domain
    from store.models import OrderQuery
    from store.stores import open_store

    settings = with_servers(args, settings)
    started = time.perf_counter()
    demo_dir = settings.data_dir / "demo"
    db = demo_dir / "stockshot.db"
    cache = demo_dir / "cache"
    for stale in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        stale.unlink(missing_ok=True)
    shutil.rmtree(cache, ignore_errors=True)
    # The demo keeps its own SQLite file and ingest cache under the data folder the settings
    # name, fresh each time, whatever store STOCKSHOT_DATABASE_URL names.
    settings = settings.model_copy(
        update={
            "database_url": None,
            "db": db,
            "cache_dir": cache,
            "run_log": demo_dir / "runs.jsonl",
        }
    )
    manual = approval_policy("demo", settings) == "manual"
    with open_store(str(db)) as store:
        warehouses, records = catalog.seed_data()
        domain.seed(store, warehouses, records, now=utc_now())
        print(
            f"1. seeded a fresh demo store: {db} ({len(warehouses)} warehouses, "
            f"{len(records)} rows)"
        )
        print(f"2. reading the screenshot {args.image}")
        results = ingest_all(settings, [args.image], None)
        print_result(results[0], sys.stdout)
        captured = results[0].captured_at
        print(
            f"   captured {captured.isoformat(timespec='minutes')}, "
            f"{capture_age(utc_now() - captured)} before this demo: a past view; the demo "
            "store was seeded just now, so live stock differs where it changed since"
        )
        print(f'3. running the {args.model} model: "{args.task}"')
        record = asyncio.run(
            run_agent(
                settings,
                task=args.task,
                results=results,
                model_spec=args.model,
                proposals=proposal_queue(settings, store) if manual else None,
            )
        )
        print_run(record, [], sys.stdout, trace=not record.proposals)
        if record.proposals:
            desk = ApprovalDesk(
                store, server_targets(settings, ["orders"], store=store), clock=utc_now
            )
            asyncio.run(_demo_approvals(desk, record.id))
        orders = domain.list_orders(store, OrderQuery(status="open")).orders
    step = 6 if record.proposals else 4
    print(f"{step}. open orders in the store now: {len(orders)}")
    for order in orders:
        print(f"   {order.id}  {order.sku}  {order.warehouse_id}  qty {order.quantity}")
    print(f"done in {time.perf_counter() - started:.1f} s; run log {settings.resolved_run_log()}")
    return 0 if record.status == "done" else 1


def capture_age(age: timedelta) -> str:
    """How long before now a screenshot was captured, as a person says it: `45 min`, `5 h`,
    `8 days 17 h` (a negative age, a capture stamped in the future, is `in the future`)."""
    if age < timedelta(0):
        return "in the future"
    minutes = int(age.total_seconds() // 60)
    if minutes < 60:
        return f"{minutes} min"
    hours = minutes // 60
    if hours < 48:
        return f"{hours} h"
    days, hours = divmod(hours, 24)
    return f"{days} days {hours} h" if hours else f"{days} days"


async def _demo_approvals(desk: ApprovalDesk, run_id: str) -> None:
    from pipeline.cli.approvals import describe, print_decision
    from store.models import ProposalQuery

    proposals = await desk.list(ProposalQuery(run_id=run_id))
    print(
        f"4. the run proposed {len(proposals)} write(s); nothing is ordered yet. What "
        "approving each would order now:"
    )
    for proposal in proposals:
        planned = await desk.planned(proposal)
        rule = f"; {planned.rule}" if planned is not None else ""
        print(f"   {proposal.id}  {describe(proposal, planned)}  ({proposal.status}{rule})")
    print(
        "5. approving them here, as the demo's stand-in for a person (in real use: the "
        "dashboard's approvals inbox, or stockshot approvals approve ID); each approval "
        "re-checks live stock in the orders tool before it writes:"
    )
    async with desk:
        for proposal in reversed(proposals):
            print_decision(await desk.approve(proposal.id, by="demo"), sys.stdout)
