"""`repeat_rejected`: the identical call that a tool server already rejected. Blocked, with the
rejection repeated and what must change. (A call a guard held back may be sent again once the
guard's condition is met, e.g. after the live read `freshness` asked for.)"""

from __future__ import annotations

from pipeline.host.guards.base import CallDecision, GuardState
from pipeline.host.guards.common import attempts
from pipeline.models import ToolCall

__all__ = ["repeat_rejected"]


def repeat_rejected(call: ToolCall, state: GuardState) -> CallDecision:
    earlier = attempts(call, state.calls, by_server=True)
    if not earlier:
        return CallDecision()
    last = earlier[-1]
    field = (last.structured or {}).get("field")
    change = f"change {field!r}" if field else "change what the rejection names"
    return CallDecision(
        "block",
        message=f"Blocked: this exact {call.name} call was already rejected: {last.result} "
        f"Sending it again cannot succeed; {change}, or do something else.",
    )
