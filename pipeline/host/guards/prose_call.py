"""`prose_call`: a tool call left in the text instead of the API's tool-call field.

Local runtimes often fail to parse a model's call and hand it back as prose. The call is
recovered from the dialects they leave behind: Hermes/Qwen `<tool_call>{...}</tool_call>`,
Gemma `<|tool_call|>call:name{...}`, Mistral `[TOOL_CALLS][...]` and `[TOOL_CALLS]name[ARGS]{...}`,
Llama `<function=name>{...}</function>` and `<|python_tag|>{...}`, XML parameters
`<function=name><parameter=k>v</parameter></function>`, and fenced or bare JSON with `name` and
`arguments` (or `parameters`), one or several in a row. Only names of this run's tools are
accepted. Markup that cannot be read gets one request for a proper call. A reply that writes out
calls to most of the tools at once is a list of the tools, not a plan: it gets one request to
send only the calls meant now, and if it comes again only its read-only calls run.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping

from pipeline.host.guards.base import GuardState, ResponseDecision
from pipeline.host.guards.common import guard_count
from pipeline.models import JsonValue, ModelResponse, ToolCall, ToolSpec

__all__ = ["ASK_AGAIN", "ONE_STEP", "extract_calls", "prose_call"]

ASK_AGAIN = (
    "Your reply contains a tool call the host could not read. Send it again as a tool call: "
    'the tool name and its arguments as one JSON object, e.g. {"name": "...", "arguments": {...}}.'
)
ONE_STEP = (
    "Your reply writes out calls to most of the tools at once. Send only the call or calls you "
    "mean to make now, as tool calls."
)
_MARKERS = re.compile(
    r"<tool_call>|<\|tool_call\|?>|\[TOOL_CALLS\]|<function=|<\|python_tag\|>|"
    r"\bcall:[A-Za-z_][\w.-]*\s*\{|```(?:json)?\s*\{",
)
_HERMES = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.S)
_GEMMA = re.compile(
    r"call:([A-Za-z_][\w.-]*)\s*(\{.*?\})(?=\s*(?:<tool_call\|>|<\|tool_call|$|\n))", re.S
)
_MISTRAL_NAMED = re.compile(r"\[TOOL_CALLS\]\s*([A-Za-z_][\w.-]*)\s*\[ARGS\]\s*(\{.*\})", re.S)
_MISTRAL_LIST = re.compile(r"\[TOOL_CALLS\]\s*(\[.*\])", re.S)
_LLAMA = re.compile(r"<function=([A-Za-z_][\w.-]*)>\s*(.*?)\s*</function>", re.S)
_XML_PARAM = re.compile(r"<parameter=([A-Za-z_][\w-]*)>\s*(.*?)\s*</parameter>", re.S)
_PYTHON_TAG = re.compile(r"<\|python_tag\|>\s*(\{.*\})", re.S)
_FENCED = re.compile(r"```(?:json|tool_call)?\s*(\{.*?\}|\[.*?\])\s*```", re.S)
_GEMMA_QUOTE = re.compile(r'<\|"\|>')
_BARE_KEY = re.compile(r"([{,]\s*)([A-Za-z_][\w-]*)\s*:")


def _loads(text: str) -> JsonValue:
    text = text.strip()
    for candidate in (text, _GEMMA_QUOTE.sub('"', text)):
        try:
            value: JsonValue = json.loads(candidate)
            return value
        except json.JSONDecodeError:
            pass
        try:
            value = json.loads(_BARE_KEY.sub(r'\1"\2":', candidate))
            return value
        except json.JSONDecodeError:
            continue
    return None


def _from_object(value: JsonValue) -> Iterator[tuple[str, JsonValue]]:
    if isinstance(value, list):
        for item in value:
            yield from _from_object(item)
        return
    if not isinstance(value, dict):
        return
    if isinstance(value.get("function"), dict):
        yield from _from_object(value["function"])
        return
    name = value.get("name") or value.get("tool") or value.get("tool_name")
    if isinstance(name, str):
        arguments: JsonValue = next(
            (value[k] for k in ("arguments", "parameters", "args", "input") if k in value), {}
        )
        if isinstance(arguments, str):
            arguments = _loads(arguments)
        yield name, arguments


def _candidates(text: str) -> Iterator[tuple[str, JsonValue]]:
    for match in _HERMES.finditer(text):
        yield from _from_object(_loads(match[1]))
    for match in _GEMMA.finditer(text):
        yield match[1], _loads(match[2])
    for match in _MISTRAL_NAMED.finditer(text):
        yield match[1], _loads(match[2])
    for match in _MISTRAL_LIST.finditer(text):
        yield from _from_object(_loads(match[1]))
    for match in _LLAMA.finditer(text):
        body = match[2]
        params = _XML_PARAM.findall(body)
        if params:
            yield match[1], {k: _scalar(v) for k, v in params}
        else:
            yield match[1], _loads(body) if body else {}
    for match in _PYTHON_TAG.finditer(text):
        yield from _from_object(_loads(match[1]))
    for match in _FENCED.finditer(text):
        value = _loads(match[1])
        yield from _from_object(value) if value is not None else _json_values(match[1])
    stripped = text.strip()
    if stripped.startswith(("{", "[")):
        value = _loads(stripped)
        yield from _from_object(value) if value is not None else _json_values(stripped)


def _json_values(text: str) -> Iterator[tuple[str, JsonValue]]:
    """Calls written as several JSON objects in a row (one per line, or run together)."""
    decoder = json.JSONDecoder()
    position = text.find("{")
    while position != -1:
        try:
            value, end = decoder.raw_decode(text, position)
        except json.JSONDecodeError:
            position = text.find("{", position + 1)
            continue
        yield from _from_object(value)
        position = text.find("{", end)


def _scalar(text: str) -> JsonValue:
    value = _loads(text)
    return text if value is None else value


def extract_calls(text: str, tools: Mapping[str, ToolSpec]) -> list[ToolCall] | None:
    """Calls found in `text` (deduplicated, in order); None when markup is there but unreadable;
    [] when the text holds no call at all."""
    found: list[ToolCall] = []
    seen: set[str] = set()
    for name, arguments in _candidates(text):
        if name not in tools or not isinstance(arguments, dict):
            continue
        key = name + json.dumps(arguments, sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        found.append(ToolCall(id=f"prose_{len(found) + 1}", name=name, arguments=arguments))
    if found:
        return found
    return None if _MARKERS.search(text) else []


def _catalogue(calls: list[ToolCall], tools: Mapping[str, ToolSpec]) -> bool:
    """A reply that writes out a call for most of the tools at once lists them; it is no plan."""
    names = {c.name for c in calls}
    return len(names) >= max(3, -(-len(tools) // 2))


def prose_call(response: ModelResponse, state: GuardState) -> ResponseDecision:
    if response.tool_calls or response.truncated or not response.content.strip():
        return ResponseDecision()
    calls = extract_calls(response.content, state.tools)
    if calls and _catalogue(calls, state.tools):
        if not guard_count(state, "prose_call", "bounce"):
            return ResponseDecision("bounce", message=ONE_STEP)
        calls = [c for c in calls if (spec := state.tools.get(c.name)) and spec.read_only]
    if calls:
        ids = [f"prose_{state.hop}_{k}" for k in range(1, len(calls) + 1)]
        calls = [c.model_copy(update={"id": i}) for c, i in zip(calls, ids, strict=True)]
        names = ", ".join(c.name for c in calls)
        repaired = response.model_copy(
            update={"tool_calls": calls, "content": "", "finish_reason": "tool_calls"}
        )
        return ResponseDecision(
            "repair", response=repaired, message=f"ran the call(s) written in the text: {names}"
        )
    if calls is None and not guard_count(state, "prose_call", "bounce"):
        return ResponseDecision("bounce", message=ASK_AGAIN)
    return ResponseDecision()
