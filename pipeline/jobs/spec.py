"""What a queued run is: everything a process needs to execute it, and nothing it holds."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from datetime import datetime

from pydantic import BaseModel, Field

from pipeline.host.record import RunRecord
from pipeline.models import EventSink, IngestResult

__all__ = ["EventSink", "RunSpec", "Runner", "new_run_id"]


def new_run_id() -> str:
    return f"run-{uuid.uuid4().hex[:12]}"


class RunSpec(BaseModel):
    """A run as asked: its id is given when it is queued, before any process executes it."""

    id: str = Field(default_factory=new_run_id)
    task: str
    model: str
    dry_run: bool = False
    guards: dict[str, bool] = Field(default_factory=dict)
    manual: bool = False
    """Writes become proposals a person approves."""
    results: list[IngestResult] = Field(default_factory=list)
    started_at: datetime
    requested_by: str | None = None
    """Who started it (an API key, `api:NAME`): its proposals say so, and under separation of
    duties that key cannot approve them."""


Runner = Callable[[RunSpec, EventSink], Awaitable[RunRecord]]
"""Executes one run, sending its events to the sink, and returns its record."""
