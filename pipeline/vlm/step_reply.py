"""The text side of structured steps: the fixed catalogue of tools and the reply format the
system prompt carries once, the conversation as a model without native tools sees it, and the
reply read back into a model turn (validated against the step's schema, or salvaged when cut)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence

import jsonschema

from pipeline.models import JsonValue, Message, ModelResponse, ToolCall, ToolSpec

__all__ = ["catalogue", "history", "parse_step", "salvage_cut_text"]

REPLY_FORMAT = """\
## How to answer
Reply with exactly one JSON object and nothing else:
- {"tool": "<tool name>", "arguments": {...}} to call one tool;
- {"final": "<text>"} to give the user your answer;
- {"question": "<text>"} to ask the user something you need.
One step per reply; you will see each tool's result before the next step."""


def catalogue(tools: Sequence[ToolSpec]) -> str:
    """Every offered tool with its description and parameters, in the order given."""
    lines = ["## Tools"]
    for tool in tools:
        found = tool.input_schema.get("properties")
        properties = found if isinstance(found, dict) else {}
        listed = tool.input_schema.get("required")
        required = {r for r in listed if isinstance(r, str)} if isinstance(listed, list) else set()
        params = ", ".join(
            f"{name}{'' if name in required else '?'}: {_type(spec)}"
            for name, spec in properties.items()
        )
        lines.append(f"- {tool.name}({params}): {tool.description.strip()}")
    return "\n".join(lines)


def _type(spec: JsonValue) -> str:
    if not isinstance(spec, dict):
        return "any"
    any_of = spec.get("anyOf")
    if isinstance(any_of, list):
        kinds = [_type(s) for s in any_of if not (isinstance(s, dict) and s.get("type") == "null")]
        return " | ".join(kinds) or "any"
    kind = spec.get("type", "any")
    if kind == "array":
        return f"list[{_type(spec.get('items') or {})}]"
    enum = spec.get("enum")
    if isinstance(enum, list):
        return "|".join(json.dumps(v) for v in enum)
    return str(kind)


def history(messages: Sequence[Message], tools: Sequence[ToolSpec]) -> list[Message]:
    """The conversation as a step model reads it: the system prompt with the catalogue and the
    reply format, each past call as the JSON step it was, each tool result as a user turn."""
    out: list[Message] = []
    for message in messages:
        if message.role == "system":
            content = f"{message.content}\n\n{catalogue(tools)}\n\n{REPLY_FORMAT}"
            out.append(message.model_copy(update={"content": content}))
        elif message.role == "assistant" and message.tool_calls:
            steps = [
                json.dumps({"tool": c.name, "arguments": c.arguments}, ensure_ascii=False)
                for c in message.tool_calls
            ]
            out.append(Message(role="assistant", content="\n".join(steps)))
        elif message.role == "tool":
            out.append(
                Message(
                    role="user",
                    content=f"Result of {message.name or 'the tool'}: {message.content}",
                )
            )
        else:
            out.append(message)
    return out


# ---- the reply

_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


_CUT_TEXT = re.compile(r'^\s*\{\s*"(final|question)"\s*:\s*"(.*)$', re.DOTALL)


def salvage_cut_text(text: str) -> ModelResponse | None:
    """A step cut at its token budget inside a final answer or a question: the text written so
    far, marked as cut, or None when the cut step was anything else (a call runs nothing)."""
    match = _CUT_TEXT.match(text)
    if match is None:
        return None
    partial = match[2]
    for end in range(len(partial), max(-1, len(partial) - 8), -1):
        try:
            said = json.loads(f'"{partial[:end]}"').strip()
        except ValueError:
            continue
        if not said:
            return None
        return ModelResponse(content=f"{said} …", finish_reason="stop", asks=match[1] == "question")
    return None


def parse_step(
    text: str, schema: Mapping[str, JsonValue], tools: Sequence[ToolSpec], call_id: str
) -> tuple[ModelResponse, bool]:
    """The reply as a model turn, and whether it met the step schema. A reply that does not is
    still read as well as it can be (a known tool with an object of arguments becomes the call,
    for the guards and the server to judge); anything else stays text."""
    body = _FENCE.sub(r"\1", text).strip()
    try:
        step = json.loads(body)
    except (ValueError, RecursionError):
        return ModelResponse(content=text, finish_reason="stop"), False
    valid = isinstance(step, dict) and not list(
        jsonschema.Draft202012Validator(dict(schema)).iter_errors(step)
    )
    if not isinstance(step, dict):
        return ModelResponse(content=text, finish_reason="stop"), False
    names = {t.name for t in tools}
    if isinstance(step.get("tool"), str) and step["tool"] in names:
        arguments = step.get("arguments")
        if isinstance(arguments, dict):
            call = ToolCall(id=call_id, name=step["tool"], arguments=arguments)
            return ModelResponse(tool_calls=[call], finish_reason="tool_calls"), valid
    for key, asks in (("question", True), ("final", False)):
        if isinstance(step.get(key), str):
            return ModelResponse(content=step[key], finish_reason="stop", asks=asks), valid
    return ModelResponse(content=text, finish_reason="stop"), False
