"""What the fault replay reads from the conversation, as a model would: the task's language,
whether feedback came back, which calls failed, the reads just made, and the orders a model
that skips the live read would work out from the screenshot."""

from __future__ import annotations

import json
from collections.abc import Sequence

from pipeline.evals.faults.kinds import WRITE
from pipeline.models import JsonObject, Message, ModelResponse, ToolCall, ToolSpec
from pipeline.screentext import screens_in

__all__ = [
    "blocked_by_contract",
    "failed",
    "feedback",
    "language",
    "previous_reads",
    "screen_orders",
    "short",
    "signature",
    "signature_of",
    "with_calls",
]


def language(messages: Sequence[Message]) -> str:
    task = next((m.content for m in messages if m.role == "user"), "").split("\n", 1)[0]
    return "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in task) else "en"


def signature(response: ModelResponse) -> str:
    return signature_of(response.tool_calls)


def signature_of(calls: Sequence[ToolCall]) -> str:
    return json.dumps([[c.name, c.arguments] for c in calls], sort_keys=True, ensure_ascii=False)


def with_calls(calls: Sequence[ToolCall]) -> ModelResponse:
    return ModelResponse(tool_calls=list(calls), finish_reason="tool_calls")


def short(call: ToolCall) -> str:
    text = json.dumps(call.arguments, ensure_ascii=False, sort_keys=True)
    return f"{call.name} {text if len(text) <= 120 else text[:117] + '...'}"


def feedback(messages: Sequence[Message]) -> bool:
    """Whether what came back since the last reply says something went wrong."""
    last = max((i for i, m in enumerate(messages) if m.role == "assistant"), default=None)
    if last is None:
        return False
    after = messages[last + 1 :]
    return any((m.role == "tool" and m.is_error) or m.role == "user" for m in after)


def blocked_by_contract(messages: Sequence[Message]) -> bool:
    """Whether a result since the last reply is a block that cites the task contract."""
    last = max((i for i, m in enumerate(messages) if m.role == "assistant"), default=-1)
    return any(
        m.role == "tool" and m.is_error and "task contract" in m.content
        for m in messages[last + 1 :]
    )


def failed(call_id: str, messages: Sequence[Message]) -> bool:
    results = [m for m in messages if m.role == "tool" and m.tool_call_id == call_id]
    return not results or any(m.is_error for m in results)


def previous_reads(view: Sequence[Message], tools: Sequence[ToolSpec]) -> list[ToolCall]:
    """The calls of the last reply in `view`, if all were reads and all succeeded."""
    last = next((m for m in reversed(view) if m.role == "assistant"), None)
    if last is None or not last.tool_calls:
        return []
    read_only = {t.name for t in tools if t.read_only} if tools else None
    if read_only is not None and any(c.name not in read_only for c in last.tool_calls):
        return []
    if any(c.name == WRITE or c.name == "orders_cancel" for c in last.tool_calls):
        return []
    results = {m.tool_call_id: m for m in view if m.role == "tool"}
    if any(c.id not in results or results[c.id].is_error for c in last.tool_calls):
        return []
    return list(last.tool_calls)


def screen_orders(view: Sequence[Message]) -> list[ToolCall]:
    """Orders worked out from the screenshot alone, as a model that skips the live read would:
    its own quantities from the screen's numbers (twice the reorder point less the on hand it
    shows)."""
    calls: list[ToolCall] = []
    seen: set[tuple[str, str]] = set()
    for screen in screens_in(view):
        stamp = screen.captured_at.isoformat(timespec="seconds")
        for row in screen.rows:
            if not row.low or row.sku is None or row.warehouse_id is None or row.on_hand is None:
                continue
            if row.reorder_point is None or (row.sku, row.warehouse_id) in seen:
                continue
            seen.add((row.sku, row.warehouse_id))
            arguments: JsonObject = {
                "sku": row.sku,
                "warehouse_id": row.warehouse_id,
                "quantity": max(1, 2 * row.reorder_point - row.on_hand),
                "observed_on_hand": row.on_hand,
                "idempotency_key": f"replenish-{row.sku}-{row.warehouse_id}-{stamp}",
                "observed_at": stamp,
            }
            calls.append(ToolCall(id="screen", name=WRITE, arguments=arguments))
    return calls
