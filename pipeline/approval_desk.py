"""Approvals: the proposal queue runs write into, and the desk where a person decides.

`StoreProposals` is the host's `ProposalQueue` over the store's approvals table. `ApprovalDesk`
lists, approves and denies proposals for every surface (API, dashboard, CLI, watch folder):
approving claims the proposal (exactly one approver wins), runs exactly the stored arguments
through the same MCP write tool under an idempotency key derived from the proposal id (so the
server re-reads live stock inside its write transaction, now, and a repeated approval cannot
write twice), then records what the tool answered: the order, or the refusal with its live
numbers (the proposal is then `failed`). Built by the entry points, with their store and their
tool server targets.
"""

from __future__ import annotations

import asyncio
import getpass
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from pipeline.errors import ToolServerError
from pipeline.host import (
    ProposalDraft,
    ProposalRefusal,
    ProposalTicket,
    Target,
    Toolbox,
    ToolOutcome,
)
from pipeline.models import JsonObject
from pipeline.toolfacts import CREATE_TOOL
from servers import approvals, domain
from servers.approvals import approval_key
from servers.errors import Refused
from servers.models import PlannedOrder
from servers.settings import DEFAULT_MAX_ORDER_QUANTITY
from store.models import Proposal, ProposalQuery
from store.protocol import Store

__all__ = [
    "ApprovalDesk",
    "Decision",
    "StoreProposals",
    "approval_key",
    "cli_decider",
]

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]


def cli_decider() -> str:
    """Who decides at a terminal: `cli:<OS user>`."""
    try:
        return f"cli:{getpass.getuser()}"
    except (KeyError, OSError):
        return "cli"


class StoreProposals:
    """Proposals of runs stored durably in the store (they survive a restart)."""

    def __init__(
        self, store: Store, *, ttl: timedelta, clock: Clock, requested_by: str | None = None
    ) -> None:
        self._store = store
        self._ttl = ttl
        self._clock = clock
        self._requested_by = requested_by

    async def propose(self, draft: ProposalDraft) -> ProposalTicket | ProposalRefusal:
        """Hold `draft` (the store re-checks live stock first and keeps one proposal per
        write): its ticket, the one waiting already, or the live re-check's refusal."""
        try:
            proposed = await asyncio.to_thread(
                approvals.propose,
                self._store,
                tool=draft.tool,
                arguments=draft.arguments,
                now=self._clock(),
                ttl=self._ttl,
                run_id=draft.run_id,
                observation=draft.observation,
                live=draft.live,
                requested_by=self._requested_by,
            )
        except Refused as exc:
            return ProposalRefusal(draft.tool, draft.arguments, exc.code, exc.message)
        proposal = proposed.proposal
        return ProposalTicket(
            proposal.id,
            proposal.tool,
            proposal.arguments,
            proposal.expires_at,
            waiting_since=proposed.waiting_since,
        )


@dataclass(frozen=True)
class Decision:
    """What deciding one proposal did: the proposal as it is now, and for an approval whether
    the write ran (`ran`) and what the tool said."""

    proposal: Proposal
    outcome: Literal["approved", "denied", "failed"]
    message: str

    @property
    def ran(self) -> bool:
        return self.outcome == "approved"


class ApprovalDesk:
    """List, approve and deny proposals; an approval runs the stored call over MCP."""

    def __init__(
        self,
        store: Store,
        targets: Sequence[Target],
        *,
        clock: Clock,
        max_quantity: int = DEFAULT_MAX_ORDER_QUANTITY,
        separate: bool = False,
    ) -> None:
        self._store = store
        # Separation of duties: whoever started a run cannot approve what it proposed.
        self._separate = separate
        self._targets = list(targets)
        self._clock = clock
        self._max_quantity = max_quantity
        self._toolbox: Toolbox | None = None

    async def __aenter__(self) -> ApprovalDesk:
        """Keep one connection to the tool servers for several decisions (a stdio server is a
        process to start); without it each approval connects on its own."""
        self._toolbox = await Toolbox(self._targets).__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        toolbox, self._toolbox = self._toolbox, None
        if toolbox is not None:
            await toolbox.__aexit__(*exc)

    async def _call(
        self, tool: str, arguments: JsonObject, run_id: str, proposal_id: str, by: str
    ) -> ToolOutcome:
        if self._toolbox is not None:
            return await self._toolbox.call(
                tool, arguments, run_id=run_id, proposal_id=proposal_id, actor=by
            )
        async with Toolbox(self._targets) as toolbox:
            return await toolbox.call(
                tool, arguments, run_id=run_id, proposal_id=proposal_id, actor=by
            )

    async def list(self, query: ProposalQuery) -> list[Proposal]:
        return await asyncio.to_thread(
            approvals.list_proposals, self._store, query, now=self._clock()
        )

    async def get(self, proposal_id: str) -> Proposal:
        return await asyncio.to_thread(
            approvals.get_proposal, self._store, proposal_id, now=self._clock()
        )

    async def planned(self, proposal: Proposal) -> PlannedOrder | None:
        """What approving a replenishment proposal would order now (None for other writes)."""
        if proposal.tool != CREATE_TOOL or "sku" not in proposal.arguments:
            return None
        return await asyncio.to_thread(
            domain.planned_order,
            self._store,
            proposal.arguments,
            at_proposal=proposal.live,
            max_quantity=self._max_quantity,
        )

    async def deny(self, proposal_id: str, *, by: str, reason: str | None = None) -> Decision:
        denied = await asyncio.to_thread(
            approvals.deny, self._store, proposal_id, by=by, reason=reason, now=self._clock()
        )
        return Decision(denied, "denied", f"{denied.id} denied by {by}")

    async def approve(self, proposal_id: str, *, by: str) -> Decision:
        """Claim, run the stored call, record its answer. Raises `NotPending` (decided,
        expired, or being approved by someone else) and `UnknownProposal`; a refusal by the
        tool is not an exception: the decision is `failed` with the tool's message."""
        claimed = await asyncio.to_thread(
            approvals.claim,
            self._store,
            proposal_id,
            by=by,
            now=self._clock(),
            separate=self._separate,
        )
        arguments: JsonObject = dict(claimed.arguments)
        if claimed.tool == CREATE_TOOL:
            arguments["idempotency_key"] = approval_key(claimed.id)
        plan = await self.planned(claimed)
        try:
            outcome = await self._call(
                claimed.tool, arguments, claimed.run_id or claimed.id, claimed.id, by
            )
        except ToolServerError as exc:
            # The claim stays: the approval can be retried once the servers answer again
            # (after STALE_CLAIM), and the idempotency key keeps it to one order.
            log.warning("approval %s could not reach the tools: %s", claimed.id, exc)
            raise
        order = (outcome.structured or {}).get("order")
        order_id = str(order["id"]) if isinstance(order, dict) and "id" in order else None
        changed = _changed(plan, order)
        settled = await asyncio.to_thread(
            approvals.settle,
            self._store,
            claimed,
            ran=not outcome.is_error,
            message=f"{changed}; {outcome.text}" if changed else outcome.text,
            result=outcome.structured,
            order_id=order_id,
            now=self._clock(),
        )
        if outcome.is_error:
            return Decision(settled, "failed", outcome.text)
        done = f"{settled.id} approved by {by}: {order_id}"
        return Decision(settled, "approved", f"{done} ({changed})" if changed else done)


def _changed(plan: PlannedOrder | None, order: object) -> str | None:
    """`quantity 202 -> 180: 22 arrived ...` when the order differs from what the policy gave
    at proposal time."""
    if plan is None or plan.quantity_at_proposal is None or not isinstance(order, dict):
        return None
    ordered = order.get("quantity")
    if not isinstance(ordered, int) or ordered == plan.quantity_at_proposal:
        return None
    return plan.change or f"quantity {plan.quantity_at_proposal} -> {ordered}"
