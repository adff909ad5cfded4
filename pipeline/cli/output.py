"""What the command line prints: a screenshot's rows, a run, an error. One place, so every
command shows a result, a run and a failure the same way."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from pipeline.models import IngestResult
from servers.terminal import print_table

if TYPE_CHECKING:
    from pipeline.host import RunRecord

__all__ = ["print_error", "print_result", "print_run", "result_json"]


def print_error(error: BaseException | str, *, out: TextIO | None = None) -> None:
    """`stockshot: error: …` on standard error."""
    print(f"stockshot: error: {error}", file=out or sys.stderr)


def result_json(result: IngestResult) -> str:
    data = result.model_dump(mode="json")
    if data.get("image") is None:
        data.pop("image", None)
    return json.dumps(data, ensure_ascii=False)


def print_result(result: IngestResult, out: TextIO) -> None:
    out.write(
        f"{result.file}\n  captured {result.captured_at.isoformat(timespec='seconds')} "
        f"({result.captured_at_source}, {result.age_s / 3600:.1f} h ago) · {result.strategy} · "
        f"{result.engine} · cache {result.cache} · {result.timings_ms.get('total', 0):.0f} ms · "
        f"tokens {result.tokens.sent} sent vs {result.tokens.full_page_image} for the image\n"
    )
    for warning in result.warnings:
        out.write(f"  ! {warning}\n")
    header: tuple[str, ...]
    table: list[tuple[str, ...]]
    if result.rows:
        header = ("sku", "name", "on_hand", "reorder_point", "warehouse_id", "low")
        table = [
            (
                r.sku or "",
                (r.name or "")[:40],
                "" if r.on_hand is None else str(r.on_hand),
                "" if r.reorder_point is None else str(r.reorder_point),
                r.warehouse_id or "",
                "LOW" if r.is_low else "",
            )
            for r in result.rows
        ]
    else:
        header = tuple(result.table.header)
        table = [tuple(row) for row in result.table.cells]
    print_table(header, table, out, indent=2)
    out.write("\n")


def print_run(
    record: RunRecord, results: Sequence[IngestResult], out: TextIO, *, trace: bool = True
) -> None:
    """A run as a person reads it: what was read, the task contract, each tool call, the
    answer, the ledger and the proposals. Without `trace`, only what was read, the contract
    and the answer (for a caller that shows the proposals itself, as the demo does)."""
    from pipeline.host import MERGED_NAME

    for result in results:
        low = sum(r.is_low for r in result.rows)
        out.write(
            f"screenshot {Path(result.file).name}: {len(result.rows)} rows, {low} low on screen, "
            f"captured {result.captured_at.isoformat(timespec='seconds')} "
            f"({result.captured_at_source}), {result.strategy}, cache {result.cache}\n"
        )
    for attachment in record.attachments:
        if attachment.name == MERGED_NAME:
            out.write(f"the model reads {attachment.description}\n")
    if record.task_contract is not None:
        out.write(f"task contract: {record.task_contract.summary()}\n")
        for note in record.task_contract.notes:
            out.write(f"  note: {note}\n")
    for reading in record.contract_readings:
        if reading.source == "model":
            said = reading.contract.summary() if reading.contract is not None else "none"
            out.write(
                f"  the model's reading: {said}{f' ({reading.note})' if reading.note else ''}\n"
            )
        elif reading.source == "final" and reading.note and reading.note != "given by the caller":
            out.write(f"  {reading.note}\n")
    mode = " · dry run" if record.dry_run else ""
    if record.approval == "manual":
        mode += " · writes wait for approval"
    out.write(f"model {record.model} · groups {', '.join(record.groups)}{mode}\n")
    events = {(e.hop, e.guard): e for e in record.guard_events}
    for event in events.values():
        out.write(f"  [hop {event.hop}] guard {event.guard}: {event.action}: {event.message}\n")
    for call in record.tool_calls if trace else []:
        arguments = json.dumps(call.arguments, ensure_ascii=False)
        mark = "✗" if call.is_error else "·" if call.dry_run else "✓" if call.executed else "⏸"
        said = call.result if len(call.result) <= 160 else call.result[:157] + "..."
        out.write(f"  [hop {call.hop}] {mark} {call.name} {arguments}\n      -> {said}\n")
    by = " (written by the host, not the model)" if record.final_by == "host" else ""
    out.write(f"{record.status}{by}: {record.final}\n")
    if not trace:
        return
    if record.ledger_summary is not None:
        out.write(record.ledger_summary.text + "\n")
    for proposal in record.proposals:
        shown = json.dumps(proposal.arguments, ensure_ascii=False)
        out.write(f"  proposed {proposal.id}: {proposal.tool} {shown}\n")
    timings = record.timings_ms
    spent = ", ".join(f"{k} {timings.get(k, 0):.0f}" for k in ("model", "tools", "host"))
    budget = f" of {record.hop_budget.hops}" if record.hop_budget is not None else ""
    out.write(f"({record.hops}{budget} hops, {timings.get('total', 0):.0f} ms: {spent})\n")
