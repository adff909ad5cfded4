"""The OpenAI-compatible adapter's structured steps: the schema in the wire format asked,
budgets, servers that ignore the schema, and the switch to steps on prose calls."""

from __future__ import annotations

import httpx
import pytest

from pipeline.models import Message, ModelSettings
from pipeline.vlm.steps import Narrowing
from tests.vlm.chat_endpoint import SETTINGS, FakeEndpoint, completion, local_model, wire_call
from tests.vlm.offered import query_stock

STEP_TOOLS = [query_stock()]
STEP_MESSAGES = [
    Message(role="system", content="You are stockshot."),
    Message(role="user", content="Task: which SKUs are low in WH-01?"),
]
LOOSE = Narrowing(
    writes_after_read=False, id_enums=False, quantity_bounds=False, needed_reads=False
)
"""The wire tests need no screen: every offered tool stays in the schema as it is."""


@pytest.mark.parametrize("wire", ["json_schema", "json_object"])
async def test_a_schema_step_carries_the_schema_in_the_wire_format_asked_and_no_tools(
    endpoint: FakeEndpoint, http: httpx.AsyncClient, wire: str
) -> None:
    endpoint.reply(
        completion('{"tool": "inventory_query_stock", "arguments": {"warehouse_id": "WH-01"}}')
    )
    model = local_model(
        endpoint, http, steps="schema", schema_wire=wire, step_max_tokens=64, narrowing=LOOSE
    )

    response = await model.request(STEP_MESSAGES, STEP_TOOLS, SETTINGS)

    (request,) = endpoint.received
    assert "tools" not in request.body
    assert request.body["max_tokens"] == 64
    envelope = request.body["response_format"]
    schema = envelope["json_schema"]["schema"] if wire == "json_schema" else envelope["schema"]
    assert envelope["type"] == wire
    assert {o["properties"].get("tool", {}).get("const") for o in schema["oneOf"]} >= {
        "inventory_query_stock"
    }
    system = request.body["messages"][0]["content"]
    assert "## Tools\n- inventory_query_stock(warehouse_id: string)" in system
    assert "Reply with exactly one JSON object" in system
    assert [(c.name, c.arguments) for c in response.tool_calls] == [
        ("inventory_query_stock", {"warehouse_id": "WH-01"})
    ]
    assert (response.steps, response.schema_valid) == ("schema", True)


async def test_a_final_answer_cut_at_the_step_budget_is_kept_and_a_cut_call_runs_nothing(
    endpoint: FakeEndpoint, http: httpx.AsyncClient
) -> None:
    endpoint.reply(
        completion('{"final": "SKU-10232 is low (38 < 120), and SKU-10318', finish_reason="length")
    )
    endpoint.reply(
        completion('{"tool": "inventory_query_stock", "arguments": {"ware', finish_reason="length")
    )
    model = local_model(endpoint, http, steps="schema", step_max_tokens=64, narrowing=LOOSE)

    answer = await model.request(STEP_MESSAGES, STEP_TOOLS, SETTINGS)
    call = await model.request(STEP_MESSAGES, STEP_TOOLS, SETTINGS)

    assert (answer.content, answer.finish_reason) == (
        "SKU-10232 is low (38 < 120), and SKU-10318 …",
        "stop",
    )
    assert answer.note is not None and "cut at the step budget of 64 tokens" in answer.note
    assert (call.truncated, call.tool_calls) == (True, [])
    assert [r.body["max_tokens"] for r in endpoint.received] == [64, 64]


async def test_a_server_that_ignores_the_schema_is_counted_and_its_reply_still_read(
    endpoint: FakeEndpoint, http: httpx.AsyncClient
) -> None:
    endpoint.reply(completion("Sure! Let me look at WH-01 for you."))
    endpoint.reply(
        completion(
            '```json\n{"tool": "inventory_query_stock", "arguments": {"warehouse_id": 7}}\n```'
        )
    )
    model = local_model(endpoint, http, steps="schema", narrowing=LOOSE)

    prose = await model.request(STEP_MESSAGES, STEP_TOOLS, SETTINGS)
    typed_wrong = await model.request(STEP_MESSAGES, STEP_TOOLS, SETTINGS)

    assert (prose.schema_valid, prose.content) == (False, "Sure! Let me look at WH-01 for you.")
    assert typed_wrong.schema_valid is False
    assert typed_wrong.tool_calls[0].arguments == {"warehouse_id": 7}


async def test_auto_switches_to_schema_steps_when_the_model_writes_its_call_in_prose(
    endpoint: FakeEndpoint, http: httpx.AsyncClient
) -> None:
    endpoint.reply(completion('```json\n{"name": "inventory_query_stock"}\n```'))
    endpoint.reply(
        completion('{"tool": "inventory_query_stock", "arguments": {"warehouse_id": "WH-01"}}')
    )
    endpoint.reply(completion('{"final": "SKU-10232 is low."}'))
    model = local_model(endpoint, http, steps="auto", narrowing=LOOSE)

    first = await model.request(STEP_MESSAGES, STEP_TOOLS, SETTINGS)
    second = await model.request(STEP_MESSAGES, STEP_TOOLS, SETTINGS)

    native, switched, after = endpoint.received
    assert "tools" in native.body and "response_format" not in native.body
    assert "tools" not in switched.body and "response_format" in switched.body
    assert "tools" not in after.body
    assert first.note.startswith("switched to schema steps: the reply wrote a tool call")
    assert [c.name for c in first.tool_calls] == ["inventory_query_stock"]
    assert second.content == "SKU-10232 is low." and second.steps == "schema"


async def test_auto_keeps_native_calls_for_a_model_that_makes_them(
    endpoint: FakeEndpoint, http: httpx.AsyncClient
) -> None:
    endpoint.reply(
        completion(None, tool_calls=[wire_call("c1", "inventory_query_stock", '{"warehouse_id": "WH-01"}')],
                   finish_reason="tool_calls")
    )  # fmt: skip
    response = await local_model(endpoint, http, steps="auto").request(
        STEP_MESSAGES, STEP_TOOLS, SETTINGS
    )
    assert response.steps == "native" and response.tool_calls[0].name == "inventory_query_stock"
    assert "response_format" not in endpoint.received[0].body


async def test_cached_prompt_tokens_are_read_where_the_server_reports_them(
    endpoint: FakeEndpoint, http: httpx.AsyncClient
) -> None:
    body = completion(usage={"prompt_tokens": 900, "completion_tokens": 12})
    body["usage"]["prompt_tokens_details"] = {"cached_tokens": 850}
    endpoint.reply(body)
    response = await local_model(endpoint, http).request(STEP_MESSAGES, [], SETTINGS)
    assert (response.usage.prompt_tokens, response.usage.cached_tokens) == (900, 850)


@pytest.mark.parametrize("wire", ["json_schema", "json_object"])
async def test_the_task_reading_asks_one_schema_constrained_answer_in_the_wire_format_asked(
    endpoint: FakeEndpoint, http: httpx.AsyncClient, wire: str
) -> None:
    from pipeline.host.reading import CONTRACT_SCHEMA, contract_prompt
    from pipeline.vlm import SchemaAnswerer

    endpoint.reply(completion('{"action": "report"}'))
    model = local_model(endpoint, http, schema_wire=wire)
    assert isinstance(model, SchemaAnswerer)

    response = await model.answer_schema(
        contract_prompt("replenish the low items", {"North hub": "WH-02"}),
        CONTRACT_SCHEMA,
        ModelSettings(max_tokens=384),
        name="task_contract",
    )

    (request,) = endpoint.received
    assert "tools" not in request.body
    envelope = request.body["response_format"]
    assert envelope["type"] == wire
    if wire == "json_schema":
        assert envelope["json_schema"]["name"] == "task_contract"
        assert envelope["json_schema"]["schema"] == CONTRACT_SCHEMA
    else:
        assert envelope["schema"] == CONTRACT_SCHEMA
    assert request.body["messages"][-1] == {"role": "user", "content": "replenish the low items"}
    assert "WH-02: North hub" in request.body["messages"][0]["content"]
    assert response.content == '{"action": "report"}'
