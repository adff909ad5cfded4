"""What one run is given: the task, the model and toolbox (I/O objects from the caller), the
guards, the limits, and where its events go."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from pipeline.contract import TaskContract
from pipeline.host.context import Attachment
from pipeline.host.guards.base import CallGuard, ResponseGuard
from pipeline.host.held_writes import ProposalQueue
from pipeline.host.toolbox import Toolbox
from pipeline.models import EventSink
from pipeline.vlm.base import Model

__all__ = ["EventSink", "HostLimits", "Run", "new_run_id"]


def new_run_id() -> str:
    """A fresh run id (`run-` and twelve hex digits)."""
    return f"run-{uuid.uuid4().hex[:12]}"


@dataclass(frozen=True)
class HostLimits:
    max_hops: int = 12
    """The fewest hops a run gets: its budget grows with the work (`pipeline.host.budget`)."""
    max_hops_ceiling: int = 48
    """The most hops a run gets, whatever the work."""
    max_tokens: int = 1024
    max_tokens_ceiling: int = 8192
    wall_clock_s: float = 300.0
    freshness_limit_s: float = 900.0
    read_loop_limit: int = 2
    view_max_pixels: int = 1920 * 1080
    """Most pixels of an image `screen_view` attaches (larger ones are scaled down)."""


@dataclass
class Run:
    """Inputs of one run; the I/O objects (model, toolbox, clock) come from the caller."""

    task: str
    model: Model
    toolbox: Toolbox
    groups: Sequence[str] | None = None
    """Default: the groups the contract's action needs."""
    attachments: Sequence[Attachment] = ()
    limits: HostLimits = field(default_factory=HostLimits)
    dry_run: bool = False
    response_guards: Mapping[str, ResponseGuard] = field(default_factory=dict)
    call_guards: Mapping[str, CallGuard] = field(default_factory=dict)
    clock: Callable[[], datetime] = field(default_factory=lambda: _utc_now)
    run_id: str = field(default_factory=new_run_id)
    on_event: EventSink | None = None
    contract: TaskContract | None = None
    """Default: the task read by the reader with the store's warehouse names, met with the
    model's own reading when the model can give one (`pipeline.host.reading`)."""
    approvals: ProposalQueue | None = None
    """Manual approval: every write call becomes proposals in this queue instead of running."""
    sees_images: bool = False
    """The model endpoint reads image parts: the host then offers `screen_view` for the
    attachments sent as text (see `pipeline.host.screenview`)."""
    confirms: str | None = None
    """The asked run whose reading (`contract`) a person confirmed."""
    model_reads_task: bool = False
    """Ask a model that can answer under a JSON Schema how it reads the task, before the
    run; the final contract is its meet with the reader's (see `pipeline.host.reading`)."""


def _utc_now() -> datetime:
    return datetime.now(UTC)
