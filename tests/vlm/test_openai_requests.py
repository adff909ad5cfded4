"""The OpenAI-compatible adapter's requests, against a real local server: what goes on the
wire."""

from __future__ import annotations

import httpx

from pipeline.models import Message, ModelSettings, ToolCall, ToolSpec
from pipeline.vlm import ModelOptions, make_model
from tests.vlm.chat_endpoint import (
    PNG_URL,
    SETTINGS,
    FakeEndpoint,
    ask,
    completion,
    local_model,
    wire_call,
)
from tests.vlm.offered import query_stock


async def test_each_role_is_sent_in_the_chat_completions_wire_format(
    endpoint: FakeEndpoint, http: httpx.AsyncClient
) -> None:
    endpoint.reply(completion())
    messages = [
        Message(role="system", content="You raise replenishment orders."),
        Message(role="user", content="Restock what is low.", images=[PNG_URL]),
        Message(
            role="assistant",
            tool_calls=[
                ToolCall(
                    id="call_1",
                    name="inventory_query_stock",
                    arguments={"warehouse_id": "WH-01", "skus": ["SKU-10402"]},
                )
            ],
        ),
        Message(
            role="tool",
            content='{"warehouse_id": "WH-01", "items": []}',
            tool_call_id="call_1",
            name="inventory_query_stock",
        ),
        Message(role="assistant", content="Checked."),
    ]

    await local_model(endpoint, http).request(messages, [], SETTINGS)

    (request,) = endpoint.received
    assert request.path == "/v1/chat/completions"
    assert request.body["model"] == "qwen2.5-vl"
    assert request.body["messages"] == [
        {"role": "system", "content": "You raise replenishment orders."},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Restock what is low."},
                {"type": "image_url", "image_url": {"url": PNG_URL}},
            ],
        },
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                wire_call(
                    "call_1",
                    "inventory_query_stock",
                    '{"warehouse_id": "WH-01", "skus": ["SKU-10402"]}',
                )
            ],
        },
        {
            "role": "tool",
            "tool_call_id": "call_1",
            "content": '{"warehouse_id": "WH-01", "items": []}',
        },
        {"role": "assistant", "content": "Checked."},
    ]


async def test_an_assistant_turn_with_tool_calls_never_sends_null_content(
    endpoint: FakeEndpoint, http: httpx.AsyncClient
) -> None:
    endpoint.reply(completion())
    turn = Message(role="assistant", tool_calls=[ToolCall(id="c", name="warehouses_list")])

    await local_model(endpoint, http).request([turn], [], SETTINGS)

    (sent,) = endpoint.received[0].body["messages"]
    assert sent["content"] == ""
    assert sent["tool_calls"][0]["function"]["arguments"] == "{}"


async def test_images_are_sent_as_base64_data_urls_after_the_text(
    endpoint: FakeEndpoint, http: httpx.AsyncClient
) -> None:
    endpoint.reply(completion())
    second = "data:image/jpeg;base64,/9j/4AAQSkZJRg=="
    user = Message(role="user", content="Two screens.", images=[PNG_URL, second])

    await local_model(endpoint, http).request([user], [], SETTINGS)

    parts = endpoint.received[0].body["messages"][0]["content"]
    assert [p["type"] for p in parts] == ["text", "image_url", "image_url"]
    urls = [p["image_url"]["url"] for p in parts[1:]]
    assert urls == [PNG_URL, second]
    assert all(u.startswith("data:image/") and ";base64," in u for u in urls)


async def test_tool_schemas_are_sent_as_functions_with_their_input_schema(
    endpoint: FakeEndpoint, http: httpx.AsyncClient
) -> None:
    endpoint.reply(completion())
    query = query_stock(skus={"type": "array"})
    tools = [query, ToolSpec(name="warehouses_list", group="warehouses")]

    await local_model(endpoint, http).request([Message(role="user", content="hi")], tools, SETTINGS)

    assert endpoint.received[0].body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "inventory_query_stock",
                "description": "Live stock in one warehouse.",
                "parameters": query.input_schema,
            },
        },
        {
            "type": "function",
            "function": {
                "name": "warehouses_list",
                "description": "",
                "parameters": {"type": "object"},
            },
        },
    ]


async def test_settings_are_sent_as_max_tokens_temperature_and_seed(
    endpoint: FakeEndpoint, http: httpx.AsyncClient
) -> None:
    endpoint.reply(completion())
    settings = ModelSettings(max_tokens=700, temperature=0.3, seed=42)

    await local_model(endpoint, http).request([Message(role="user", content="hi")], [], settings)

    body = endpoint.received[0].body
    assert (body["max_tokens"], body["temperature"], body["seed"]) == (700, 0.3, 42)


async def test_no_seed_and_no_tools_means_neither_key_is_sent(
    endpoint: FakeEndpoint, http: httpx.AsyncClient
) -> None:
    endpoint.reply(completion())

    await ask(local_model(endpoint, http))

    assert set(endpoint.received[0].body) == {"model", "messages", "max_tokens", "temperature"}


async def test_an_api_key_is_sent_as_a_bearer_token(
    endpoint: FakeEndpoint, http: httpx.AsyncClient
) -> None:
    endpoint.reply(completion())
    endpoint.reply(completion())
    hello = [Message(role="user", content="hi")]

    await local_model(endpoint, http, api_key="sk-local-123").request(hello, [], SETTINGS)
    await local_model(endpoint, http).request(hello, [], SETTINGS)

    with_key, without_key = endpoint.received
    assert with_key.headers["authorization"] == "Bearer sk-local-123"
    assert "authorization" not in without_key.headers


async def test_a_model_name_with_a_colon_is_sent_whole(
    endpoint: FakeEndpoint, http: httpx.AsyncClient
) -> None:
    endpoint.reply(completion())
    model = local_model(endpoint, http, name="qwen2.5vl:7b")

    await ask(model)

    assert model.name == "openai:qwen2.5vl:7b"
    assert endpoint.received[0].body["model"] == "qwen2.5vl:7b"


async def test_a_trailing_slash_on_the_base_url_still_reaches_chat_completions(
    endpoint: FakeEndpoint, http: httpx.AsyncClient
) -> None:
    endpoint.reply(completion())
    options = ModelOptions(base_url=endpoint.base_url + "/", allow_remote=False, http_client=http)

    await ask(make_model("openai:m", options))

    assert endpoint.received[0].path == "/v1/chat/completions"
