"""Build guard inputs the way the loop does, without running one."""

from datetime import UTC, datetime, timedelta
from typing import Any

from pipeline.contract import TaskContract
from pipeline.host.guards.base import GuardState, ScreenEvidence
from pipeline.host.record import GuardEvent, ToolCallRecord
from pipeline.models import Message, ModelResponse, ToolCall, ToolSpec

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def _tool(
    name: str, properties: dict[str, Any], *required: str, read_only: bool = False
) -> tuple[str, ToolSpec]:
    """A tool as its server lists it, keyed by its name (whose first word is its group)."""
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    spec = ToolSpec(name=name, group=name.split("_")[0], read_only=read_only, input_schema=schema)
    return name, spec


_STRINGS_OR_NULL = {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]}
TOOLS = dict(
    [
        _tool("warehouses_list", {}, read_only=True),
        _tool(
            "inventory_query_stock",
            {"warehouse_id": {"type": "string"}, "skus": _STRINGS_OR_NULL},
            "warehouse_id",
            read_only=True,
        ),
        _tool(
            "orders_create_replenishment",
            {
                "sku": {"type": "string"},
                "warehouse_id": {"type": "string"},
                "quantity": {"type": "integer"},
                "observed_on_hand": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
                "observed_at": {
                    "anyOf": [{"type": "string", "format": "date-time"}, {"type": "null"}]
                },
            },
            "sku",
            "warehouse_id",
            "quantity",
        ),
        _tool("orders_cancel", {"order_id": {"type": "string"}}, "order_id"),
        _tool(
            "orders_list",
            {
                "status": {
                    "anyOf": [{"enum": ["open", "cancelled"], "type": "string"}, {"type": "null"}]
                }
            },
            read_only=True,
        ),
    ]
)


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
