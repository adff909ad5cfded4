"""The ledger summary: what this run's tool results say was done, built by the host.

Every run ends with one, beside the model's own answer, so nobody has to trust the model's
words: orders created (and orders an idempotency key returned), refusals with their reason,
writes waiting for approval, cancels. The `false_claim` guard holds a final answer to it.
Pure: it reads `pipeline.toolfacts.Facts`.
"""

from __future__ import annotations

from collections.abc import Callable

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


def _ordered(e: LedgerEntry) -> str:
    return f"{e.order_id} {e.sku} in {e.warehouse_id}{_units(e)}"


def _returned(e: LedgerEntry) -> str:
    return f"{e.order_id} {e.sku} in {e.warehouse_id}"


def _proposed(e: LedgerEntry) -> str:
    what = f"{e.sku} in {e.warehouse_id}{_units(e)}" if e.sku else f"cancel {e.order_id}"
    return f"{e.proposal_id} {what}"


def _cancelled(e: LedgerEntry) -> str:
    return f"{e.order_id} ({e.sku} in {e.warehouse_id})"


def _recorded(e: LedgerEntry) -> str:
    return f"{e.sku} in {e.warehouse_id}{_units(e)}" if e.sku else f"{e.reason} {e.order_id}"


def _refused(e: LedgerEntry) -> str:
    return f"{e.sku} in {e.warehouse_id}: {_clip(e.reason or '')}"


def _render(summary: LedgerSummary) -> str:
    if not (
        summary.wrote or summary.returned or summary.refused or summary.proposed or summary.dry_run
    ):
        return f"{_HEAD} no order was created, refused, proposed or cancelled."
    sections: tuple[tuple[str, list[LedgerEntry], Callable[[LedgerEntry], str], str], ...] = (
        ("ordered", summary.ordered, _ordered, ", "),
        ("already ordered before (same idempotency key)", summary.returned, _returned, ", "),
        ("waiting for approval", summary.proposed, _proposed, ", "),
        ("cancelled", summary.cancelled, _cancelled, ", "),
        ("dry run, recorded and not run", summary.dry_run, _recorded, ", "),
        ("refused", summary.refused, _refused, "; "),
    )
    lines = [_HEAD]
    for label, entries, show, sep in sections:
        if entries:
            lines.append(f"- {label} {len(entries)}: " + sep.join(show(e) for e in entries))
    return "\n".join(lines)
