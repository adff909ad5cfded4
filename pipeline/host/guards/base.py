"""What a guard sees and what it may decide. Guards are pure: no I/O, no clock of their own.

Two hook points in the loop:
- `on_response`: a model turn before anything runs (stall, prose_call, truncation);
- `on_call`: one proposed tool call before it runs (arg_repair, repeat_rejected,
  unchanged_field, read_loop, give_up, freshness, scope).
A guard never invents a call for the model; it may reshape what the model sent, block it with
a reason, bounce the turn with a nudge, or end the run with an answer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from pipeline.contract import TaskContract
from pipeline.host.record import GuardEvent, ToolCallRecord
from pipeline.models import Message, ModelResponse, ToolCall, ToolSpec

__all__ = [
    "CallDecision",
    "CallGuard",
    "GuardState",
    "ResponseDecision",
    "ResponseGuard",
    "ScreenEvidence",
    "check_call",
    "check_response",
]


@dataclass(frozen=True)
class ScreenEvidence:
    """A screenshot the run was given: when it was captured and which SKUs it showed (its
    rows' SKUs, or the SKUs the store resolved its rows' keys to, with those keys)."""

    name: str
    captured_at: datetime | None
    skus: frozenset[str]
    shown_as: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """The row keys (a barcode, a name) each SKU of `skus` was resolved from."""


@dataclass(frozen=True)
class GuardState:
    """The run so far, as guards may read it."""

    hop: int
    now: datetime
    messages: Sequence[Message]
    calls: Sequence[ToolCallRecord]
    events: Sequence[GuardEvent]
    tools: Mapping[str, ToolSpec]
    screens: Sequence[ScreenEvidence] = ()
    max_tokens: int = 1024
    freshness_limit_s: float = 900.0
    read_loop_limit: int = 2
    turn_calls: Sequence[ToolCall] = field(default_factory=tuple)
    contract: TaskContract | None = None


@dataclass(frozen=True)
class ResponseDecision:
    action: Literal["allow", "repair", "bounce", "end"] = "allow"
    response: ModelResponse | None = None
    message: str = ""
    max_tokens: int | None = None


@dataclass(frozen=True)
class CallDecision:
    action: Literal["allow", "repair", "block", "end"] = "allow"
    call: ToolCall | None = None
    message: str = ""


ResponseGuard = Callable[[ModelResponse, GuardState], ResponseDecision]
CallGuard = Callable[[ToolCall, GuardState], CallDecision]


def check_response(
    guards: Mapping[str, ResponseGuard], response: ModelResponse, state: GuardState
) -> tuple[ResponseDecision, str | None]:
    """The first decision other than allow, and the guard that made it."""
    for name, guard in guards.items():
        decision = guard(response, state)
        if decision.action != "allow":
            return decision, name
    return ResponseDecision(), None


def check_call(
    guards: Mapping[str, CallGuard], call: ToolCall, state: GuardState
) -> tuple[CallDecision, str | None]:
    """The first decision other than allow (repairs pass on to the next guard, reshaped),
    and the guard that made it."""
    current = call
    repaired: tuple[CallDecision, str] | None = None
    for name, guard in guards.items():
        decision = guard(current, state)
        if decision.action == "repair" and decision.call is not None:
            current = decision.call
            repaired = (decision, name)
            continue
        if decision.action != "allow":
            return decision, name
    if repaired is not None:
        return CallDecision("repair", current, repaired[0].message), repaired[1]
    return CallDecision(), None
