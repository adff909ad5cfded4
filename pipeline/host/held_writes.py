"""Writes held for a person: what the loop hands to a proposal queue instead of running a write.

Under manual approval the loop never runs a write tool. Each order a write call would make
becomes one `ProposalDraft` (exactly the arguments that will run, what the screenshot showed and
the live numbers the run read), the queue passed in stores it, and the model gets a tool result
saying it is queued under that id and must not be sent again. Approving it later runs the stored
call through the same tool; the model is never resumed for it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from pipeline.host.context import Attachment
from pipeline.models import JsonObject, JsonValue
from pipeline.screentext import parse_screens
from pipeline.toolfacts import CREATE_TOOL, Facts

__all__ = [
    "ProposalDraft",
    "ProposalQueue",
    "ProposalRefusal",
    "ProposalTicket",
    "drafts_for",
    "queued_outcome",
]


@dataclass(frozen=True)
class ProposalDraft:
    run_id: str
    tool: str
    arguments: JsonObject
    observation: JsonObject | None = None
    live: JsonObject | None = None


@dataclass(frozen=True)
class ProposalTicket:
    id: str
    tool: str
    arguments: JsonObject
    expires_at: datetime
    waiting_since: datetime | None = None
    """Set when the same write was waiting for approval already: since when."""


@dataclass(frozen=True)
class ProposalRefusal:
    """A draft the queue would not hold: the live re-check refused it now (its SKU is not low,
    with the live numbers), as a write would have been refused."""

    tool: str
    arguments: JsonObject
    error: str
    message: str


class ProposalQueue(Protocol):
    """Stores proposals durably (the store's approvals table, in practice)."""

    async def propose(self, draft: ProposalDraft) -> ProposalTicket | ProposalRefusal: ...


def _observation(sku: str, warehouse: str, attachments: Sequence[Attachment]) -> JsonObject | None:
    """What the newest screenshot showing this SKU in this warehouse said about it."""
    seen: JsonObject | None = None
    for attachment in attachments:
        for screen in parse_screens(attachment.content):
            for row in screen.rows:
                if row.sku != sku or screen.warehouse_of(row) not in (warehouse, None):
                    continue
                if seen is None or screen.captured_at.isoformat() > str(seen["captured_at"]):
                    seen = {
                        "sku": sku,
                        "warehouse_id": warehouse,
                        "on_hand": row.on_hand,
                        "reorder_point": row.reorder_point,
                        "captured_at": screen.captured_at.isoformat(timespec="seconds"),
                        "screen": attachment.name,
                    }
    return seen


def drafts_for(
    run_id: str,
    tool: str,
    arguments: Mapping[str, JsonValue],
    *,
    attachments: Sequence[Attachment],
    facts: Facts,
) -> list[ProposalDraft]:
    """One draft per order the call would make (a create for several SKUs is one per SKU, so
    each is approved or denied on its own). The model's own idempotency key is left out: the
    approved call runs under a key derived from the proposal's id."""
    kept = {k: v for k, v in arguments.items() if k != "idempotency_key"}
    skus, warehouse = kept.pop("skus", None), kept.get("warehouse_id")
    if tool == CREATE_TOOL and isinstance(skus, list) and skus:
        singles = [{"sku": sku, **kept} for sku in dict.fromkeys(skus) if isinstance(sku, str)]
    else:
        singles = [kept if skus is None else {**kept, "skus": skus}]
    drafts = []
    for single in singles:
        sku = single.get("sku")
        observation: JsonObject | None = None
        live: JsonObject | None = None
        if tool == CREATE_TOOL and isinstance(sku, str) and isinstance(warehouse, str):
            observation = _observation(sku, warehouse, attachments)
            level = facts.live.get((sku, warehouse))
            if level is not None:
                live = {
                    "on_hand": level.on_hand,
                    "on_order": level.on_order,
                    "reorder_point": level.reorder_point,
                }
        drafts.append(ProposalDraft(run_id, tool, single, observation, live))
    return drafts


def queued_outcome(
    answers: Sequence[ProposalTicket | ProposalRefusal],
) -> tuple[bool, str, JsonObject]:
    """The tool result the model reads (JSON, as every tool answers): queued under which ids
    (or waiting already, since when) and not to be sent again, and what was refused and why;
    an error when nothing was queued."""
    tickets = [a for a in answers if isinstance(a, ProposalTicket)]
    refusals = [a for a in answers if isinstance(a, ProposalRefusal)]
    parts = []
    new = [t for t in tickets if t.waiting_since is None]
    waiting = [t for t in tickets if t.waiting_since is not None]
    if new:
        described = "; ".join(f"{t.id}: {t.tool} {_short(t.arguments)}" for t in new)
        parts.append(f"queued for approval, not executed: {described}")
    if waiting:
        described = "; ".join(
            f"{t.id} since {t.waiting_since.isoformat(timespec='seconds')}: "
            f"{t.tool} {_short(t.arguments)}"
            for t in waiting
            if t.waiting_since is not None
        )
        parts.append(f"already waiting for approval, not executed: {described}")
    if tickets:
        parts[-1] += (
            ". A person approves or denies it; do not send it again. Report it as waiting "
            "for approval"
        )
    if refusals:
        parts.append("refused: " + "; ".join(r.message for r in refusals))
    message = ". ".join(parts) + "."
    structured: JsonObject = {"message": message}
    if tickets:
        structured["queued"] = [
            {
                "proposal_id": t.id,
                "tool": t.tool,
                "arguments": t.arguments,
                "expires_at": t.expires_at.isoformat(timespec="seconds"),
                **(
                    {"waiting_since": t.waiting_since.isoformat(timespec="seconds")}
                    if t.waiting_since is not None
                    else {}
                ),
            }
            for t in tickets
        ]
    if refusals:
        structured["results"] = [
            {
                "sku": r.arguments.get("sku"),
                "refused": {"error": r.error, "message": r.message},
            }
            for r in refusals
        ]
    return not tickets, json.dumps(structured, ensure_ascii=False), structured


def _short(arguments: Mapping[str, JsonValue]) -> str:
    return json.dumps(arguments, ensure_ascii=False, sort_keys=True)
