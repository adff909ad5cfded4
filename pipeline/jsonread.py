"""Reading values out of JSON that came from elsewhere (a tool's result, a model's reply, a
stored record): each helper gives what its caller needs, or refuses as `int()` does, so that
a reader narrows in one place instead of trusting a shape."""

from __future__ import annotations

from pydantic import JsonValue

from pipeline.models import JsonObject

__all__ = ["count", "items", "object_or_none"]


def count(value: JsonValue) -> int:
    """A whole number a field holds (`12`, `12.0`, `"12"`); TypeError or ValueError else."""
    if isinstance(value, int | float | str):
        return int(value)
    raise TypeError(f"not a number: {value!r}")


def items(value: JsonValue) -> list[JsonValue]:
    """The elements of a list; none for anything else."""
    return value if isinstance(value, list) else []


def object_or_none(value: JsonValue) -> JsonObject | None:
    return value if isinstance(value, dict) else None
