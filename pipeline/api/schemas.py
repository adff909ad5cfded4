"""Request and response bodies of the HTTP API, with the examples `/docs` shows."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from pipeline.contract import TaskContract
from pipeline.host import RunRecord, RunStatus
from pipeline.models import IngestResult, JsonObject
from servers.models import PlannedOrder

__all__ = [
    "RUN_EXAMPLE",
    "ApprovalsResponse",
    "AttemptOut",
    "CancelRequest",
    "CancelledOut",
    "ContractOut",
    "DecisionOut",
    "DeliveriesResponse",
    "DeliveryOut",
    "DenyRequest",
    "ErrorBody",
    "Health",
    "IngestItem",
    "IngestResponse",
    "OrderOut",
    "OrdersResponse",
    "ProposalOut",
    "Readiness",
    "RunDetail",
    "RunRequest",
    "RunStarted",
    "RunSummary",
    "RunsResponse",
    "ScreenOut",
    "SourceOut",
    "StepOut",
]

SHA = "9f2c6d1e0a5b4c3d2e1f00112233445566778899aabbccddeeff001122334455"
RUN_EXAMPLE: JsonObject = {
    "task": "find the SKUs that are low and raise replenishment orders",
    "ingest_ids": [SHA],
    "model": "rules",
    "dry_run": True,
}


class ErrorBody(BaseModel):
    error: str = Field(description="stable code, like upload_too_large or unauthorized")
    message: str = Field(description="what went wrong and what to change")

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "error": "unsupported_format",
                    "message": "notes.txt: not an image stockshot reads; "
                    "send PNG, JPEG, WebP, BMP, TIFF or GIF",
                }
            ]
        }
    )


class IngestItem(IngestResult):
    """One uploaded image, read; `id` is its content hash, for `ingest_ids` in a run."""

    id: str = Field(description="SHA-256 of the image bytes")

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": SHA,
                    "file": "erp-light-wh01.png",
                    "sha256": SHA,
                    "captured_at": "2026-11-30T08:12:00+08:00",
                    "captured_at_source": "png-text",
                    "age_s": 13680.0,
                    "strategy": "table_ocr",
                    "engine": "rapidocr",
                    "cache": "miss",
                    "size": [1920, 1080],
                    "crop": [282, 230, 1784, 895],
                    "table": {
                        "header": ["SKU", "Name", "On hand", "Reorder pt", "Warehouse"],
                        "cells": [["SKU-10232", "Hex bolt M8", "38", "120", "WH-01"]],
                    },
                    "rows": [
                        {
                            "sku": "SKU-10232",
                            "name": "Hex bolt M8",
                            "on_hand": 38,
                            "reorder_point": 120,
                            "warehouse_id": "WH-01",
                            "confidence": 0.98,
                        }
                    ],
                    "text": "| sku | name | on_hand | reorder_point | warehouse_id |\n...",
                    "tokens": {"full_page_image": 1105, "sent": 410},
                    "warnings": [],
                    "timings_ms": {"total": 712.4},
                }
            ]
        }
    )


class IngestResponse(BaseModel):
    results: list[IngestItem]


class RunRequest(BaseModel):
    """Start a run over screenshots ingested before (by id) and/or uploaded with the request."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [RUN_EXAMPLE]},
    )

    task: str = Field(min_length=1, max_length=4000, description="what the agent should do")
    ingest_ids: list[str] = Field(
        default_factory=list, max_length=50, description="ids returned by POST /v1/ingest"
    )

    @field_validator("task")
    @classmethod
    def _task_says_something(cls, task: str) -> str:
        if not task.strip():
            raise ValueError(
                "only spaces; say what to do, like 'find the SKUs that are low and raise "
                "replenishment orders'"
            )
        return task

    model: str | None = Field(
        default=None, description="rules | openai:NAME (needs STOCKSHOT_BASE_URL); default rules"
    )
    dry_run: bool = Field(default=False, description="record write calls without running them")
    guards: dict[str, bool] = Field(
        default_factory=dict,
        description="switch guards off (or on) for this run: {stall: false}; refused unless the "
        "server allows it (STOCKSHOT_API_GUARD_SWITCHES); scope can never be switched off",
    )


class RunSummary(BaseModel):
    """One run in the history: what was asked, how it ended, what it proposed."""

    id: str
    task: str
    status: str = Field(description="queued, running, done, error or limit")
    model: str
    started_at: datetime
    ended_at: datetime | None
    approval: Literal["auto", "manual"]
    dry_run: bool
    contract: str | None = Field(description="how the task was read, in words")
    final: str
    final_by: Literal["model", "host"] | None
    ledger: str | None = Field(description="what the run did, as the host counted it")
    proposals: list[str] = Field(description="ids of the writes it proposed")
    tool_calls: int


class RunsResponse(BaseModel):
    runs: list[RunSummary]


class StepOut(BaseModel):
    """One tool call of a run in plain words."""

    tool: str
    words: str = Field(description="what was read or written, with its numbers, or refused")
    refused: bool
    dry_run: bool = False


class ScreenOut(BaseModel):
    """A screenshot a run read: its name, its picture's id, whether the picture is still kept,
    and while this process holds its reading, its size and the table's box on it."""

    name: str
    ingest_id: str | None = Field(
        default=None, description="GET /v1/ingest/{ingest_id}/image is the picture"
    )
    captured_at: datetime | None = None
    kept: bool = Field(
        description="whether the picture is still kept (GET /v1/ingest/{ingest_id}/image "
        "shows it): kept on disk for STOCKSHOT_SCREENSHOT_RETENTION_DAYS after it was last read"
    )
    size: tuple[int, int] | None = Field(default=None, description="width and height, pixels")
    crop: tuple[int, int, int, int] | None = Field(
        default=None, description="the table's box on it: x0, y0, x1, y1"
    )


class RunDetail(RunRecord):
    """The run record, with its calls in plain words and the screenshots it read."""

    said: list[StepOut] = Field(
        default_factory=list, description="each tool call in plain words, in order"
    )
    screens: list[ScreenOut] = Field(default_factory=list)


class Confirmation(BaseModel):
    """A person's answer to the question a run ended with (status `ask`)."""

    model_config = ConfigDict(extra="forbid")

    go_ahead: bool = Field(
        description="true: start a run that acts on exactly the reading the question showed; "
        "false: nothing runs"
    )


class Declined(BaseModel):
    run: str
    go_ahead: bool = False
    message: str


class RunStarted(BaseModel):
    id: str
    status: RunStatus
    task_contract: TaskContract = Field(
        description="how the host read the task; every write of the run is held to it"
    )

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "run-3f1a9c0b2d4e",
                    "status": "running",
                    "task_contract": {"action": "replenish", "writes_allowed": True},
                }
            ]
        }
    )


class ContractOut(BaseModel):
    """How the host reads a task, before anything runs."""

    task: str
    task_contract: TaskContract
    fallback: TaskContract = Field(
        description="what the understood part of the task allows, the ids of the rest left "
        "out: what a run with a model that reads tasks may recover (met with its reading)"
    )
    not_understood_words: list[str] = Field(
        default_factory=list, description="the words of the task the reader did not account for"
    )
    summary: str = Field(description="one line for a person")
    groups: list[str] = Field(description="the tool groups a run of this task gets")
    help: str = Field(description="the request forms understood, for a task not understood")


class SourceOut(BaseModel):
    """Where a write came from, in words and as links: its run and its screenshot."""

    kind: Literal["run", "watch", "cli", "mcp"] = Field(
        description="run: a run started over the API or the dashboard; watch: a run of the "
        "watch folder; cli: stockshot run at a terminal; mcp: an MCP client's tool call (no run)"
    )
    words: str = Field(description="the source as a person reads it")
    run_id: str | None = None
    screen: str | None = Field(default=None, description="the screenshot's file name")
    ingest_id: str | None = Field(
        default=None,
        description="the screenshot's id, for a run among the latest 500 (an older run's "
        "record names its screens): its picture is GET /v1/ingest/{ingest_id}/image while the "
        "server keeps it",
    )


class OrderOut(BaseModel):
    id: str
    sku: str
    warehouse_id: str
    quantity: int
    status: Literal["open", "cancelled"]
    created_at: str
    cancelled_at: str | None = None
    run_id: str | None = None
    observed_on_hand: int | None = None
    observed_at: str | None = None
    proposal_id: str | None = Field(
        default=None, description="the proposal whose approval wrote it (none: written at once)"
    )
    approved_by: str | None = Field(default=None, description="who approved that proposal")
    ordered_by: str | None = Field(
        default=None, description="who the write acted for, as the audit log records it"
    )
    cancelled_by: str | None = None
    cancel_reason: str | None = Field(default=None, description="why, as the canceller said")
    source: SourceOut | None = Field(
        default=None, description="its run, proposal's source and screenshot (GET /v1/orders)"
    )


class CancelledOut(BaseModel):
    order: OrderOut
    cancelled: bool = Field(description="false when the order was cancelled already")
    by: str = Field(description="who cancelled it, as the audit log records it")


class OrdersResponse(BaseModel):
    orders: list[OrderOut]

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "orders": [
                        {
                            "id": "PO-000001",
                            "sku": "SKU-10232",
                            "warehouse_id": "WH-01",
                            "quantity": 202,
                            "status": "open",
                            "created_at": "2026-11-30T12:00:05+00:00",
                            "run_id": "run-3f1a9c0b2d4e",
                            "observed_on_hand": 38,
                            "observed_at": "2026-11-30T00:12:00+00:00",
                        }
                    ]
                }
            ]
        }
    )


class Health(BaseModel):
    status: Literal["ok"] = "ok"
    version: str


class Readiness(BaseModel):
    ready: bool
    checks: JsonObject


class ProposalOut(BaseModel):
    """A write a run proposed, waiting for (or past) a person's decision."""

    id: str = Field(description="like AP-000001")
    status: Literal["pending", "approved", "denied", "expired", "failed"]
    run_id: str | None
    tool: str
    arguments: JsonObject = Field(description="exactly the arguments that run on approval")
    arguments_sha256: str
    observation: JsonObject | None = Field(
        description="what the screenshot showed: sku, warehouse_id, on_hand, reorder_point, "
        "captured_at, screen"
    )
    live: JsonObject | None = Field(description="the live numbers the run read")
    screenshot_age_s: float | None = Field(description="age of the screenshot now, in seconds")
    created_at: datetime
    expires_at: datetime
    decided_by: str | None
    decided_at: datetime | None
    requested_by: str | None = Field(
        default=None, description="who started the run that proposed it (api:NAME, cli:USER)"
    )
    reason: str | None
    order_id: str | None
    result: JsonObject | None = Field(description="what the write tool answered")
    planned: PlannedOrder | None = Field(
        default=None,
        description="for a pending replenishment: what approving it now would order (quantity, "
        "its source and rule, the item's name, the live numbers, a change since the proposal)",
    )
    quantity: int | None = Field(
        default=None,
        description="the units it orders: what its approval ordered, the quantity it names, "
        "what an approval now would order, or the policy's over the live numbers at proposal",
    )
    quantity_why: str = Field(default="", description="where that number comes from, in words")
    source: SourceOut | None = Field(
        default=None, description="its run (or MCP client), who asked and the screenshot"
    )


class ApprovalsResponse(BaseModel):
    proposals: list[ProposalOut]


class CancelRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reason: str | None = Field(
        default=None, max_length=2000, description="why it is cancelled: kept and audited"
    )


class DenyRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reason: str | None = Field(default=None, max_length=2000, description="kept and audited")


class DecisionOut(BaseModel):
    outcome: Literal["approved", "denied", "failed"]
    message: str
    proposal: ProposalOut
    order: OrderOut | None = Field(default=None, description="the order an approval wrote")


class AttemptOut(BaseModel):
    at: datetime
    status_code: int | None = Field(description="the receiver's HTTP status, if it answered")
    error: str | None = None


class DeliveryOut(BaseModel):
    """One event sent (or being sent) to one webhook receiver, with each attempt."""

    number: int
    event_number: int
    event: str = Field(description="like order.created, proposal.decided, run.finished")
    url: str
    status: Literal["pending", "delivered"]
    attempts: int
    last_error: str | None
    delivered_at: datetime | None
    tries: list[AttemptOut]


class DeliveriesResponse(BaseModel):
    deliveries: list[DeliveryOut]
