"""The OpenAI-compatible adapter: the wire format both ways against a real local server, the
error paths through a mock transport, and what the factory refuses."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from pipeline.errors import ConfigError, UnknownNameError, VlmError
from pipeline.models import Message, ModelSettings, ToolCall, ToolSpec
from pipeline.settings import Settings
from pipeline.vlm import MODELS, Model, ModelOptions, make_model, sees_images
from pipeline.vlm.openai import OpenAIModel, parse_completion
from pipeline.vlm.steps import Narrowing

PNG_URL = (
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwAB"
    "BAEAwS2OUAAAAABJRU5ErkJggg=="
)
SETTINGS = ModelSettings(max_tokens=256, temperature=0.0)


# ---- a local chat-completions endpoint


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class FakeEndpoint:
    """Records every request and answers from a queue of canned (status, body) replies."""

    base_url: str = ""
    received: list[Received] = field(default_factory=list)
    replies: deque[tuple[int, Any]] = field(default_factory=deque)

    def reply(self, body: Any, status: int = 200) -> None:
        self.replies.append((status, body))

    async def completions(self, request: Request) -> Response:
        self.received.append(
            Received(request.url.path, dict(request.headers), json.loads(await request.body()))
        )
        if not self.replies:
            return PlainTextResponse("no canned reply left", status_code=599)
        status, body = self.replies.popleft()
        return JSONResponse(body, status_code=status)

    async def health(self, request: Request) -> Response:
        return PlainTextResponse("ok")


@pytest.fixture(scope="module")
def server() -> Iterator[FakeEndpoint]:
    endpoint = FakeEndpoint()
    app = Starlette(
        routes=[
            Route("/v1/chat/completions", endpoint.completions, methods=["POST"]),
            Route("/health", endpoint.health),
        ]
    )
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", lifespan="off", access_log=False)
    uv = uvicorn.Server(config)
    thread = threading.Thread(target=uv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not uv.started:
            assert thread.is_alive(), "the test server thread died while starting"
            assert time.monotonic() < deadline, "the test server did not start within 10 s"
            # The socket already listens: this waits in the backlog until uvicorn serves it.
            try:
                httpx.get(f"http://127.0.0.1:{port}/health", timeout=1, trust_env=False)
            except httpx.TransportError:
                continue
        endpoint.base_url = f"http://127.0.0.1:{port}/v1"
        yield endpoint
    finally:
        uv.should_exit = True
        thread.join(timeout=10)
        sock.close()
        assert not thread.is_alive(), "the test server did not stop within 10 s"


@pytest.fixture
def endpoint(server: FakeEndpoint) -> Iterator[FakeEndpoint]:
    server.received.clear()
    server.replies.clear()
    yield server
    assert not server.replies, "a canned reply was never requested"


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(trust_env=False) as client:
        yield client


def local_model(
    endpoint: FakeEndpoint, http: httpx.AsyncClient, name: str = "qwen2.5-vl", **options: Any
) -> Model:
    return make_model(
        f"openai:{name}",
        ModelOptions(base_url=endpoint.base_url, allow_remote=False, http_client=http, **options),
    )


def completion(
    content: str | None = "done",
    *,
    tool_calls: list[Any] | None = None,
    finish_reason: str | None = "stop",
    usage: dict[str, int] | None = None,
    model: str = "qwen2.5-vl-7b-instruct",
) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls is not None:
        message["tool_calls"] = tool_calls
    body: dict[str, Any] = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
    }
    if usage is not None:
        body["usage"] = usage
    return body


def wire_call(call_id: str, name: str, arguments: Any) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


# ---- requests: what goes on the wire


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
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {
                        "name": "inventory_query_stock",
                        "arguments": '{"warehouse_id": "WH-01", "skus": ["SKU-10402"]}',
                    },
                }
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
    schema = {
        "type": "object",
        "properties": {"warehouse_id": {"type": "string"}, "skus": {"type": "array"}},
        "required": ["warehouse_id"],
    }
    tools = [
        ToolSpec(
            name="inventory_query_stock",
            description="Live stock in one warehouse.",
            input_schema=schema,
            group="inventory",
            read_only=True,
        ),
        ToolSpec(name="warehouses_list", group="warehouses"),
    ]

    await local_model(endpoint, http).request([Message(role="user", content="hi")], tools, SETTINGS)

    assert endpoint.received[0].body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "inventory_query_stock",
                "description": "Live stock in one warehouse.",
                "parameters": schema,
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

    await local_model(endpoint, http).request([Message(role="user", content="hi")], [], SETTINGS)

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

    await model.request([Message(role="user", content="hi")], [], SETTINGS)

    assert model.name == "openai:qwen2.5vl:7b"
    assert endpoint.received[0].body["model"] == "qwen2.5vl:7b"


async def test_a_trailing_slash_on_the_base_url_still_reaches_chat_completions(
    endpoint: FakeEndpoint, http: httpx.AsyncClient
) -> None:
    endpoint.reply(completion())
    options = ModelOptions(base_url=endpoint.base_url + "/", allow_remote=False, http_client=http)

    await make_model("openai:m", options).request(
        [Message(role="user", content="hi")], [], SETTINGS
    )

    assert endpoint.received[0].path == "/v1/chat/completions"


# ---- responses: what comes back


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

    response = await local_model(endpoint, http).request(
        [Message(role="user", content="hi")], [], SETTINGS
    )

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

    response = await local_model(endpoint, http).request(
        [Message(role="user", content="hi")], [], SETTINGS
    )

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

    response = await local_model(endpoint, http).request(
        [Message(role="user", content="hi")], [], SETTINGS
    )

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

    response = await local_model(endpoint, http).request(
        [Message(role="user", content="hi")], [], SETTINGS
    )

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

    response = await local_model(endpoint, http).request(
        [Message(role="user", content="hi")], [], SETTINGS
    )

    assert response.content == "Ordered 2 SKUs."


async def test_an_http_error_from_the_real_server_is_a_vlm_error_with_its_status(
    endpoint: FakeEndpoint, http: httpx.AsyncClient
) -> None:
    endpoint.reply({"error": {"message": "model 'nope' not found"}}, status=404)

    with pytest.raises(VlmError) as caught:
        await local_model(endpoint, http, name="nope").request(
            [Message(role="user", content="hi")], [], SETTINGS
        )

    assert caught.value.status == 404
    assert "model 'nope' not found" in caught.value.body
    assert endpoint.base_url in str(caught.value)


# ---- error paths through a mock transport


class Recorder:
    """Stands in for `asyncio.sleep`: keeps the delays, waits for nothing."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


URL = "http://127.0.0.1:8000/v1"


def mocked(
    replies: list[httpx.Response | Exception], *, retries: int = 2
) -> tuple[OpenAIModel, list[httpx.Request], Recorder]:
    """A model whose HTTP answers are `replies`, in order; the last one repeats."""
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        reply = replies[min(len(seen), len(replies) - 1)]
        seen.append(request)
        if isinstance(reply, Exception):
            raise reply
        return reply

    sleep = Recorder()
    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    # Without jitter, so the backoff schedule itself is what the tests read.
    model = OpenAIModel(
        "m", client=client, base_url=URL, retries=retries, sleep=sleep, retry_jitter_s=0
    )
    return model, seen, sleep


async def ask(model: OpenAIModel) -> Any:
    return await model.request([Message(role="user", content="hi")], [], SETTINGS)


async def test_a_refused_connection_is_a_vlm_error_naming_the_url_without_a_status() -> None:
    model, seen, sleep = mocked([httpx.ConnectError("[Errno 111] Connection refused")])

    with pytest.raises(VlmError) as caught:
        await ask(model)

    assert caught.value.status is None
    assert f"{URL}/chat/completions" in str(caught.value)
    assert "Connection refused" in str(caught.value)
    assert len(seen) == 3
    assert sleep.delays == [1.0, 2.0]


async def test_a_server_error_is_retried_and_the_next_answer_is_used() -> None:
    model, seen, sleep = mocked(
        [httpx.Response(500, text="internal error"), httpx.Response(200, json=completion("fine"))]
    )

    response = await ask(model)

    assert response.content == "fine"
    assert len(seen) == 2
    assert sleep.delays == [1.0]


async def test_a_bad_request_is_not_retried_and_keeps_the_status_and_body() -> None:
    body = '{"error": {"message": "image_url is not supported by this model"}}'
    model, seen, sleep = mocked([httpx.Response(400, text=body)])

    with pytest.raises(VlmError) as caught:
        await ask(model)

    assert caught.value.status == 400
    assert caught.value.body == body
    assert "HTTP 400" in str(caught.value)
    assert "image_url is not supported" in str(caught.value)
    assert len(seen) == 1
    assert sleep.delays == []


async def test_rate_limiting_that_outlasts_the_retries_is_a_vlm_error() -> None:
    model, seen, sleep = mocked([httpx.Response(429, text="slow down")], retries=2)

    with pytest.raises(VlmError) as caught:
        await ask(model)

    assert (caught.value.status, caught.value.body) == (429, "slow down")
    assert len(seen) == 3
    assert sleep.delays == [1.0, 2.0]


async def test_the_backoff_doubles_up_to_eight_seconds() -> None:
    model, seen, sleep = mocked([httpx.Response(503, text="busy")], retries=5)

    with pytest.raises(VlmError):
        await ask(model)

    assert sleep.delays == [1.0, 2.0, 4.0, 8.0, 8.0]
    assert len(seen) == 6


async def test_no_retries_means_one_attempt() -> None:
    model, seen, sleep = mocked([httpx.Response(502, text="bad gateway")], retries=0)

    with pytest.raises(VlmError) as caught:
        await ask(model)

    assert caught.value.status == 502
    assert (len(seen), sleep.delays) == (1, [])


async def test_a_body_that_is_not_json_is_a_vlm_error_with_the_body() -> None:
    model, seen, _ = mocked([httpx.Response(200, text="<html>proxy login</html>")])

    with pytest.raises(VlmError) as caught:
        await ask(model)

    assert "invalid JSON" in str(caught.value)
    assert (caught.value.status, caught.value.body) == (200, "<html>proxy login</html>")
    assert len(seen) == 1


async def test_a_json_body_that_is_not_an_object_is_a_vlm_error() -> None:
    model, _, _ = mocked([httpx.Response(200, json=["not", "an", "object"])])

    with pytest.raises(VlmError, match="non-object"):
        await ask(model)


@pytest.mark.parametrize(
    "body",
    [{"id": "x", "object": "chat.completion"}, {"choices": []}, {"choices": ["text"]}],
    ids=["missing", "empty", "not-objects"],
)
async def test_a_body_without_choices_is_a_vlm_error(body: dict[str, Any]) -> None:
    model, _, _ = mocked([httpx.Response(200, json=body)])

    with pytest.raises(VlmError, match="without choices") as caught:
        await ask(model)

    assert json.loads(caught.value.body) == body
    assert f"model endpoint {URL}/chat/completions answered" in str(caught.value)


async def test_a_choice_whose_message_is_not_an_object_is_a_vlm_error() -> None:
    body = {"choices": [{"message": "plain text", "finish_reason": "stop"}]}
    model, _, _ = mocked([httpx.Response(200, json=body)])

    with pytest.raises(VlmError, match="not an object"):
        await ask(model)


async def test_odd_shapes_inside_a_choice_do_not_crash_the_parser() -> None:
    body = completion(None, tool_calls=[{"id": "c1", "function": "warehouses_list"}, "junk"])
    body["usage"] = None
    model, _, _ = mocked([httpx.Response(200, json=body)])

    response = await ask(model)

    assert [(c.id, c.name) for c in response.tool_calls] == [("c1", "")]
    assert response.usage.prompt_tokens == 0


@pytest.mark.parametrize(
    "body",
    [
        {"choices": [{"message": {"tool_calls": 5}}]},
        {"choices": [{"message": {"tool_calls": "orders_list"}}]},
    ],
    ids=["number", "string"],
)
async def test_tool_calls_that_are_not_a_list_are_a_vlm_error_with_the_body(
    body: dict[str, Any],
) -> None:
    model, _, _ = mocked([httpx.Response(200, json=body)])

    with pytest.raises(VlmError, match="tool_calls that are not a list") as caught:
        await ask(model)

    assert json.loads(caught.value.body) == body


@pytest.mark.parametrize(
    ("usage", "expected"),
    [
        ({"prompt_tokens": "lots", "completion_tokens": [1]}, (0, 0)),
        ({"prompt_tokens": 1e400, "completion_tokens": -5}, (0, 0)),
        ({"prompt_tokens": "12", "completion_tokens": 3.0}, (12, 3)),
        ({"prompt_tokens": "²", "completion_tokens": True}, (0, 0)),
    ],
    ids=["words", "infinite-negative", "numeric-strings", "odd-digits"],
)
async def test_usage_that_is_no_count_reads_as_zero_tokens(
    usage: dict[str, Any], expected: tuple[int, int]
) -> None:
    body = completion("fine")
    body["usage"] = usage
    # As text: an infinite count is no strict JSON, but Python's parser reads `Infinity`.
    model, _, _ = mocked([httpx.Response(200, text=json.dumps(body))])

    response = await ask(model)

    assert (response.usage.prompt_tokens, response.usage.completion_tokens) == expected
    assert response.content == "fine"


async def test_content_parts_without_text_strings_are_skipped() -> None:
    body = completion(None)
    body["choices"][0]["message"]["content"] = [{"text": 5}, {"text": "ok"}, "junk", {"x": 1}]
    model, _, _ = mocked([httpx.Response(200, json=body)])

    assert (await ask(model)).content == "ok"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=12,
)


def _shaped(parts: dict[str, Any]) -> dict[str, Any]:
    return {
        "choices": [{"message": parts.get("message"), "finish_reason": parts.get("finish")}],
        **parts,
    }


COMPLETIONS = JSON | st.fixed_dictionaries(
    {},
    optional={
        "message": JSON
        | st.fixed_dictionaries(
            {},
            optional={
                "content": JSON,
                "tool_calls": JSON
                | st.lists(
                    st.fixed_dictionaries(
                        {},
                        optional={
                            "id": JSON,
                            "function": JSON
                            | st.fixed_dictionaries(
                                {}, optional={"name": JSON, "arguments": JSON | st.text()}
                            ),
                        },
                    ),
                    max_size=3,
                ),
            },
        ),
        "finish": JSON,
        "usage": JSON
        | st.fixed_dictionaries({}, optional={"prompt_tokens": JSON, "completion_tokens": JSON}),
        "model": JSON,
    },
).map(_shaped)


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(body=COMPLETIONS)
def test_any_json_body_is_a_response_or_a_vlm_error(body: Any) -> None:
    if not isinstance(body, dict):
        return  # the transport refuses a non-object before parsing (tested above)
    try:
        response = parse_completion(body, "m")
    except VlmError:
        return
    assert isinstance(response.content, str)
    assert response.usage.prompt_tokens >= 0 and response.usage.completion_tokens >= 0


async def test_a_timeout_is_retried_with_twice_the_time_then_a_vlm_error_says_how_long() -> None:
    model, seen, sleep = mocked([httpx.ReadTimeout("timed out")], retries=1)

    with pytest.raises(VlmError) as caught:
        await ask(model)

    assert caught.value.status is None
    assert "did not answer within 240 s" in str(caught.value)
    assert f"{URL}/chat/completions" in str(caught.value)
    assert isinstance(caught.value.__cause__, httpx.ReadTimeout)
    assert (len(seen), sleep.delays) == (2, [1.0])
    assert [r.extensions["timeout"]["read"] for r in seen] == [120, 240]


async def test_a_timeout_followed_by_an_answer_succeeds() -> None:
    model, seen, _ = mocked(
        [httpx.ReadTimeout("timed out"), httpx.Response(200, json=completion())]
    )

    response = await ask(model)

    assert response.content == "done"
    assert len(seen) == 2


async def test_the_configured_timeout_is_passed_on_each_request() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=completion())

    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as client:
        model = OpenAIModel("m", client=client, base_url=URL, timeout_s=7.5)
        await ask(model)

    assert seen[0].extensions["timeout"] == {"connect": 7.5, "read": 7.5, "write": 7.5, "pool": 7.5}


# ---- the factory


def no_requests(request: httpx.Request) -> httpx.Response:
    raise AssertionError(f"building a model must not make a request ({request.url})")


def options(**overrides: Any) -> ModelOptions:
    client = httpx.AsyncClient(transport=httpx.MockTransport(no_requests))
    return ModelOptions(**{"http_client": client, **overrides})


@pytest.mark.parametrize(
    "base_url", ["https://api.example.com/v1", "http://10.0.0.5:8000/v1", "http://0.0.0.0:11434/v1"]
)
def test_a_remote_endpoint_is_refused_when_remote_models_are_not_allowed(base_url: str) -> None:
    with pytest.raises(ConfigError, match="not allowed") as caught:
        make_model("openai:x", options(base_url=base_url, allow_remote=False))

    assert "local endpoint" in str(caught.value)


@pytest.mark.parametrize(
    "base_url",
    ["http://127.0.0.1:11434/v1", "http://localhost:8000/v1", "http://[::1]:8000/v1"],
)
def test_a_loopback_endpoint_is_allowed_when_remote_models_are_not(base_url: str) -> None:
    model = make_model("openai:x", options(base_url=base_url, allow_remote=False))

    assert model.name == "openai:x"


def test_a_remote_endpoint_is_accepted_when_remote_models_are_allowed() -> None:
    model = make_model(
        "openai:gpt-x", options(base_url="https://api.example.com/v1", allow_remote=True)
    )

    assert model.name == "openai:gpt-x"


def test_a_missing_base_url_says_how_to_give_one() -> None:
    with pytest.raises(ConfigError) as caught:
        make_model("openai:x", options(base_url=None))

    assert "--base-url" in str(caught.value)
    assert "STOCKSHOT_BASE_URL" in str(caught.value)


@pytest.mark.parametrize("spec", ["openai", "openai:"])
def test_a_missing_model_name_says_how_to_give_one(spec: str) -> None:
    with pytest.raises(ConfigError, match=r"--model openai:NAME"):
        make_model(spec, options(base_url=URL))


@pytest.mark.parametrize("base_url", ["ftp://127.0.0.1/v1", "127.0.0.1:8000/v1", "http:///v1"])
def test_a_base_url_that_is_not_http_is_refused(base_url: str) -> None:
    with pytest.raises(ConfigError, match="not an http"):
        make_model("openai:x", options(base_url=base_url))


def test_a_missing_http_client_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="HTTP client"):
        make_model("openai:x", ModelOptions(base_url=URL))


@pytest.mark.parametrize("spec", ["gpt4", "", "anthropic:claude", "OPENAI:x"])
def test_an_unknown_kind_lists_the_known_ones(spec: str) -> None:
    with pytest.raises(UnknownNameError) as caught:
        make_model(spec, options(base_url=URL))

    assert caught.value.known == ["openai", "rules", "scripted"]
    assert "openai, rules, scripted" in str(caught.value)
    assert caught.value.known == sorted(MODELS)


def test_every_registered_kind_builds_a_model(tmp_path: Path) -> None:
    script = tmp_path / "turns.json"
    script.write_text("[]", encoding="utf-8")
    arguments = {"rules": "", "openai": "m", "scripted": str(script)}

    names = [make_model(f"{kind}:{arguments[kind]}", options(base_url=URL)).name for kind in MODELS]

    assert names == ["rules", "openai:m", "scripted:turns.json"]


def test_only_an_openai_endpoint_sees_images_unless_settings_say_its_model_reads_text_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert sees_images("openai:qwen2-vl", options())
    assert not sees_images("openai:qwen2.5", options(images=False))
    assert not sees_images("rules", options()) and not sees_images("scripted:x.json", options())
    monkeypatch.setenv("STOCKSHOT_VLM_IMAGES", "false")
    client = httpx.AsyncClient(transport=httpx.MockTransport(no_requests))
    assert not ModelOptions.from_settings(Settings(), client).images


async def test_an_endpoint_that_rejects_images_gets_the_same_request_without_them_from_then_on() -> (
    None
):
    model, seen, _ = mocked(
        [
            httpx.Response(500, json={"error": "image input is not supported"}),
            httpx.Response(200, json=completion()),
            httpx.Response(200, json=completion()),
        ],
        retries=0,
    )
    screen = [Message(role="user", content="the screen", images=["data:image/png;base64,AAAA"])]

    first = await model.request(screen, [], SETTINGS)
    second = await model.request(screen, [], SETTINGS)

    assert (first.content, second.content) == ("done", "done")
    sent = [json.loads(r.content)["messages"][0]["content"] for r in seen]
    assert isinstance(sent[0], list) and sent[0][1]["type"] == "image_url"
    assert sent[1] == sent[2]
    assert sent[1].startswith("the screen") and "image is left out" in sent[1]


async def test_an_error_on_a_request_without_images_is_not_resent() -> None:
    model, seen, _ = mocked([httpx.Response(500, json={"error": "boom"})], retries=0)
    with pytest.raises(VlmError):
        await ask(model)
    assert len(seen) == 1


# ---- structured steps


STEP_TOOLS = [
    ToolSpec(
        name="inventory_query_stock",
        group="inventory",
        read_only=True,
        description="Live stock in one warehouse.",
        input_schema={
            "type": "object",
            "properties": {"warehouse_id": {"type": "string"}},
            "required": ["warehouse_id"],
        },
    )
]
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
