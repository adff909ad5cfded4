"""Proposals: write calls held for a person's decision, as plain functions over a `Store`.

A proposal keeps exactly the arguments that will run and their SHA-256. A decision is one state
change in one write transaction, conditional on the state it starts from, so two people deciding
at once cannot both win: pending → approved (a claim), pending → denied, pending → expired (past
its expiry, or no longer needed because the live re-check would refuse it now; found when anyone
looks). A write is proposed only if the live re-check passes now, and one proposal waits per
write: asking for the same write again returns the one waiting. A claimed proposal is then
settled with what the write tool answered when it ran: it stays approved, with its order, or it
becomes failed, with the refusal. Every step is audited. Running the tool is the caller's: the
rules here never write an order themselves, so the tool's own live re-check decides at the
moment of approval.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from pydantic import JsonValue

from servers.domain import live_refusal
from servers.errors import (
    NotApproved,
    NotLow,
    NotPending,
    Refused,
    SameRequester,
    UnknownProposal,
)
from servers.models import QueuedProposal
from store.errors import StoreError
from store.models import (
    JsonObject,
    NewAuditEntry,
    NewProposal,
    Proposal,
    ProposalQuery,
    parse_proposal_id,
    pending_key,
)
from store.protocol import Store, StoreWriter

__all__ = [
    "APPROVE",
    "CREATED",
    "DECIDED",
    "DENY",
    "EXPIRE",
    "FAIL",
    "PROPOSAL_META_KEY",
    "PROPOSE",
    "STALE_CLAIM",
    "Proposed",
    "approval_key",
    "approved_check",
    "arguments_sha256",
    "check_approved",
    "claim",
    "deny",
    "get_proposal",
    "held_message",
    "hold",
    "list_proposals",
    "propose",
    "settle",
]

PROPOSE = "approval proposed"
APPROVE = "approval approved"
DENY = "approval denied"
EXPIRE = "approval expired"
FAIL = "approval failed"

PROPOSAL_META_KEY = "io.stockshot/proposal_id"
"""The request `_meta` key an approved proposal's write carries: the orders server executes a
write under manual approval only for a proposal being executed now, with its arguments."""

STALE_CLAIM = timedelta(minutes=2)
"""An approval claimed this long ago and never settled (its approver died) may be claimed again;
the write runs under the same idempotency key, so it still writes once."""


def approval_key(proposal_id: str) -> str:
    """The idempotency key an approved proposal's order is written under."""
    return f"approval-{proposal_id}"


def arguments_sha256(arguments: Mapping[str, JsonValue]) -> str:
    """SHA-256 of the arguments as canonical JSON (sorted keys, no spaces, UTF-8)."""
    text = json.dumps(arguments, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


CREATED = "proposal.created"
DECIDED = "proposal.decided"
"""The events a proposal's life writes (for webhooks): made, and approved, denied, failed or
expired. They are written in the transaction of the change."""


def _announce(tx: StoreWriter, name: str, proposal: Proposal, now: datetime) -> None:
    tx.append_event(name, {"proposal": proposal.model_dump(mode="json")}, now=now)


def _audit(
    tx: StoreWriter,
    action: str,
    proposal: Proposal,
    now: datetime,
    reason: str,
    *,
    refused: bool = False,
    actor: str | None = None,
) -> None:
    tx.append_audit(
        NewAuditEntry(
            at=now,
            action=action,
            outcome="refused" if refused else "accepted",
            reason=reason,
            arguments={
                "proposal_id": proposal.id,
                "tool": proposal.tool,
                "arguments": proposal.arguments,
                "decided_by": proposal.decided_by,
            },
            order_id=proposal.order_id,
            run_id=proposal.run_id,
            actor=actor,
        )
    )


@dataclass(frozen=True)
class Proposed:
    """What proposing a write did: the proposal that waits for a person, and whether it is new
    or the same write was waiting already (then `waiting_since` says since when)."""

    proposal: Proposal
    new: bool

    @property
    def waiting_since(self) -> datetime | None:
        return None if self.new else self.proposal.created_at


def propose(
    store: Store,
    *,
    tool: str,
    arguments: Mapping[str, JsonValue],
    now: datetime,
    ttl: timedelta,
    run_id: str | None = None,
    observation: Mapping[str, JsonValue] | None = None,
    live: Mapping[str, JsonValue] | None = None,
    requested_by: str | None = None,
) -> Proposed:
    """Hold `tool` with exactly `arguments` for a person, asked for by `requested_by` (who
    started the run, when known), after the live re-check an unheld write gets: a write it
    would refuse now (a SKU not low, with the live numbers) is refused here, audited, never
    queued. One proposal waits per write (`store.models.pending_key`: the tool and what it
    writes to): the same write asked again, by anyone, gets that proposal back. A run that
    proposes the same call again (a retried job re-running it) gets its earlier proposal back,
    however it was decided."""
    new = NewProposal(
        run_id=run_id,
        tool=tool,
        arguments=dict(arguments),
        arguments_sha256=arguments_sha256(arguments),
        observation=None if observation is None else dict(observation),
        live=None if live is None else dict(live),
        expires_at=now + ttl,
        requested_by=requested_by,
    )
    with store.writing() as tx:
        if run_id is not None:
            for earlier in tx.proposals(ProposalQuery(run_id=run_id, limit=1000)):
                if (earlier.tool, earlier.arguments_sha256) == (tool, new.arguments_sha256):
                    return Proposed(earlier, new=False)
        refusal = live_refusal(tx, tool, arguments)
        if refusal is None:
            return _propose_once(tx, new, now)
        tx.append_audit(
            NewAuditEntry(
                at=now,
                action=PROPOSE,
                outcome="refused",
                reason=f"{tool} not queued: {refusal.message}",
                arguments={"tool": tool, "arguments": dict(arguments)},
                run_id=run_id,
                actor=requested_by,
            )
        )
    raise refusal


def hold(
    store: Store,
    tool: str,
    calls: list[tuple[JsonObject, JsonObject | None]],
    *,
    now: datetime,
    ttl: timedelta,
    run_id: str | None,
    requested_by: str | None = None,
) -> tuple[list[QueuedProposal], list[tuple[JsonObject, Refused]]]:
    """How a write tool holds each of its calls for a person (its arguments, and the live
    numbers read now), asked for by `requested_by`: the proposal each became or was waiting
    as already, and the calls the live re-check refused instead, each with its refusal."""
    held: list[QueuedProposal] = []
    refusals: list[tuple[JsonObject, Refused]] = []
    for arguments, live in calls:
        observation = None
        if arguments.get("observed_on_hand") is not None:
            observation = {
                "sku": arguments.get("sku"),
                "warehouse_id": arguments.get("warehouse_id"),
                "on_hand": arguments["observed_on_hand"],
                "captured_at": arguments.get("observed_at"),
            }
        try:
            proposed = propose(
                store,
                tool=tool,
                arguments=arguments,
                now=now,
                ttl=ttl,
                run_id=run_id,
                observation=observation,
                live=live,
                requested_by=requested_by,
            )
        except Refused as exc:
            refusals.append((arguments, exc))
            continue
        proposal = proposed.proposal
        held.append(
            QueuedProposal(
                proposal_id=proposal.id,
                tool=tool,
                arguments=proposal.arguments,
                expires_at=proposal.expires_at,
                waiting_since=proposed.waiting_since,
            )
        )
    return held, refusals


def held_message(what: str, held: list[QueuedProposal]) -> str:
    """What a held write answers: which proposals it became, which were waiting already (and
    since when), and that it must not be sent again."""
    new = [p.proposal_id for p in held if p.waiting_since is None]
    waiting = [
        f"{p.proposal_id} since {p.waiting_since.isoformat(timespec='seconds')}"
        for p in held
        if p.waiting_since is not None
    ]
    parts = []
    if new:
        parts.append(f"queued for approval, not executed: {what} is held as {', '.join(new)}")
    if waiting:
        parts.append(
            f"{'already' if not new else 'and already'} waiting for approval, not executed: "
            f"{what} {'was' if not new else 'partly was'} asked before and waits as "
            f"{', '.join(waiting)}"
        )
    return (
        "; ".join(parts) + ". Writes on this server need a person's approval (stockshot "
        "approvals list, or the dashboard's inbox); do not send it again. Report it as "
        "waiting for approval."
    )


def _propose_once(tx: StoreWriter, new: NewProposal, now: datetime) -> Proposed:
    """Insert `new`, or find the proposal already waiting for the same write (one past its
    expiry or no longer needed is expired first, and `new` takes its place)."""
    key = pending_key(new.tool, new.arguments)
    for _ in range(3):
        proposal = tx.insert_proposal(new, now=now)
        if proposal is not None:
            _audit(
                tx, PROPOSE, proposal, now, f"{new.tool} queued for approval as {proposal.id}",
                actor=new.requested_by,
            )  # fmt: skip
            _announce(tx, CREATED, proposal, now)
            return Proposed(proposal, new=True)
        waiting = tx.pending_proposal(key) if key is not None else None
        if waiting is not None:
            (waiting,) = _expire_due(tx, [waiting], now)
            if waiting.status == "pending":
                return Proposed(waiting, new=False)
    raise StoreError(f"{new.tool}: the pending proposal for {key} kept changing; try again")


def _lapse(tx: StoreWriter, proposal: Proposal, now: datetime) -> str | None:
    """Why a pending proposal can no longer be approved: past its expiry, or the live
    re-check would refuse it now (its SKU is not low any more)."""
    if proposal.expires_at <= now:
        return f"expired at {proposal.expires_at.isoformat(timespec='seconds')}"
    refusal = live_refusal(tx, proposal.tool, proposal.arguments)
    if isinstance(refusal, NotLow):
        return f"no longer needed: {refusal.message}"
    return None


def _expire_due(tx: StoreWriter, proposals: list[Proposal], now: datetime) -> list[Proposal]:
    out: list[Proposal] = []
    for proposal in proposals:
        reason = _lapse(tx, proposal, now) if proposal.status == "pending" else None
        if reason is not None:
            expired = tx.decide_proposal(
                proposal.id, expect="pending", status="expired", now=now, reason=reason
            )
            if expired is not None:
                _audit(tx, EXPIRE, expired, now, expired.reason or "expired")
                _announce(tx, DECIDED, expired, now)
                proposal = expired
        out.append(proposal)
    return out


def list_proposals(store: Store, query: ProposalQuery, *, now: datetime) -> list[Proposal]:
    """Proposals, newest first; pending ones past their expiry are expired on the way."""
    with store.writing() as tx:
        _expire_due(tx, tx.proposals(ProposalQuery(status="pending", limit=1_000_000)), now)
        return tx.proposals(query)


def _known(tx: StoreWriter, proposal_id: str) -> Proposal:
    proposal = tx.proposal(proposal_id) if parse_proposal_id(proposal_id) is not None else None
    if proposal is None:
        raise UnknownProposal(
            f"no proposal {proposal_id!r}; ids look like AP-000001 "
            "(stockshot approvals list shows the pending ones)",
            code="unknown_proposal",
            field="id",
        )
    return proposal


def get_proposal(store: Store, proposal_id: str, *, now: datetime) -> Proposal:
    with store.writing() as tx:
        return _expire_due(tx, [_known(tx, proposal_id)], now)[0]


def _not_pending(proposal: Proposal) -> NotPending:
    who = f" by {proposal.decided_by}" if proposal.decided_by else ""
    when = f" at {proposal.decided_at.isoformat(timespec='seconds')}" if proposal.decided_at else ""
    why = f" ({proposal.reason})" if proposal.reason and proposal.status != "approved" else ""
    return NotPending(
        f"{proposal.id} is {proposal.status}{who}{when}{why}, not pending; "
        "it cannot be decided again",
        code="not_pending",
        field="id",
        details={"status": proposal.status, "order_id": proposal.order_id},
    )


def claim(
    store: Store, proposal_id: str, *, by: str, now: datetime, separate: bool = False
) -> Proposal:
    """Take the decision to approve: pending → approved, for exactly one caller. The caller then
    runs the stored call and settles it. An approval claimed long ago and never settled may be
    taken again (see `STALE_CLAIM`). With `separate`, whoever started the run that proposed it
    cannot approve it: `SameRequester`, audited as a refused approval."""
    get_proposal(store, proposal_id, now=now)  # a lapsed one is expired for good first
    with store.writing() as tx:
        (proposal,) = _expire_due(tx, [_known(tx, proposal_id)], now)
        if separate and proposal.status == "pending" and proposal.requested_by == by:
            refusal = SameRequester(
                f"{proposal.id} was proposed by a run {by} started; under separation of duties "
                "(STOCKSHOT_APPROVAL_SEPARATE) another key or person must approve it",
                code="same_requester",
                field="id",
                details={"requested_by": by},
            )
            _audit(tx, APPROVE, proposal, now, refusal.message, refused=True, actor=by)
        else:
            refusal = None
            claimed = _claim(tx, proposal, by=by, now=now)
    if refusal is not None:
        raise refusal
    return claimed


def _claim(tx: StoreWriter, proposal: Proposal, *, by: str, now: datetime) -> Proposal:
    if arguments_sha256(proposal.arguments) != proposal.arguments_sha256:
        raise NotPending(
            f"{proposal.id}: the stored arguments no longer match their SHA-256; it will not run",
            code="tampered",
            field="id",
        )
    stale = (
        proposal.status == "approved"
        and proposal.order_id is None
        and proposal.result is None
        and proposal.decided_at is not None
        and now - proposal.decided_at >= STALE_CLAIM
    )
    if proposal.status != "pending" and not stale:
        raise _not_pending(proposal)
    claimed = tx.decide_proposal(
        proposal.id, expect=proposal.status, status="approved", now=now, by=by
    )
    if claimed is None:  # another decider got there between our read and our write
        latest = tx.proposal(proposal.id)
        assert latest is not None
        raise _not_pending(latest)
    _audit(
        tx, APPROVE, claimed, now, f"{claimed.id} approved by {by}; running {claimed.tool}",
        actor=by,
    )  # fmt: skip
    return claimed


def settle(
    store: Store,
    proposal: Proposal,
    *,
    ran: bool,
    message: str,
    result: Mapping[str, JsonValue] | None,
    order_id: str | None,
    now: datetime,
) -> Proposal:
    """Record what the write tool answered for a claimed proposal: approved with its order, or
    failed with the refusal (`ran` false)."""
    with store.writing() as tx:
        settled = tx.decide_proposal(
            proposal.id,
            expect="approved",
            status="approved" if ran else "failed",
            now=now,
            reason=None if ran else message,
            result=dict(result) if result is not None else {"message": message},
            order_id=order_id,
        )
        if settled is None:
            latest = tx.proposal(proposal.id)
            assert latest is not None
            return latest
        _audit(
            tx, APPROVE if ran else FAIL, settled, now, message, refused=not ran,
            actor=settled.decided_by,
        )  # fmt: skip
        _announce(tx, DECIDED, settled, now)
    return settled


def deny(store: Store, proposal_id: str, *, by: str, reason: str | None, now: datetime) -> Proposal:
    get_proposal(store, proposal_id, now=now)  # a lapsed one is expired for good first
    with store.writing() as tx:
        (proposal,) = _expire_due(tx, [_known(tx, proposal_id)], now)
        if proposal.status != "pending":
            raise _not_pending(proposal)
        denied = tx.decide_proposal(
            proposal.id,
            expect="pending",
            status="denied",
            now=now,
            by=by,
            reason=reason or "denied",
        )
        if denied is None:
            latest = tx.proposal(proposal.id)
            assert latest is not None
            raise _not_pending(latest)
        _audit(tx, DENY, denied, now, f"{denied.id} denied by {by}: {denied.reason}", actor=by)
        _announce(tx, DECIDED, denied, now)
    return denied


def check_approved(
    tx: StoreWriter,
    proposal_id: str,
    *,
    tool: str,
    same_arguments: Callable[[Mapping[str, JsonValue]], bool],
) -> Proposal:
    """Inside the write's own transaction: `proposal_id` names a proposal for `tool` that a
    person approved before it expired and whose write has not been settled yet, its stored
    arguments unchanged since review and equal to the call's (`same_arguments`). Anything
    else is `NotApproved`: the write does not run."""
    proposal = _known(tx, proposal_id)

    def refuse(why: str, code: str) -> NotApproved:
        return NotApproved(
            f"{proposal.id} {why}; the write did not run",
            code=code,
            field="proposal_id",
            details={"status": proposal.status},
        )

    if proposal.tool != tool:
        raise refuse(f"is a proposal for {proposal.tool}, not {tool}", "wrong_tool")
    if proposal.status != "approved" or proposal.decided_at is None:
        raise refuse(f"is {proposal.status}, not approved", "not_approved")
    if proposal.order_id is not None or proposal.result is not None:
        raise refuse("was executed already", "executed")
    if proposal.decided_at > proposal.expires_at:
        raise refuse("was approved after it expired", "expired")
    if arguments_sha256(proposal.arguments) != proposal.arguments_sha256:
        raise refuse("has stored arguments that no longer match their SHA-256", "tampered")
    if not same_arguments(proposal.arguments):
        raise refuse("was approved with other arguments than this call's", "other_arguments")
    return proposal


def approved_check(
    proposal_id: str, tool: str, same_arguments: Callable[[Mapping[str, JsonValue]], bool]
) -> Callable[[StoreWriter], object]:
    """`check_approved` as the check a write runs first in its own transaction."""

    def check(tx: StoreWriter) -> object:
        return check_approved(tx, proposal_id, tool=tool, same_arguments=same_arguments)

    return check
