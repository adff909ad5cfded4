"""Tool calls written into a reply's text, in the dialects local runtimes leave behind when
they fail to parse them: Hermes/Qwen, Gemma, Mistral, Llama and fenced JSON."""

from __future__ import annotations

import json
from collections.abc import Sequence

from pipeline.models import JsonValue, ToolCall

__all__ = ["DIALECTS", "render_prose"]

DIALECTS: tuple[str, ...] = ("hermes", "gemma", "mistral", "llama", "fenced_json")


def render_prose(dialect: str, calls: Sequence[ToolCall], *, preamble: str = "") -> str:
    """Tool calls written into the reply text, as a runtime that failed to parse them leaves
    them, in one of `DIALECTS`."""
    dumps = json.dumps
    parts: list[str] = []
    if dialect == "hermes":
        parts = [
            f"<tool_call>\n{dumps({'name': c.name, 'arguments': c.arguments}, ensure_ascii=False)}"
            "\n</tool_call>"
            for c in calls
        ]
    elif dialect == "gemma":
        parts = [f"<|tool_call|>call:{c.name}{_gemma(c.arguments)}<tool_call|>" for c in calls]
    elif dialect == "mistral":
        listed = [{"name": c.name, "arguments": c.arguments} for c in calls]
        parts = ["[TOOL_CALLS]" + dumps(listed, ensure_ascii=False)]
    elif dialect == "llama":
        parts = [
            f"<function={c.name}>{dumps(c.arguments, ensure_ascii=False)}</function>" for c in calls
        ]
    elif dialect == "fenced_json":
        parts = [
            "```json\n"
            + dumps({"name": c.name, "arguments": c.arguments}, ensure_ascii=False, indent=2)
            + "\n```"
            for c in calls
        ]
    else:
        raise ValueError(f"unknown dialect {dialect!r}; known: {', '.join(DIALECTS)}")
    body = "\n".join(parts)
    return f"{preamble}\n{body}" if preamble else body


def _gemma(value: JsonValue) -> str:
    """Gemma's call syntax: bare keys, strings between `<|"|>` marks."""
    if isinstance(value, dict):
        return "{" + ",".join(f"{k}:{_gemma(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_gemma(v) for v in value) + "]"
    if isinstance(value, str):
        return f'<|"|>{value}<|"|>'
    return json.dumps(value)
