"""The ledger summary: what this run's tool results say was done, built by the host.

Every run ends with one, beside the model's own answer, so nobody has to trust the model's
words: orders created (and orders an idempotency key returned), refusals with their reason,
writes waiting for approval, cancels. The `false_claim` guard holds a final answer to it.
Pure: it reads `pipeline.toolfacts.Facts`.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from pipeline.toolfacts import Facts

__all__ = ["LedgerEntry", "LedgerSummary", "summarize"]


class LedgerEntry(BaseModel):
    sku: str | None = None
    warehouse_id: str | None = None
    quantity: int | None = None
    order_id: str | None = None
    proposal_id: str | None = None
    reason: str | None = None


class LedgerSummary(BaseModel):
    ordered: list[LedgerEntry] = Field(default_factory=list)
    """Orders this run created."""
    returned: list[LedgerEntry] = Field(default_factory=list)
    """Orders an idempotency key returned: created before, not by this call."""
    refused: list[LedgerEntry] = Field(default_factory=list)
    proposed: list[LedgerEntry] = Field(default_factory=list)
    """Writes queued for a person's approval, not run."""
    cancelled: list[LedgerEntry] = Field(default_factory=list)
    dry_run: list[LedgerEntry] = Field(default_factory=list)
    """Writes a dry run recorded, not run."""
    text: str = ""

    @property
    def wrote(self) -> bool:
        return bool(self.ordered or self.cancelled)


def _clip(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def summarize(facts: Facts) -> LedgerSummary:
    """The summary of what `facts` record, with a text a person reads."""
    summary = LedgerSummary()
    for (sku, warehouse), order in facts.created.items():
        entry = LedgerEntry(
            sku=sku, warehouse_id=warehouse, quantity=order.quantity, order_id=order.id
        )
        (summary.ordered if order.id in facts.new_orders else summary.returned).append(entry)
    for (sku, warehouse), reason in facts.refusals.items():
        summary.refused.append(LedgerEntry(sku=sku, warehouse_id=warehouse, reason=reason))
    for (sku, warehouse), proposal in facts.proposed.items():
        summary.proposed.append(
            LedgerEntry(
                sku=sku,
                warehouse_id=warehouse,
                quantity=facts.proposed_quantities.get(proposal),
                proposal_id=proposal,
            )
        )
    for order_id, proposal in facts.proposed_cancels.items():
        summary.proposed.append(LedgerEntry(order_id=order_id, proposal_id=proposal))
    for order_id, order in facts.cancelled.items():
        summary.cancelled.append(
            LedgerEntry(
                sku=order.sku,
                warehouse_id=order.warehouse_id,
                quantity=order.quantity,
                order_id=order_id,
            )
        )
    for tool, arguments in facts.dry_run:
        summary.dry_run.append(
            LedgerEntry(
                sku=_str(arguments.get("sku")),
                warehouse_id=_str(arguments.get("warehouse_id")),
                quantity=arguments.get("quantity")
                if isinstance(arguments.get("quantity"), int)
                else None,
                order_id=_str(arguments.get("order_id")),
                reason=tool,
            )
        )
    summary.text = _render(summary)
    return summary


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None


_HEAD = "Ledger (from this run's tool results):"


def _units(entry: LedgerEntry) -> str:
    return f" x{entry.quantity}" if entry.quantity is not None else ""


def _render(summary: LedgerSummary) -> str:
    if not (
        summary.wrote or summary.returned or summary.refused or summary.proposed or summary.dry_run
    ):
        return f"{_HEAD} no order was created, refused, proposed or cancelled."
    lines = [_HEAD]
    if summary.ordered:
        lines.append(
            f"- ordered {len(summary.ordered)}: "
            + ", ".join(
                f"{e.order_id} {e.sku} in {e.warehouse_id}{_units(e)}" for e in summary.ordered
            )
        )
    if summary.returned:
        lines.append(
            f"- already ordered before (same idempotency key) {len(summary.returned)}: "
            + ", ".join(f"{e.order_id} {e.sku} in {e.warehouse_id}" for e in summary.returned)
        )
    if summary.proposed:
        lines.append(
            f"- waiting for approval {len(summary.proposed)}: "
            + ", ".join(
                f"{e.proposal_id} "
                + (f"{e.sku} in {e.warehouse_id}{_units(e)}" if e.sku else f"cancel {e.order_id}")
                for e in summary.proposed
            )
        )
    if summary.cancelled:
        lines.append(
            f"- cancelled {len(summary.cancelled)}: "
            + ", ".join(f"{e.order_id} ({e.sku} in {e.warehouse_id})" for e in summary.cancelled)
        )
    if summary.dry_run:
        lines.append(
            f"- dry run, recorded and not run {len(summary.dry_run)}: "
            + ", ".join(
                f"{e.sku} in {e.warehouse_id}{_units(e)}" if e.sku else f"{e.reason} {e.order_id}"
                for e in summary.dry_run
            )
        )
    if summary.refused:
        lines.append(
            f"- refused {len(summary.refused)}: "
            + "; ".join(
                f"{e.sku} in {e.warehouse_id}: {_clip(e.reason or '')}" for e in summary.refused
            )
        )
    return "\n".join(lines)
