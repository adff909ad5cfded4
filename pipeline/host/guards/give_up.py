"""`give_up`: a third attempt at a call that was rejected or blocked twice. The turn ends with
the rejection as the answer instead of burning the rest of the budget."""

from __future__ import annotations

from pipeline.host.guards.base import CallDecision, GuardState
from pipeline.host.guards.common import attempts
from pipeline.models import ToolCall

__all__ = ["ATTEMPTS", "give_up"]

ATTEMPTS = 2


def give_up(call: ToolCall, state: GuardState) -> CallDecision:
    earlier = attempts(call, state.calls)
    if len(earlier) < ATTEMPTS:
        return CallDecision()
    first = next((c for c in earlier if c.executed), earlier[0])
    return CallDecision(
        "end",
        message=f"Stopped: {call.name} was attempted {len(earlier) + 1} times with the same "
        f"arguments and rejected each time. The reason: {first.result}",
    )
