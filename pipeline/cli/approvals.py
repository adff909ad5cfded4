"""`stockshot approvals list|approve|deny`: list, approve or deny the writes runs proposed.

The proposals runs queued for approval (STOCKSHOT_APPROVAL=manual, the default of stockshot
serve and stockshot watch). Approving runs exactly the stored call through the orders tool,
which re-checks live stock at that moment.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import TextIO

from pipeline.approval_desk import ApprovalDesk, Decision, cli_decider
from pipeline.cli import Commands, command
from pipeline.models import JsonValue
from pipeline.settings import Settings
from servers.errors import Refused
from servers.models import PlannedOrder
from servers.terminal import print_table
from store.models import APPROVAL_STATUSES, Proposal, ProposalQuery
from store.protocol import Store

__all__ = ["ask_each", "describe", "print_decision", "register"]


def register(sub: Commands) -> None:
    parser = command(sub, "approvals", __doc__)
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="proposals, newest first")
    listing.add_argument("--status", choices=APPROVAL_STATUSES, default=None)
    listing.add_argument("--limit", type=int, default=100)
    listing.add_argument("--json", action="store_true", help="one JSON object per line")
    listing.set_defaults(handler=_list)
    approve = actions.add_parser("approve", help="approve proposals: their writes run now")
    approve.add_argument("ids", nargs="+", metavar="ID")
    approve.set_defaults(handler=_approve)
    deny = actions.add_parser("deny", help="deny proposals: nothing is written")
    deny.add_argument("ids", nargs="+", metavar="ID")
    deny.add_argument("--reason", default=None, help="why, kept on the proposal and audited")
    deny.set_defaults(handler=_deny)


def _desk(settings: Settings) -> tuple[ApprovalDesk, Store]:
    from pipeline.bootstrap import approval_desk, open_store

    store = open_store(settings)
    return approval_desk(settings, store), store


def _age(captured: JsonValue, now: datetime) -> str:
    if not isinstance(captured, str) or not captured:
        return ""
    hours = (now - datetime.fromisoformat(captured)).total_seconds() / 3600
    return f"{hours:.1f} h"


def describe(proposal: Proposal, planned: PlannedOrder | None = None) -> str:
    """`orders_create_replenishment SKU-10232 (Hex nut M8) in WH-01 x202 (policy)`: the
    quantity ordered, else the one an approval now would order (`planned`), else the task's;
    or `orders_cancel PO-000003`."""
    args = proposal.arguments
    if "sku" in args:
        order = (proposal.result or {}).get("order")
        ordered = order.get("quantity") if isinstance(order, dict) else None
        name = f" ({planned.name})" if planned is not None and planned.name else ""
        if ordered is not None:
            quantity = f"x{ordered}"
        elif planned is not None:
            quantity = (
                f"x{planned.quantity} ({planned.quantity_source})"
                if planned.quantity is not None
                else "x0 (not low now: an approval would be refused)"
            )
        else:
            quantity = f"x{args['quantity']}" if "quantity" in args else "x policy"
        return f"{proposal.tool} {args.get('sku')}{name} in {args.get('warehouse_id')} {quantity}"
    return f"{proposal.tool} {' '.join(str(v) for v in args.values())}"


def _row(proposal: Proposal, now: datetime, planned: PlannedOrder | None) -> list[str]:
    seen = proposal.observation or {}
    live = proposal.live or {}
    live_text = (
        f"{live['on_hand']}+{live['on_order']}/{live['reorder_point']}" if "on_hand" in live else ""
    )
    screen_text = (
        f"{seen.get('on_hand')}/{seen.get('reorder_point')}"
        if seen.get("on_hand") is not None
        else ""
    )
    return [
        proposal.id,
        proposal.status,
        describe(proposal, planned),
        screen_text,
        live_text,
        _age(seen.get("captured_at"), now),
        proposal.decided_by or "",
        proposal.order_id or proposal.reason or "",
    ]


def _print_table(
    proposals: Sequence[tuple[Proposal, PlannedOrder | None]], out: TextIO, now: datetime
) -> None:
    header = ["id", "status", "write", "screen", "live", "screenshot age", "decided by", "result"]
    print_table(header, (_row(p, now, planned) for p, planned in proposals), out)


def _list(args: argparse.Namespace, settings: Settings) -> int:
    from pipeline.bootstrap import utc_now

    desk, store = _desk(settings)

    async def listed() -> list[tuple[Proposal, PlannedOrder | None]]:
        found = await desk.list(ProposalQuery(status=args.status, limit=args.limit))
        return [(p, await desk.planned(p) if p.status == "pending" else None) for p in found]

    try:
        found = asyncio.run(listed())
    finally:
        store.close()
    if args.json:
        for proposal, planned in found:
            row = proposal.model_dump(mode="json")
            row["planned"] = None if planned is None else planned.model_dump(mode="json")
            print(json.dumps(row, ensure_ascii=False))
    elif found:
        _print_table(found, sys.stdout, utc_now())
    else:
        print("no proposals" + (f" with status {args.status}" if args.status else ""))
    return 0


def print_decision(decision: Decision, out: TextIO) -> None:
    proposal = decision.proposal
    if decision.outcome == "approved":
        out.write(f"{proposal.id} approved: {proposal.order_id} ({describe(proposal)})\n")
    elif decision.outcome == "failed":
        out.write(f"{proposal.id} failed, nothing written: {decision.message}\n")
    else:
        out.write(f"{proposal.id} denied: {proposal.reason}\n")


async def _decide_all(ids: Sequence[str], decide: Callable[[str], Awaitable[Decision]]) -> int:
    """Each proposal in turn; one that cannot be decided is reported and the rest go on."""
    failed = 0
    for proposal_id in ids:
        try:
            decision = await decide(proposal_id)
        except Refused as exc:
            print(f"{proposal_id}: {exc.message}", file=sys.stderr)
            failed += 1
            continue
        print_decision(decision, sys.stdout)
        failed += decision.outcome == "failed"
    return 1 if failed else 0


def _approve(args: argparse.Namespace, settings: Settings) -> int:
    desk, store = _desk(settings)
    who = cli_decider()
    try:
        return asyncio.run(_approve_all(desk, args.ids, who))
    finally:
        store.close()


async def _approve_all(desk: ApprovalDesk, ids: Sequence[str], who: str) -> int:
    async with desk:
        return await _decide_all(ids, lambda i: desk.approve(i, by=who))


def _deny(args: argparse.Namespace, settings: Settings) -> int:
    desk, store = _desk(settings)
    who = cli_decider()
    try:
        return asyncio.run(
            _decide_all(args.ids, lambda i: desk.deny(i, by=who, reason=args.reason))
        )
    finally:
        store.close()


async def ask_each(
    desk: ApprovalDesk, ids: Sequence[str], *, read: TextIO, out: TextIO
) -> list[Decision]:
    """y/N at a terminal for each proposal; anything but y or yes denies it."""
    decisions: list[Decision] = []
    who = cli_decider()
    async with desk:
        for proposal_id in ids:
            decisions.append(await _ask(desk, proposal_id, who, read=read, out=out))
    return decisions


async def _ask(
    desk: ApprovalDesk, proposal_id: str, who: str, *, read: TextIO, out: TextIO
) -> Decision:
    proposal = await desk.get(proposal_id)
    seen = proposal.observation or {}
    live = proposal.live or {}
    facts = []
    if seen.get("on_hand") is not None:
        facts.append(f"screen {seen['on_hand']} at {seen.get('captured_at')}")
    if "on_hand" in live:
        facts.append(
            f"live {live['on_hand']} + {live['on_order']} on order, reorder point "
            f"{live['reorder_point']}"
        )
    planned = await desk.planned(proposal)
    if planned is not None:
        facts.append(planned.rule)
    shown = f" ({'; '.join(facts)})" if facts else ""
    out.write(f"Approve {proposal.id}: {describe(proposal, planned)}{shown}? [y/N] ")
    out.flush()
    answer = read.readline().strip().lower()
    if answer in ("y", "yes"):
        decision = await desk.approve(proposal_id, by=who)
    else:
        decision = await desk.deny(proposal_id, by=who, reason="declined at the terminal")
    print_decision(decision, out)
    return decision
