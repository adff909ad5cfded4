"""`unchanged_field`: a retry that leaves unchanged the field a rejection named.

The field comes from the tool's structured error (`field`) or, for schema validation errors,
from the property names of the tool's schema found in the rejection text. The retry is
checked for that key anywhere in its arguments.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from pipeline.host.guards.base import CallDecision, GuardState
from pipeline.host.guards.common import last_record_of
from pipeline.models import JsonObject, JsonValue, ToolCall

__all__ = ["named_fields", "unchanged_field"]

_MISSING = object()


_LOCATION = re.compile(r"^([A-Za-z_]\w*)(?:[.\[].*)?$")
_DETAIL = re.compile(r"\[type=.*?\]|input_value=.*", re.S)


def named_fields(result: str, structured: JsonObject | None, properties: set[str]) -> set[str]:
    """The argument a rejection blames: the tool's own `field`, the locations of a schema
    validation error, or else the schema's property names the message mentions."""
    field = (structured or {}).get("field")
    if isinstance(field, str) and field:
        return {field}
    lines = result.splitlines()
    located = {
        m[1]
        for line in lines[1:]
        if not line[:1].isspace() and (m := _LOCATION.match(line.strip())) and m[1] in properties
    }
    if located:
        return located
    text = _DETAIL.sub("", result)
    return {p for p in properties if re.search(rf"(?<![\w-]){re.escape(p)}(?![\w-])", text)}


def _find(arguments: JsonValue, key: str) -> Iterator[JsonValue]:
    if isinstance(arguments, dict):
        for k, v in arguments.items():
            if k == key:
                yield v
            yield from _find(v, key)
    elif isinstance(arguments, list):
        for v in arguments:
            yield from _find(v, key)


def _value(arguments: JsonObject, key: str) -> object:
    return next(_find(arguments, key), _MISSING)


def unchanged_field(call: ToolCall, state: GuardState) -> CallDecision:
    last = last_record_of(call.name, state.calls, executed=True)
    if last is None or not last.is_error or last.arguments == call.arguments:
        return CallDecision()
    spec = state.tools.get(call.name)
    found = spec.input_schema.get("properties") if spec else None
    properties = set(found) if isinstance(found, dict) else set()
    fields = named_fields(last.result, last.structured, properties)
    stale = sorted(f for f in fields if _value(call.arguments, f) == _value(last.arguments, f))
    if not stale:
        return CallDecision()
    missing = [f for f in stale if _value(call.arguments, f) is _MISSING]
    what = ", ".join(repr(f) for f in stale)
    how = (
        f"it is still missing ({', '.join(missing)})" if missing else "it still has the same value"
    )
    return CallDecision(
        "block",
        message=f"Blocked: the last {call.name} was rejected because of {what}, and this retry "
        f"does not change it: {how}. The rejection said: {last.result}",
    )
