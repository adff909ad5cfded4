"""Small readings of the run's history that several guards share."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from pipeline.host.guards.base import GuardState
from pipeline.host.record import ToolCallRecord
from pipeline.models import JsonObject, ToolCall
from pipeline.toolfacts import VIEW_TOOL

__all__ = [
    "asks_user",
    "attempts",
    "call_key",
    "guard_count",
    "last_record_of",
    "rejected",
    "tool_results_so_far",
]

_QUESTION = re.compile(
    r"[?？]\s*$|[?？]\s|\b(which|what|how many|could you|can you|please confirm|do you want|"
    r"should i|shall i|let me know)\b|"
    r"\bplease (attach|send|upload|provide|tell|specify|share|choose|name|give)\b|"
    r"请问|请确认|请(提供|上传|发送|告诉|说明|选择|指定)|是否|哪个|哪些|多少|吗[？?。]?\s*$",
    re.IGNORECASE | re.MULTILINE,
)


def call_key(name: str, arguments: JsonObject) -> str:
    return name + json.dumps(arguments, sort_keys=True, ensure_ascii=False)


def rejected(record: ToolCallRecord) -> bool:
    return record.is_error


def attempts(
    call: ToolCall, calls: Sequence[ToolCallRecord], *, by_server: bool = False
) -> list[ToolCallRecord]:
    """Earlier calls identical to `call` that were rejected (by the server only, or also by a
    guard's block)."""
    key = call_key(call.name, call.arguments)
    return [
        c
        for c in calls
        if rejected(c) and (c.executed or not by_server) and call_key(c.name, c.arguments) == key
    ]


def last_record_of(
    name: str, calls: Sequence[ToolCallRecord], *, executed: bool = False
) -> ToolCallRecord | None:
    return next(
        (c for c in reversed(calls) if c.name == name and (c.executed or not executed)), None
    )


def asks_user(text: str) -> bool:
    """A question or a request for input to the user (English or Chinese). The one rule the
    `stall` guard and the evaluation's scoring share."""
    return bool(_QUESTION.search(text.strip()))


def tool_results_so_far(state: GuardState) -> int:
    """Results of the run's tools; a look at the screenshot (`screen_view`) is no result that
    could justify a summary."""
    return sum(1 for m in state.messages if m.role == "tool" and m.name != VIEW_TOOL)


def guard_count(state: GuardState, guard: str, action: str) -> int:
    return sum(1 for e in state.events if e.guard == guard and e.action == action)
