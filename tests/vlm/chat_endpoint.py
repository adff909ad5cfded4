"""A local chat-completions endpoint that records requests and answers canned replies, and
a mock transport for the error paths: what the OpenAI-compatible adapter's tests talk to."""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import httpx
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from pipeline.models import Message, ModelResponse, ModelSettings
from pipeline.vlm import Model, ModelOptions, make_model
from pipeline.vlm.endpoint import ChatEndpoint
from pipeline.vlm.openai import OpenAIModel

PNG_URL = (
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwAB"
    "BAEAwS2OUAAAAABJRU5ErkJggg=="
)
SETTINGS = ModelSettings(max_tokens=256, temperature=0.0)


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
        "m", ChatEndpoint(client=client, base_url=URL, retries=retries, sleep=sleep, jitter_s=0)
    )
    return model, seen, sleep


async def ask(model: Model) -> ModelResponse:
    """The model's reply to a bare "hi", offered no tools."""
    return await model.request([Message(role="user", content="hi")], [], SETTINGS)
