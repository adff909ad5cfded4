"""The OpenAI-compatible adapter's error paths, through a mock transport: retries and
backoff, timeouts, bodies of any shape, an endpoint that rejects images."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from hypothesis import given, settings, strategies as st

from pipeline.errors import VlmError
from pipeline.models import Message
from pipeline.vlm.endpoint import ChatEndpoint
from pipeline.vlm.openai import OpenAIModel, parse_completion
from tests.vlm.chat_endpoint import SETTINGS, URL, ask, completion, mocked


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
        model = OpenAIModel("m", ChatEndpoint(client=client, base_url=URL, timeout_s=7.5))
        await ask(model)

    assert seen[0].extensions["timeout"] == {"connect": 7.5, "read": 7.5, "write": 7.5, "pool": 7.5}


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
