"""Build guard inputs the way the loop does, without running one."""

from datetime import UTC, datetime, timedelta
from typing import Any

from pipeline.contract import TaskContract
from pipeline.host.guards.base import GuardState, ScreenEvidence
from pipeline.host.record import GuardEvent, ToolCallRecord
from pipeline.models import Message, ModelResponse, ToolCall, ToolSpec

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)

TOOLS = {
    "warehouses_list": ToolSpec(
        name="warehouses_list",
        group="warehouses",
        read_only=True,
        input_schema={"type": "object", "properties": {}},
    ),
    "inventory_query_stock": ToolSpec(
        name="inventory_query_stock",
        group="inventory",
        read_only=True,
        input_schema={
            "type": "object",
            "properties": {
                "warehouse_id": {"type": "string"},
                "skus": {
                    "anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]
                },
            },
            "required": ["warehouse_id"],
        },
    ),
    "orders_create_replenishment": ToolSpec(
        name="orders_create_replenishment",
        group="orders",
        read_only=False,
        input_schema={
            "type": "object",
            "properties": {
                "sku": {"type": "string"},
                "warehouse_id": {"type": "string"},
                "quantity": {"type": "integer"},
                "observed_on_hand": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
                "observed_at": {
                    "anyOf": [{"type": "string", "format": "date-time"}, {"type": "null"}]
                },
            },
            "required": ["sku", "warehouse_id", "quantity"],
        },
    ),
    "orders_cancel": ToolSpec(
        name="orders_cancel",
        group="orders",
        read_only=False,
        input_schema={
            "type": "object",
            "properties": {"order_id": {"type": "string"}},
            "required": ["order_id"],
        },
    ),
    "orders_list": ToolSpec(
        name="orders_list",
        group="orders",
        read_only=True,
        input_schema={
            "type": "object",
            "properties": {
                "status": {
                    "anyOf": [{"enum": ["open", "cancelled"], "type": "string"}, {"type": "null"}]
                }
            },
        },
    ),
}


def call(name: str, **arguments: Any) -> ToolCall:
    return ToolCall(id="c", name=name, arguments=arguments)


def record(
    name: str,
    arguments: dict[str, Any],
    result: str = "{}",
    *,
    error: bool = False,
    executed: bool = True,
    structured: dict[str, Any] | None = None,
    hop: int = 1,
) -> ToolCallRecord:
    return ToolCallRecord(
        hop=hop,
        id="r",
        name=name,
        arguments=arguments,
        is_error=error,
        result=result,
        executed=executed,
        structured=structured,
    )


def state(
    *,
    calls: list[ToolCallRecord] | None = None,
    events: list[GuardEvent] | None = None,
    tool_results: int = 0,
    screens: list[ScreenEvidence] | None = None,
    max_tokens: int = 1024,
    contract: TaskContract | None = None,
) -> GuardState:
    messages = [Message(role="system", content="rules"), Message(role="user", content="task")]
    messages += [
        Message(role="tool", content="{}", tool_call_id=f"t{i}") for i in range(tool_results)
    ]
    return GuardState(
        hop=2,
        now=NOW,
        messages=messages,
        calls=calls or [],
        events=events or [],
        tools=TOOLS,
        screens=screens or [],
        max_tokens=max_tokens,
        freshness_limit_s=900,
        read_loop_limit=2,
        contract=contract,
    )


def screen(age: timedelta, *skus: str) -> ScreenEvidence:
    return ScreenEvidence("erp.png", NOW - age, frozenset(skus))


def reply(content: str = "", *calls: ToolCall, finish: str = "stop") -> ModelResponse:
    return ModelResponse(content=content, tool_calls=list(calls), finish_reason=finish)


def event(guard: str, action: str) -> GuardEvent:
    return GuardEvent(hop=1, guard=guard, action=action, message="")
