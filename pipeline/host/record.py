"""Every run is data: the `RunRecord` the host returns and appends to the audit log."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from pipeline.contract import ContractReading, Question, TaskContract
from pipeline.host.budget import HopBudget
from pipeline.host.ledger import LedgerSummary
from pipeline.models import JsonObject, Message
from pipeline.toolfacts import Facts, ToolResult, read_facts

__all__ = [
    "AttachmentInfo",
    "GuardEvent",
    "ItemResolution",
    "ProposalRecord",
    "RunRecord",
    "RunStatus",
    "ToolCallRecord",
    "append_run_log",
    "executed_facts",
    "read_run_log",
]

RunStatus = Literal["queued", "running", "done", "limit", "error", "ask"]
"""`ask`: the run asks a person about its reading of the task (`RunRecord.question`) instead
of guessing; nothing ran. A yes starts a run of exactly that reading."""
GuardAction = Literal["allow", "repair", "block", "bounce", "end", "note"]


class ToolCallRecord(BaseModel):
    hop: int
    id: str
    name: str
    arguments: JsonObject
    is_error: bool
    result: str
    structured: JsonObject | None = None
    executed: bool = True
    dry_run: bool = False
    duration_ms: float = 0.0


class GuardEvent(BaseModel):
    hop: int
    guard: str
    action: GuardAction
    message: str


class ProposalRecord(BaseModel):
    """A write this run queued for a person instead of running it."""

    id: str
    tool: str
    arguments: JsonObject
    expires_at: datetime
    hop: int


def executed_facts(calls: Sequence[ToolCallRecord]) -> Facts:
    """What the calls the servers answered in this run established."""
    return read_facts(
        ToolResult(c.name, c.arguments, c.is_error, c.result, c.structured)
        for c in calls
        if c.executed
    )


Resolved = Literal["one", "several", "near", "none", "unresolved"]


class ItemResolution(BaseModel):
    """What the store says a screen row's identifier names (`inventory_find_items`), asked by
    the host before the model's first turn. Only `one` gives a SKU the run may act on."""

    screen: str = Field(description="the attachment the row is on")
    key: str = Field(description="the row's identifier as the screen shows it")
    key_kind: str = Field(description="the column the screen showed it in: sku, name…")
    answer: Resolved = Field(
        description="one: the store's one item; several: more than one matches; near: only "
        "a near match; none: no item; unresolved: the lookup failed"
    )
    sku: str | None = Field(default=None, description="the item's SKU, when the answer is one")
    matched_by: str | None = Field(
        default=None, description="one: what of the item the key is (sku, barcode, alias, name…)"
    )
    candidates: list[str] = Field(default_factory=list, description="several or near: the SKUs")
    message: str = ""


class AttachmentInfo(BaseModel):
    name: str
    description: str
    captured_at: datetime | None = None
    sha256: str | None = None


class RunRecord(BaseModel):
    id: str
    task: str
    model: str
    groups: list[str]
    task_contract: TaskContract | None = None
    contract_readings: list[ContractReading] = Field(
        default_factory=list,
        description="every reading of the task: the reader's, its fallback (what its "
        "understood clauses allow), the model's when it read the task, and the final contract "
        "(their meet), each with a note",
    )
    status: RunStatus = "running"
    question: Question | None = None
    """With status `ask`: the reading the run would act on and what it did not understand."""
    confirms: str | None = None
    """The asked run whose reading a person said yes to: this run acts on it."""
    final: str = ""
    final_by: Literal["model", "host"] | None = None
    """Who wrote `final`: the model's own reply, or the host (a guard's ending, a stopped or
    failed run, the report `false_claim` writes in the model's place); None while the run is
    going, and in records written before it was kept."""
    ledger_summary: LedgerSummary | None = None
    """What the tool results say was done, built by the host (not the model's words)."""
    error: str | None = None
    dry_run: bool = False
    hops: int = 0
    hop_budget: HopBudget | None = None
    """The hops this run could take and the work they were counted from (None in records
    written before it was kept)."""
    attachments: list[AttachmentInfo] = Field(default_factory=list)
    resolutions: list[ItemResolution] = Field(
        default_factory=list,
        description="each screen row's identifier resolved against the store before the first "
        "turn; a row not resolved to one item is reported and never written",
    )
    messages: list[Message] = Field(default_factory=list)
    tool_calls: list[ToolCallRecord] = Field(default_factory=list)
    proposals: list[ProposalRecord] = Field(default_factory=list)
    approval: Literal["auto", "manual"] = "auto"
    """`manual`: writes were queued as proposals for a person, not run."""
    guard_events: list[GuardEvent] = Field(default_factory=list)
    tokens: dict[str, int] = Field(
        default_factory=lambda: {"prompt": 0, "completion": 0, "cached": 0},
        description="prompt, completion and cached tokens as the endpoint counted them; "
        "images: the estimated tokens of the images screen_view attached (once per image, "
        "pipeline.tiers.image_tokens), present when it attached one",
    )
    steps: dict[str, int] = Field(
        default_factory=dict,
        description="model turns by how they were asked (native, schema) and schema replies "
        "that did not meet the step schema (schema_invalid)",
    )
    notes: list[str] = Field(default_factory=list, description="what the model adapter decided")
    timings_ms: dict[str, float] = Field(default_factory=dict)
    started_at: datetime
    ended_at: datetime | None = None


_LOG_LOCK = threading.Lock()


def append_run_log(path: Path, record: RunRecord) -> None:
    """One JSON line per run, written whole so concurrent runs never interleave."""
    path.parent.mkdir(parents=True, exist_ok=True)
    line = record.model_dump_json() + "\n"
    with _LOG_LOCK, path.open("a", encoding="utf-8") as handle:
        handle.write(line)
        handle.flush()
        os.fsync(handle.fileno())


def read_run_log(path: Path) -> list[RunRecord]:
    if not path.exists():
        return []
    records = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            try:
                records.append(RunRecord.model_validate(json.loads(line)))
            except (ValueError, TypeError):
                continue
    return records
