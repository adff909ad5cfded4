"""Any OpenAI-compatible chat-completions endpoint (Ollama, vLLM, LM Studio, llama.cpp server).

The adapter part (the wire format both ways, schema steps, images) is here; the provider part
(URL, key, retries, HTTP errors) is `pipeline.vlm.endpoint`. The host only sees `request()`.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import re
from collections.abc import Callable, Sequence

from pipeline.errors import VlmError
from pipeline.models import (
    JsonObject,
    JsonValue,
    Message,
    ModelResponse,
    ModelSettings,
    ToolCall,
    ToolSpec,
    Usage,
)
from pipeline.vlm.endpoint import ChatEndpoint
from pipeline.vlm.step_reply import history, parse_step, salvage_cut_text
from pipeline.vlm.steps import Narrowing, step_schema

__all__ = ["SCHEMA_WIRES", "STEP_MODES", "OpenAIModel", "to_wire_messages", "to_wire_tools"]

STEP_MODES = ("native", "schema", "auto")
SCHEMA_WIRES = ("json_schema", "json_object")
_CALL_IN_TEXT = re.compile(
    r"\{\s*\"(?:name|tool|function)\"|```|<tool_call>|<\|tool_call\|>|\[TOOL_CALLS\]|<function="
)

log = logging.getLogger(__name__)


def to_wire_messages(messages: Sequence[Message]) -> list[JsonValue]:
    wire: list[JsonValue] = []
    for message in messages:
        if message.role == "tool":
            wire.append(
                {"role": "tool", "tool_call_id": message.tool_call_id, "content": message.content}
            )
        elif message.role == "assistant":
            # Some servers reject `content: null` beside tool calls; an empty string is accepted
            # by every implementation.
            item: JsonObject = {"role": "assistant", "content": message.content or ""}
            if message.tool_calls:
                item["tool_calls"] = [
                    {
                        "id": call.id,
                        "type": "function",
                        "function": {
                            "name": call.name,
                            "arguments": call.raw_arguments
                            if call.raw_arguments is not None
                            else json.dumps(call.arguments, ensure_ascii=False),
                        },
                    }
                    for call in message.tool_calls
                ]
            wire.append(item)
        elif message.images:
            parts: list[JsonValue] = [{"type": "text", "text": message.content}]
            parts += [{"type": "image_url", "image_url": {"url": url}} for url in message.images]
            wire.append({"role": message.role, "content": parts})
        else:
            wire.append({"role": message.role, "content": message.content})
    return wire


def to_wire_tools(tools: Sequence[ToolSpec]) -> list[JsonValue]:
    return [
        {
            "type": "function",
            "function": {
                "name": tool.name,
                "description": tool.description,
                "parameters": tool.input_schema,
            },
        }
        for tool in tools
    ]


def _without_images(messages: Sequence[Message]) -> list[Message]:
    return [
        m.model_copy(
            update={
                "images": [],
                "content": m.content + "\n(The screenshot image is left out: this endpoint does "
                "not take images.)",
            }
        )
        if m.images
        else m
        for m in messages
    ]


def _parse_call(raw: JsonObject, index: int) -> ToolCall:
    function = raw.get("function")
    if not isinstance(function, dict):
        function = {}
    arguments = function.get("arguments")
    parsed: JsonObject = {}
    raw_text: str | None = None
    if isinstance(arguments, dict):
        parsed = arguments
    elif isinstance(arguments, str) and arguments.strip():
        try:
            value = json.loads(arguments)
        except (ValueError, RecursionError):
            raw_text = arguments
        else:
            if isinstance(value, dict):
                parsed = value
            else:
                raw_text = arguments
    return ToolCall(
        id=str(raw.get("id") or f"call_{index}"),
        name=str(function.get("name") or ""),
        arguments=parsed,
        raw_arguments=raw_text,
    )


def parse_completion(
    body: JsonObject, model: str, *, endpoint: str = "model endpoint"
) -> ModelResponse:
    """The first choice of a chat completion; a body no reading can use is a `VlmError`.

    Servers differ in what they leave out, so odd but harmless shapes are read leniently
    (usage that is no count is 0, a content part without text is empty); a body whose
    choices, message or tool calls have the wrong shape is the endpoint's failure."""
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise VlmError(f"{endpoint} answered without choices", body=_dumped(body))
    choice = choices[0]
    message = choice.get("message") or {}
    if not isinstance(message, dict):
        raise VlmError(
            f"{endpoint} answered with a message that is not an object", body=_dumped(body)
        )
    raw_calls = message.get("tool_calls") or []
    if not isinstance(raw_calls, list):
        raise VlmError(
            f"{endpoint} answered with tool_calls that are not a list", body=_dumped(body)
        )
    calls = [_parse_call(raw, k) for k, raw in enumerate(raw_calls) if isinstance(raw, dict)]
    usage = body.get("usage")
    if not isinstance(usage, dict):
        usage = {}
    details = usage.get("prompt_tokens_details")
    cached = details.get("cached_tokens") if isinstance(details, dict) else None
    return ModelResponse(
        content=_text(message.get("content")),
        tool_calls=calls,
        finish_reason=str(choice.get("finish_reason") or ("tool_calls" if calls else "stop")),
        usage=Usage(
            prompt_tokens=_count(usage.get("prompt_tokens")),
            completion_tokens=_count(usage.get("completion_tokens")),
            cached_tokens=_count(cached),
        ),
        model=str(body.get("model") or model),
    )


def _dumped(body: JsonObject) -> str:
    return json.dumps(body, ensure_ascii=False, default=str)[:2000]


def _text(content: JsonValue) -> str:
    """Message content: a string, or a list of parts whose text strings are joined."""
    if isinstance(content, list):
        return "".join(
            text for p in content if isinstance(p, dict) and isinstance(text := p.get("text"), str)
        )
    return str(content or "")


def _count(value: JsonValue) -> int:
    """A token count as servers send it (int, float, numeric string); anything else is 0."""
    if isinstance(value, bool):
        return 0
    if isinstance(value, str):
        value = value.strip()
        return int(value) if value.isascii() and value.isdigit() else 0
    if isinstance(value, int | float) and math.isfinite(value) and value >= 0:
        return int(value)
    return 0


def _conversation(messages: Sequence[Message]) -> str:
    """A run's identity as the adapter sees it: its system prompt and opening message."""
    head = "\n\x00".join(m.content for m in messages[:2])
    return hashlib.sha256(head.encode("utf-8")).hexdigest()


def _prose_instead_of_a_call(response: ModelResponse) -> str | None:
    if response.tool_calls:
        return None
    if response.truncated:
        return "the reply ran to the token limit without a tool call"
    if _CALL_IN_TEXT.search(response.content):
        return "the reply wrote a tool call in its text instead of calling the tool"
    return None


def _envelope(wire: str, schema: JsonObject, name: str = "step") -> JsonObject:
    """A schema as the endpoint takes it (`STOCKSHOT_VLM_SCHEMA_WIRE`). Never sent beside
    `tools`."""
    if wire == "json_object":
        return {"type": "json_object", "schema": schema}
    return {
        "type": "json_schema",
        "json_schema": {"name": name, "schema": schema, "strict": True},
    }


class OpenAIModel:
    def __init__(
        self,
        model: str,
        endpoint: ChatEndpoint,
        *,
        steps: str = "native",
        schema_wire: str = "json_schema",
        step_max_tokens: int = 256,
        narrowing: Narrowing | None = None,
        max_quantity: int = 10_000,
    ) -> None:
        self.name = f"openai:{model}"
        self.model = model
        self._endpoint = endpoint
        self._url = endpoint.url
        self._images_ok = True
        if steps not in STEP_MODES or schema_wire not in SCHEMA_WIRES:
            raise ValueError(f"steps {steps!r} / schema wire {schema_wire!r} unknown")
        self._steps = steps
        self._wire = schema_wire
        self._step_max_tokens = step_max_tokens
        self._narrowing = narrowing or Narrowing()
        self._max_quantity = max_quantity
        self._switched: set[str] = set()
        self._budgets: dict[str, int] = {}
        self._steps_made = 0

    async def request(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec], settings: ModelSettings
    ) -> ModelResponse:
        """One model turn: native tool calls, or one schema step (see `pipeline.vlm.steps`).
        `auto` starts native and, for the rest of that conversation, switches to schema steps
        the first time the model answers with a call written in its text, or rambles to the
        token limit, instead of calling a tool."""
        run = _conversation(messages)
        if not tools or self._steps == "native":
            return await self._native(messages, tools, settings)
        if self._steps == "schema" or run in self._switched:
            return await self._schema(messages, tools, settings, run)
        response = await self._native(messages, tools, settings)
        why = _prose_instead_of_a_call(response)
        if why is None:
            return response
        self._switched.add(run)
        log.info("switching to schema steps for the rest of the run: %s", why)
        step = await self._schema(messages, tools, settings, run)
        usage = Usage(
            prompt_tokens=response.usage.prompt_tokens + step.usage.prompt_tokens,
            completion_tokens=response.usage.completion_tokens + step.usage.completion_tokens,
            cached_tokens=response.usage.cached_tokens + step.usage.cached_tokens,
        )
        return step.model_copy(update={"usage": usage, "note": f"switched to schema steps: {why}"})

    async def answer_schema(
        self,
        messages: Sequence[Message],
        schema: JsonObject,
        settings: ModelSettings,
        *,
        name: str,
    ) -> ModelResponse:
        """One completion constrained to `schema` (both wire formats of
        `STOCKSHOT_VLM_SCHEMA_WIRE`); its content is the JSON text, unchecked."""
        payload = self._payload(
            to_wire_messages(messages),
            settings.max_tokens,
            settings,
            response_format=_envelope(self._wire, schema, name),
        )
        reply = await self._complete(payload, messages, list)
        return reply.model_copy(update={"steps": "schema"})

    async def _schema(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
        settings: ModelSettings,
        run: str,
    ) -> ModelResponse:
        schema = step_schema(
            tools, messages, narrowing=self._narrowing, max_quantity=self._max_quantity
        )
        budget = self._budgets.get(run, self._step_max_tokens)
        payload = self._payload(
            to_wire_messages(history(messages, tools)),
            budget,
            settings,
            response_format=_envelope(self._wire, schema),
        )
        reply = await self._complete(payload, messages, lambda m: history(m, tools))
        self._steps_made += 1
        if reply.truncated:
            cut = salvage_cut_text(reply.content)
            if cut is not None:
                # An answer that ran past the step budget: what it said so far is the answer
                # (the ledger summary after it is the host's anyway); more room only buys
                # more rambling.
                kind = "question" if cut.asks else "final answer"
                return _stepped(
                    cut,
                    reply,
                    valid=False,
                    note=f"a {kind} cut at the step budget of {budget} tokens, kept as written "
                    "so far",
                )
            # A cut call runs nothing (the truncation guard); the next step gets twice the room.
            self._budgets[run] = min(budget * 2, max(settings.max_tokens, budget * 2))
            return reply.model_copy(update={"steps": "schema", "schema_valid": False})
        step, valid = parse_step(reply.content, schema, tools, f"step_{self._steps_made}")
        return _stepped(step, reply, valid=valid)

    async def _native(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec], settings: ModelSettings
    ) -> ModelResponse:
        payload = self._payload(to_wire_messages(messages), settings.max_tokens, settings)
        if tools:
            payload["tools"] = to_wire_tools(tools)
        reply = await self._complete(payload, messages, list)
        return reply.model_copy(update={"steps": "native"}) if tools else reply

    def _payload(
        self,
        messages: list[JsonValue],
        max_tokens: int,
        settings: ModelSettings,
        **extra: JsonValue,
    ) -> JsonObject:
        """A chat-completions body: the model, the wire `messages`, the token budget, the
        temperature, then `extra` (a response format) and the seed where one is set."""
        payload: JsonObject = {
            "model": self.model,
            "messages": messages,
            "max_tokens": max_tokens,
            "temperature": settings.temperature,
            **extra,
        }
        if settings.seed is not None:
            payload["seed"] = settings.seed
        return payload

    async def _complete(
        self,
        payload: JsonObject,
        messages: Sequence[Message],
        shape: Callable[[Sequence[Message]], list[Message]],
    ) -> ModelResponse:
        """Send `payload` (`_send`) and read the completion that comes back."""
        body = await self._send(payload, messages, shape)
        return parse_completion(body, self.model, endpoint=f"model endpoint {self._url}")

    async def _send(
        self,
        payload: JsonObject,
        messages: Sequence[Message],
        shape: Callable[[Sequence[Message]], list[Message]],
    ) -> JsonObject:
        """Post the payload; an endpoint that rejects image parts gets it again without them
        (and no images from then on)."""
        has_images = any(m.images for m in messages)
        if has_images and not self._images_ok:
            payload["messages"] = to_wire_messages(shape(_without_images(messages)))
        try:
            return await self._post(payload)
        except VlmError as exc:
            if not (has_images and self._images_ok and exc.status is not None):
                raise
            # An endpoint serving a text-only model fails on image parts; the text still says
            # what the screen showed, so the same request goes again without them.
            log.warning("%s; resending without images", exc)
            self._images_ok = False
            payload["messages"] = to_wire_messages(shape(_without_images(messages)))
            return await self._post(payload)

    async def _post(self, payload: JsonObject) -> JsonObject:
        return await self._endpoint.post(payload)


def _stepped(
    answer: ModelResponse, reply: ModelResponse, *, valid: bool, **more: str
) -> ModelResponse:
    """`answer`, read from the schema step's `reply`, with the reply's usage and model."""
    update = {"usage": reply.usage, "model": reply.model, "steps": "schema", "schema_valid": valid}
    return answer.model_copy(update={**update, **more})
