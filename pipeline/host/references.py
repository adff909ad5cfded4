"""Files by reference: an argument equal to `@name` becomes the attachment's content."""

from __future__ import annotations

import re
from collections.abc import Mapping

from pipeline.models import JsonObject, JsonValue

__all__ = ["ReferenceError_", "substitute"]

_REFERENCE = re.compile(r"^@(?P<name>[^\s]+)$")


class ReferenceError_(ValueError):
    """An `@name` the run cannot resolve; the message tells the model what it may use."""


def substitute(arguments: JsonObject, contents: Mapping[str, str]) -> JsonObject:
    """A copy of `arguments` with every `@name` string replaced; unknown names and anything that
    looks like a path are refused, so a reference can never reach outside the run."""
    return {key: _substitute(value, contents) for key, value in arguments.items()}


def _substitute(arguments: JsonValue, contents: Mapping[str, str]) -> JsonValue:
    if isinstance(arguments, dict):
        return substitute(arguments, contents)
    if isinstance(arguments, list):
        return [_substitute(value, contents) for value in arguments]
    if isinstance(arguments, str):
        match = _REFERENCE.match(arguments)
        if match is None:
            return arguments
        name = match["name"]
        available = ", ".join(f"@{n}" for n in sorted(contents)) or "none"
        if "/" in name or "\\" in name or name in (".", ".."):
            raise ReferenceError_(
                f"{arguments!r} looks like a path; only attachments of this run can be passed "
                f"by reference (attached: {available})"
            )
        if name not in contents:
            raise ReferenceError_(
                f"{arguments!r} is not an attachment of this run (attached: {available})"
            )
        return contents[name]
    return arguments
