"""The approvals inbox: proposals runs queued, approved or denied one by one.

Approving runs exactly the stored call through the orders tool, which re-checks live stock in
its write transaction at that moment: `200` with the order, or `409` with the tool's refusal
(the proposal is then `failed`). A proposal that is not pending (decided, expired, being
approved by someone else) is `409` too; an unknown id `404`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from pipeline.api.deps import AppServices, Services, caller, needs
from pipeline.api.openapi import Responses
from pipeline.api.plain import proposal_quantity, proposal_source
from pipeline.api.schemas import (
    ApprovalsResponse,
    DecisionOut,
    DenyRequest,
    ErrorBody,
    OrderOut,
    ProposalOut,
)
from pipeline.api.screens import run_screens, source_out
from pipeline.approval_desk import Decision
from pipeline.bootstrap import utc_now
from pipeline.host import AttachmentInfo
from servers.models import PlannedOrder
from store.models import Order, Proposal, ProposalQuery

__all__ = ["proposal_out", "router"]

router = APIRouter(tags=["approvals"])
Status = Annotated[
    str | None,
    Query(pattern="^(pending|approved|denied|expired|failed)$", description="only this status"),
]
DECIDED: Responses = {
    404: {"model": ErrorBody, "description": "no proposal with this id"},
    409: {
        "model": ErrorBody,
        "description": "not pending (decided, expired or being approved), or the write "
        "tool refused it on approval (the proposal is then failed)",
    },
}


def proposal_out(
    proposal: Proposal,
    now: datetime,
    planned: PlannedOrder | None = None,
    screens: Sequence[AttachmentInfo] = (),
) -> ProposalOut:
    """A proposal as the API shows it: its screenshot's age, what approving it now would
    order, the units it orders (and why that many), and its source (`screens`: what its run
    read, for the link to its screenshot)."""
    captured = (proposal.observation or {}).get("captured_at")
    age = (
        (now - datetime.fromisoformat(captured)).total_seconds()
        if isinstance(captured, str) and captured
        else None
    )
    quantity, why = proposal_quantity(proposal, planned)
    source = source_out(proposal_source(proposal), screens)
    return ProposalOut.model_validate(
        {
            **proposal.model_dump(mode="json"),
            "screenshot_age_s": None if age is None else round(age),
            "planned": None if planned is None else planned.model_dump(mode="json"),
            "quantity": quantity,
            "quantity_why": why,
            "source": source.model_dump(mode="json"),
        }
    )


async def _with_plan(
    proposal: Proposal,
    services: AppServices,
    now: datetime,
    screens: dict[str, list[AttachmentInfo]] | None = None,
) -> ProposalOut:
    planned = await services.desk.planned(proposal) if proposal.status == "pending" else None
    if screens is None:
        screens = await run_screens(services, [proposal.run_id])
    return proposal_out(proposal, now, planned, screens.get(proposal.run_id or "", []))


def _order(services: AppServices, order_id: str) -> Order | None:
    with services.slot.reading() as tx:
        return tx.order(order_id)


async def _decision_out(decision: Decision, services: Services) -> DecisionOut:
    order = None
    if decision.proposal.order_id is not None:
        found = await asyncio.to_thread(_order, services, decision.proposal.order_id)
        order = OrderOut.model_validate(found.model_dump(mode="json")) if found else None
    return DecisionOut(
        outcome=decision.outcome,
        message=decision.message,
        proposal=proposal_out(decision.proposal, utc_now()),
        order=order,
    )


@router.get("/approvals", **needs("viewer"), response_model=ApprovalsResponse)
async def list_approvals(
    services: Services,
    status: Status = None,
    run_id: str | None = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> ApprovalsResponse:
    """Proposals from every run, the watch folder and MCP clients, newest first, each with
    its source (run, who asked, screenshot) and the units it orders."""
    query = ProposalQuery.model_validate({"status": status, "run_id": run_id, "limit": limit})
    found = await services.desk.list(query)
    now = utc_now()
    screens = await run_screens(services, [p.run_id for p in found])
    return ApprovalsResponse(proposals=[await _with_plan(p, services, now, screens) for p in found])


@router.get(
    "/approvals/{proposal_id}",
    **needs("viewer"),
    response_model=ProposalOut,
    responses={404: DECIDED[404]},
)
async def get_approval(proposal_id: str, services: Services) -> ProposalOut:
    """One proposal: exactly what would run, what the screen and the run's live read said."""
    return await _with_plan(await services.desk.get(proposal_id), services, utc_now())


@router.post(
    "/approvals/{proposal_id}/approve",
    **needs("approver"),
    response_model=DecisionOut,
    responses=DECIDED,
)
async def approve(proposal_id: str, request: Request, services: Services) -> JSONResponse:
    """Run the stored call now; the write tool re-checks live stock first."""
    decision = await services.desk.approve(proposal_id, by=caller(request))
    body = await _decision_out(decision, services)
    if decision.outcome == "failed":
        return JSONResponse(
            {"error": "refused", "message": decision.message, **body.model_dump(mode="json")},
            status_code=409,
        )
    return JSONResponse(body.model_dump(mode="json"))


@router.post(
    "/approvals/{proposal_id}/deny",
    **needs("approver"),
    response_model=DecisionOut,
    responses=DECIDED,
)
async def deny(
    proposal_id: str, request: Request, services: Services, body: DenyRequest | None = None
) -> DecisionOut:
    """Nothing is written; the reason (optional) is kept on the proposal and audited."""
    decision = await services.desk.deny(
        proposal_id, by=caller(request), reason=body.reason if body else None
    )
    return await _decision_out(decision, services)
