"""The one method the host depends on: `await model.request(messages, tools, settings)`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from pipeline.models import Message, ModelResponse, ModelSettings, ToolSpec

__all__ = ["Model"]


class Model(Protocol):
    """A model behind one method. Providers own URLs, keys and HTTP; the loop never sees them."""

    name: str

    async def request(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec], settings: ModelSettings
    ) -> ModelResponse: ...
