"""The one method the host depends on: `await model.request(messages, tools, settings)`.

A model that can also answer one request under a JSON Schema (an `openai` endpoint) is a
`SchemaAnswerer` too: the host asks it once, before a run, how it reads the task.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from pipeline.models import JsonObject, Message, ModelResponse, ModelSettings, ToolSpec

__all__ = ["Model", "SchemaAnswerer"]


class Model(Protocol):
    """A model behind one method. Providers own URLs, keys and HTTP; the loop never sees them."""

    name: str

    async def request(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec], settings: ModelSettings
    ) -> ModelResponse: ...


@runtime_checkable
class SchemaAnswerer(Protocol):
    """One answer whose text is a JSON value under `schema` (named `name` on the wire)."""

    async def answer_schema(
        self,
        messages: Sequence[Message],
        schema: JsonObject,
        settings: ModelSettings,
        *,
        name: str,
    ) -> ModelResponse: ...
