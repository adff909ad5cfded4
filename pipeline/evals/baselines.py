"""Baselines that do not read: the floor a real model's score is measured from.

Under schema steps with every narrowing on, the host offers a small model only the steps that
make sense now (`pipeline.vlm.steps.step_schema`): reads still needed, writes as fixed values
it computed (ids read live, low, in scope; quantities from the task or left to the server's
policy), a final answer or a question. A policy that never reads the conversation and picks
among those alternatives may then do as well as a model. These two do exactly that:

- `first-option`: always the first alternative the schema lists;
- `random-option`: one alternative drawn at random, seeded by case, seed and turn.

Each fills the chosen alternative from the schema alone (a constant, an enumeration's first or
drawn value, a bound), and answers with a fixed text that names nothing. The model's own
contribution under schema steps is a real model's score minus these, reported as such.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal

from pipeline.jsonread import count, items, object_or_none
from pipeline.models import (
    JsonObject,
    JsonValue,
    Message,
    ModelResponse,
    ModelSettings,
    ToolCall,
    ToolSpec,
)
from pipeline.vlm.steps import Narrowing, step_schema

__all__ = ["BASELINES", "FINAL_TEXT", "QUESTION_TEXT", "OptionBaseline"]

Pick = Literal["first", "random"]

BASELINES: dict[str, Pick] = {"first-option": "first", "random-option": "random"}
"""Baseline name → how it picks."""

FINAL_TEXT = "Done."
QUESTION_TEXT = "Can you tell me more about what you need?"


class OptionBaseline:
    """Answers each turn with one alternative of the step schema, chosen without reading."""

    def __init__(self, pick: Pick, *, case_id: str, seed: int, max_quantity: int) -> None:
        self.pick = pick
        self.name = f"baseline:{pick}-option"
        self._case = case_id
        self._seed = seed
        self._max_quantity = max_quantity

    async def request(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec], settings: ModelSettings
    ) -> ModelResponse:
        schema = step_schema(
            tools, messages, narrowing=Narrowing(), max_quantity=self._max_quantity
        )
        found = schema["oneOf"]
        options = [o for o in found if isinstance(o, dict)] if isinstance(found, list) else []
        # Seeded by where the run is, not by what it says: the same turn gets the same draw.
        draw = random.Random(f"{self._case}:{self._seed}:{len(messages)}")
        option = options[0] if self.pick == "first" else draw.choice(options)
        step = _instance(option, draw if self.pick == "random" else None)
        assert isinstance(step, dict)
        if "tool" in step:
            call = ToolCall(
                id=f"call_{len(messages)}", name=step["tool"], arguments=step["arguments"]
            )
            return ModelResponse(
                tool_calls=[call], finish_reason="tool_calls", steps="schema", schema_valid=True
            )
        if "question" in step:
            return ModelResponse(
                content=QUESTION_TEXT, asks=True, steps="schema", schema_valid=True
            )
        return ModelResponse(content=FINAL_TEXT, steps="schema", schema_valid=True)


def _instance(schema: JsonObject, draw: random.Random | None) -> JsonValue:
    """A value the schema accepts, from the schema alone: its constant, an enumeration's first
    value (or one drawn), an array of the enumeration (or a drawn part of it), the lower bound
    of a number, the required properties of an object; text gets the fixed answers."""
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        values = items(schema["enum"])
        return values[0] if draw is None else draw.choice(values)
    if "anyOf" in schema:
        found = [s for s in items(schema["anyOf"]) if isinstance(s, dict)]
        choices = [s for s in found if s.get("type") != "null"] or found
        return _instance(choices[0] if draw is None else draw.choice(choices), draw)
    kind = schema.get("type")
    if kind == "object":
        properties = object_or_none(schema.get("properties")) or {}
        required = items(schema.get("required"))
        return {
            name: _text(name)
            if name in ("final", "question")
            else _instance(object_or_none(spec) or {}, draw)
            for name, spec in properties.items()
            if name in required
        }
    if kind == "array":
        each = object_or_none(schema.get("items")) or {}
        values = items(each.get("enum"))
        if not values:
            return [] if not schema.get("minItems") else [_instance(each, draw)]
        if draw is None:
            return values[: count(schema.get("maxItems", len(values)))]
        return draw.sample(values, draw.randint(1, len(values)))
    if kind == "integer" or kind == "number":
        return schema.get("minimum", 1)
    if kind == "boolean":
        return False
    return ""


def _text(key: str) -> str:
    return QUESTION_TEXT if key == "question" else FINAL_TEXT
