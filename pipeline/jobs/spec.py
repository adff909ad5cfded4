"""What a queued run is: everything a process needs to execute it, and nothing it holds."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime

from pydantic import BaseModel, Field

from pipeline.contract import Question
from pipeline.host import RunRecord, new_run_id
from pipeline.models import EventSink, IngestResult

__all__ = ["EventSink", "IngestAsk", "RunSpec", "Runner"]


@dataclass(frozen=True)
class IngestAsk:
    """One upload to read: its bytes and name, when the caller says it was captured, the
    strategy asked for, and the type it was sent as."""

    data: bytes
    name: str
    caller_time: datetime | None = None
    strategy: str | None = None
    content_type: str | None = None


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
    confirmed: Question | None = None
    """The question of run `confirms` a person said yes to: this run acts on its reading."""
    confirms: str | None = None


Runner = Callable[[RunSpec, EventSink], Awaitable[RunRecord]]
"""Executes one run, sending its events to the sink, and returns its record."""
