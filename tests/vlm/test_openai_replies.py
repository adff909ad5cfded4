"""The OpenAI-compatible adapter's replies, from a real local server: what comes back."""

from __future__ import annotations

import httpx
import pytest

from pipeline.errors import VlmError
from pipeline.models import Message
from tests.vlm.chat_endpoint import SETTINGS, FakeEndpoint, ask, completion, local_model, wire_call


async def test_tool_calls_with_json_string_arguments_are_parsed_into_objects(
    endpoint: FakeEndpoint, http: httpx.AsyncClient
) -> None:
    endpoint.reply(
        completion(
            None,
            tool_calls=[
                wire_call("call_a", "warehouses_list", "{}"),
                wire_call(
                    "call_b",
                    "orders_create_replenishment",
                    '{"sku": "SKU-10402", "warehouse_id": "WH-01", "quantity": 140}',
                ),
            ],
            finish_reason="tool_calls",
        )
    )

    response = await ask(local_model(endpoint, http))

    assert response.content == ""
    assert response.finish_reason == "tool_calls"
    assert [(c.id, c.name, c.arguments, c.raw_arguments) for c in response.tool_calls] == [
        ("call_a", "warehouses_list", {}, None),
        (
            "call_b",
            "orders_create_replenishment",
            {"sku": "SKU-10402", "warehouse_id": "WH-01", "quantity": 140},
            None,
        ),
    ]


async def test_tool_call_arguments_sent_as_an_object_are_taken_as_is(
    endpoint: FakeEndpoint, http: httpx.AsyncClient
) -> None:
    endpoint.reply(
        completion(
            "",
            tool_calls=[wire_call("c1", "inventory_get_item", {"sku": "SKU-1"})],
            finish_reason=None,
        )
    )

    response = await ask(local_model(endpoint, http))

    assert response.tool_calls[0].arguments == {"sku": "SKU-1"}
    assert response.finish_reason == "tool_calls"


@pytest.mark.parametrize(
    "arguments",
    ['{"sku": "SKU-10402", "quantity": 140', "sku=SKU-10402", '["SKU-10402"]'],
    ids=["cut-off", "not-json", "not-an-object"],
)
async def test_argument_text_that_is_not_a_json_object_is_kept_in_raw_arguments(
    endpoint: FakeEndpoint, http: httpx.AsyncClient, arguments: str
) -> None:
    endpoint.reply(
        completion(None, tool_calls=[wire_call("c1", "orders_create_replenishment", arguments)])
    )

    response = await ask(local_model(endpoint, http))

    (call,) = response.tool_calls
    assert (call.name, call.arguments, call.raw_arguments) == (
        "orders_create_replenishment",
        {},
        arguments,
    )


async def test_raw_arguments_go_back_to_the_endpoint_unchanged(
    endpoint: FakeEndpoint, http: httpx.AsyncClient
) -> None:
    broken = '{"sku": "SKU-10402", "quantity": 140'
    endpoint.reply(
        completion(None, tool_calls=[wire_call("c1", "orders_create_replenishment", broken)])
    )
    endpoint.reply(completion("ok"))
    model = local_model(endpoint, http)
    messages = [Message(role="user", content="hi")]

    first = await model.request(messages, [], SETTINGS)
    messages.append(Message(role="assistant", content=first.content, tool_calls=first.tool_calls))
    messages.append(Message(role="tool", content="arguments are not JSON", tool_call_id="c1"))
    await model.request(messages, [], SETTINGS)

    resent = endpoint.received[1].body["messages"][1]["tool_calls"][0]["function"]["arguments"]
    assert resent == broken


async def test_calls_without_ids_get_distinct_ones(
    endpoint: FakeEndpoint, http: httpx.AsyncClient
) -> None:
    endpoint.reply(
        completion(
            None,
            tool_calls=[
                {"type": "function", "function": {"name": "warehouses_list", "arguments": ""}},
                {"type": "function", "function": {"name": "orders_list", "arguments": None}},
            ],
        )
    )

    response = await ask(local_model(endpoint, http))

    assert [c.id for c in response.tool_calls] == ["call_0", "call_1"]
    assert all(c.arguments == {} and c.raw_arguments is None for c in response.tool_calls)


async def test_a_response_cut_at_the_token_limit_is_marked_truncated(
    endpoint: FakeEndpoint, http: httpx.AsyncClient
) -> None:
    endpoint.reply(completion("I will order SKU-104", finish_reason="length"))
    endpoint.reply(completion("All done.", finish_reason="stop"))
    model = local_model(endpoint, http)
    hello = [Message(role="user", content="hi")]

    cut = await model.request(hello, [], SETTINGS)
    whole = await model.request(hello, [], SETTINGS)

    assert (cut.finish_reason, cut.truncated, cut.content) == (
        "length",
        True,
        "I will order SKU-104",
    )
    assert (whole.finish_reason, whole.truncated) == ("stop", False)


async def test_usage_and_the_serving_model_name_are_read_from_the_response(
    endpoint: FakeEndpoint, http: httpx.AsyncClient
) -> None:
    endpoint.reply(
        completion(
            "hello", usage={"prompt_tokens": 1234, "completion_tokens": 56, "total_tokens": 1290}
        )
    )
    endpoint.reply(completion("hello"))
    model = local_model(endpoint, http)
    hello = [Message(role="user", content="hi")]

    counted = await model.request(hello, [], SETTINGS)
    uncounted = await model.request(hello, [], SETTINGS)

    assert (counted.usage.prompt_tokens, counted.usage.completion_tokens) == (1234, 56)
    assert counted.model == "qwen2.5-vl-7b-instruct"
    assert (uncounted.usage.prompt_tokens, uncounted.usage.completion_tokens) == (0, 0)


async def test_content_given_as_text_parts_is_joined(
    endpoint: FakeEndpoint, http: httpx.AsyncClient
) -> None:
    body = completion()
    body["choices"][0]["message"]["content"] = [
        {"type": "text", "text": "Ordered "},
        {"type": "text", "text": "2 SKUs."},
    ]
    endpoint.reply(body)

    response = await ask(local_model(endpoint, http))

    assert response.content == "Ordered 2 SKUs."


async def test_an_http_error_from_the_real_server_is_a_vlm_error_with_its_status(
    endpoint: FakeEndpoint, http: httpx.AsyncClient
) -> None:
    endpoint.reply({"error": {"message": "model 'nope' not found"}}, status=404)

    with pytest.raises(VlmError) as caught:
        await ask(local_model(endpoint, http, name="nope"))

    assert caught.value.status == 404
    assert "model 'nope' not found" in caught.value.body
    assert endpoint.base_url in str(caught.value)
