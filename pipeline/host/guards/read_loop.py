"""`read_loop`: the same read call with the same arguments again, with nothing new in between
(no successful write since). Allowed up to the limit, then blocked with what was already read."""

from __future__ import annotations

from pipeline.host.guards.base import CallDecision, GuardState
from pipeline.host.guards.common import call_key
from pipeline.models import ToolCall

__all__ = ["read_loop"]


def read_loop(call: ToolCall, state: GuardState) -> CallDecision:
    spec = state.tools.get(call.name)
    if spec is None or not spec.read_only:
        return CallDecision()
    key = call_key(call.name, call.arguments)
    same = 0
    last_result = ""
    for record in reversed(state.calls):
        if (
            not state.tools.get(record.name, spec).read_only
            and record.executed
            and not record.is_error
        ):
            break
        if call_key(record.name, record.arguments) == key and record.executed:
            same += 1
            last_result = last_result or record.result
    if same < state.read_loop_limit:
        return CallDecision()
    shown = last_result if len(last_result) <= 600 else last_result[:600] + "..."
    return CallDecision(
        "block",
        message=f"Blocked: {call.name} with these arguments was already read {same} times and "
        f"nothing has changed since. Use the result you have: {shown}",
    )
