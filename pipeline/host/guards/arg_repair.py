"""`arg_repair`: arguments that fit the tool's `inputSchema` only after reshaping.

It reshapes only what the model sent: a wrapped value unwrapped (or a lone value wrapped in a
list), numeric strings and full-width digits and punctuation (`２０．０９`) as numbers, full-width
forms in strings as ASCII, an enum value in the wrong case or a known alias. It never adds or
drops a field, and leaves anything ambiguous as it is.
"""

from __future__ import annotations

import json
import re
import unicodedata

from pipeline.host.guards.base import CallDecision, GuardState
from pipeline.jsonread import items, object_or_none
from pipeline.models import JsonObject, JsonValue, ToolCall

__all__ = ["arg_repair", "reshape"]

_INT = re.compile(r"^[+-]?\d+$")
_NUMBER = re.compile(r"^[+-]?\d+(?:\.\d+)?$")
_GROUPED = re.compile(r"^[+-]?\d{1,3}(?:,\d{3})+$")
_FULL_WIDTH = re.compile(r"[\uff01-\uff5e\u3000\u3002\uff0e]")
_WRAPPERS = ("arguments", "args", "params", "parameters", "input", "kwargs")
_ALIASES = {"canceled": "cancelled", "opened": "open"}


def _ascii(text: str) -> str:
    if not _FULL_WIDTH.search(text):
        return text
    return unicodedata.normalize("NFKC", text.replace("\u3002", ".")).strip()


def _types(schema: JsonObject) -> set[str]:
    if "type" in schema:
        kind = schema["type"]
        return {str(k) for k in kind} if isinstance(kind, list) else {str(kind)}
    found: set[str] = set()
    for option in items(schema.get("anyOf")) + items(schema.get("oneOf")):
        if isinstance(option, dict):
            found |= _types(option)
    return found


def _enum(schema: JsonObject) -> list[JsonValue] | None:
    if "enum" in schema:
        return items(schema["enum"])
    for option in items(schema.get("anyOf")):
        if isinstance(option, dict) and "enum" in option:
            return items(option["enum"])
    return None


def _resolve(schema: JsonObject, root: JsonObject) -> JsonObject:
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        defs = object_or_none(root.get("$defs")) or {}
        target = object_or_none(defs.get(ref.split("/")[-1]))
        if target is not None:
            return target
    return schema


def _items_schema(schema: JsonObject) -> JsonObject:
    return object_or_none(schema.get("items")) or {}


def _value(value: JsonValue, schema: JsonObject, root: JsonObject) -> JsonValue:
    schema = _resolve(schema, root)
    types = _types(schema)
    if isinstance(value, dict) and len(value) == 1 and "object" not in types:
        inner = next(iter(value.values()))
        if not isinstance(inner, dict):
            value = inner
    if isinstance(value, str):
        text = _ascii(value)
        if types & {"integer", "number"} and "string" not in types:
            digits = text.replace(" ", "")
            if _GROUPED.match(digits):
                digits = digits.replace(",", "")
            if "integer" in types and _INT.match(digits):
                return int(digits)
            if "number" in types and _NUMBER.match(digits):
                return float(digits) if "." in digits else int(digits)
            return value
        if "array" in types and "string" not in types:
            return [_value(text, _items_schema(schema), root)]
        if "object" in types and "string" not in types and text.startswith("{"):
            try:
                parsed = json.loads(text)
            except json.JSONDecodeError:
                return value
            return parsed if isinstance(parsed, dict) else value
        options = _enum(schema)
        if options is not None and text not in options:
            lowered = _ALIASES.get(text.lower(), text.lower())
            matches = [o for o in options if isinstance(o, str) and o.lower() == lowered]
            return matches[0] if len(matches) == 1 else value
        return text
    if isinstance(value, int | float) and not isinstance(value, bool) and types == {"string"}:
        return str(value)
    if isinstance(value, list) and "array" in types:
        return [_value(v, _items_schema(schema), root) for v in value]
    return value


def reshape(arguments: JsonObject, schema: JsonObject) -> JsonObject:
    """The arguments reshaped to the schema: the same fields, nothing added or dropped."""
    properties = object_or_none(schema.get("properties"))
    if not properties:
        return arguments
    if len(arguments) == 1:
        ((key, inner),) = arguments.items()
        if key not in properties and key in _WRAPPERS and isinstance(inner, dict):
            arguments = inner
    return {
        key: _value(value, object_or_none(properties[key]) or {}, schema)
        if key in properties
        else value
        for key, value in arguments.items()
    }


def arg_repair(call: ToolCall, state: GuardState) -> CallDecision:
    spec = state.tools.get(call.name)
    if spec is None:
        return CallDecision()
    arguments = call.arguments
    if call.raw_arguments is not None and not arguments:
        parsed = _loads_loose(call.raw_arguments)
        if parsed is None:
            return CallDecision()
        arguments = parsed
    repaired = reshape(arguments, spec.input_schema)
    if repaired == call.arguments and call.raw_arguments is None:
        return CallDecision()
    changes = [
        f"{k}: {json.dumps(call.arguments.get(k), ensure_ascii=False)} -> "
        f"{json.dumps(v, ensure_ascii=False)}"
        for k, v in repaired.items()
        if call.arguments.get(k) != v
    ]
    fixed = call.model_copy(update={"arguments": repaired, "raw_arguments": None})
    return CallDecision("repair", call=fixed, message="reshaped " + "; ".join(changes))


def _loads_loose(text: str) -> JsonObject | None:
    """Argument text that is JSON once full-width punctuation is made ASCII."""
    try:
        value = json.loads(unicodedata.normalize("NFKC", text))
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None
