"""Replays assistant turns from a JSON file, one per request. For tests and evaluation only:
it is a recording, not a model."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from pipeline.errors import ConfigError
from pipeline.models import (
    JsonObject,
    Message,
    ModelResponse,
    ModelSettings,
    ToolCall,
    ToolSpec,
    Usage,
)

__all__ = ["ScriptedModel", "parse_turn"]

EXHAUSTED = "(script exhausted) Nothing more to do."


def parse_turn(turn: JsonObject, index: int) -> ModelResponse:
    """An assistant turn in the OpenAI message shape: `content`, `tool_calls`, `finish_reason`.
    Raises ValueError for a turn of another shape."""
    raw_calls = turn.get("tool_calls") or []
    if not isinstance(raw_calls, list):
        raise ValueError("tool_calls must be a list")
    calls = []
    for k, call in enumerate(raw_calls):
        if not isinstance(call, dict):
            raise ValueError(f"tool call {k + 1} is not an object with a function")
        function = call.get("function", call)
        if not isinstance(function, dict):
            raise ValueError(f"tool call {k + 1} is not an object with a function")
        raw = function.get("arguments", {})
        arguments: JsonObject = {}
        raw_text: str | None = None
        if isinstance(raw, str):
            try:
                parsed = json.loads(raw)
                arguments = parsed if isinstance(parsed, dict) else {}
                raw_text = None if isinstance(parsed, dict) else raw
            except json.JSONDecodeError:
                raw_text = raw
        elif isinstance(raw, dict):
            arguments = raw
        calls.append(
            ToolCall(
                id=str(call.get("id") or f"call_{index}_{k}"),
                name=str(function.get("name", "")),
                arguments=arguments,
                raw_arguments=raw_text,
            )
        )
    finish = turn.get("finish_reason") or ("tool_calls" if calls else "stop")
    return ModelResponse(
        content=str(turn.get("content") or ""),
        tool_calls=calls,
        finish_reason=str(finish),
        usage=Usage(),
        model="scripted",
    )


class ScriptedModel:
    def __init__(self, turns: Sequence[JsonObject], *, name: str = "scripted") -> None:
        self.name = name
        self._turns = list(turns)
        self.requests: list[list[Message]] = []

    @classmethod
    def from_file(cls, path: Path) -> ScriptedModel:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(f"script {path} does not exist") from None
        except json.JSONDecodeError as exc:
            raise ConfigError(f"script {path} is not valid JSON: {exc}") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"cannot read script {path}: {exc}") from None
        turns = data.get("turns") if isinstance(data, dict) else data
        if not isinstance(turns, list) or not all(isinstance(t, dict) for t in turns):
            raise ConfigError(f"script {path} must be a JSON list of assistant turns")
        for index, turn in enumerate(turns):
            try:
                parse_turn(turn, index)
            except ValueError as exc:
                raise ConfigError(f"script {path}, turn {index + 1}: {exc}") from None
        return cls(turns, name=f"scripted:{path.name}")

    async def request(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec], settings: ModelSettings
    ) -> ModelResponse:
        index = len(self.requests)
        self.requests.append(list(messages))
        if index >= len(self._turns):
            return ModelResponse(content=EXHAUSTED, finish_reason="stop", model=self.name)
        response = parse_turn(self._turns[index], index)
        return response.model_copy(update={"model": self.name})
