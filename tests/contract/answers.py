"""A model's reading of a task as it answers the contract schema: what the tests of a model's
reading replay."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pipeline.models import Message, ModelResponse, ModelSettings, Usage

Reading = dict[str, Any] | str | Exception


def answer(**fields: Any) -> dict[str, Any]:
    """A contract answer that replenishes with every list empty, `fields` over it."""
    base: dict[str, Any] = {
        "action": "replenish",
        "writes_allowed": True,
        "deferred": False,
        "warehouses": [],
        "exclude_warehouses": [],
        "skus": [],
        "exclude_skus": [],
        "quantities": [],
        "quantity_rule": None,
        "order_ids": [],
    }
    return {**base, **fields}


class ReadingReplay:
    """Recorded readings of tasks, answered to the contract schema request (a replay, not a
    model). `read(task)` is the reading of the task a request ends with: an answer, the JSON text
    as it came, or the error the request raised. Every request is kept in `asked`."""

    usage = Usage()

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[tuple[list[Message], dict[str, Any], str]] = []

    def read(self, task: str) -> Reading:
        raise NotImplementedError

    async def answer_schema(
        self,
        messages: Sequence[Message],
        schema: dict[str, Any],
        settings: ModelSettings,
        *,
        name: str,
    ) -> ModelResponse:
        self.asked.append((list(messages), schema, name))
        found = self.read(messages[-1].content)
        if isinstance(found, Exception):
            raise found
        content = found if isinstance(found, str) else json.dumps(found)
        return ModelResponse(content=content, usage=self.usage)
