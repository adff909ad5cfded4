"""The baselines that pick among the step schema's alternatives without reading the task."""

import asyncio
import random
from typing import Any

import jsonschema

from pipeline.evals.baselines import FINAL_TEXT, OptionBaseline, _instance
from pipeline.models import Message, ModelSettings, ToolSpec
from pipeline.vlm.steps import step_schema

TOOLS = [
    ToolSpec(
        name="warehouses_list",
        description="list warehouses (not needed now: every row has its warehouse)",
        input_schema={"type": "object", "properties": {}},
        group="warehouses",
        read_only=True,
    ),
    ToolSpec(
        name="notes_add",
        description="a write the step schema does not narrow",
        input_schema={
            "type": "object",
            "properties": {"text": {"type": "string"}, "pinned": {"type": "boolean"}},
            "required": ["text"],
        },
        group="notes",
    ),
]
MESSAGES = [
    Message(role="system", content="You help with stock."),
    Message(role="user", content="Which warehouses are there?"),
]


def _reply(baseline: OptionBaseline) -> Any:
    return asyncio.run(baseline.request(MESSAGES, TOOLS, ModelSettings()))


def test_first_option_takes_the_first_alternative_the_schema_offers() -> None:
    reply = _reply(OptionBaseline("first", case_id="c", seed=0, max_quantity=500))
    schema: Any = step_schema(TOOLS, MESSAGES)
    assert schema["oneOf"][0]["properties"]["tool"]["const"] == "notes_add"
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [("notes_add", {"text": ""})]
    assert reply.steps == "schema"
    assert _reply(OptionBaseline("first", case_id="c", seed=0, max_quantity=500)) == reply


def test_a_baseline_answers_with_a_fixed_text_that_names_nothing() -> None:
    reply = asyncio.run(
        OptionBaseline("first", case_id="c", seed=0, max_quantity=500).request(
            MESSAGES, TOOLS[:1], ModelSettings()
        )
    )
    assert reply.content == FINAL_TEXT and not reply.tool_calls


def test_random_option_repeats_its_draw_for_the_same_case_seed_and_turn() -> None:
    draws = [
        _reply(OptionBaseline("random", case_id="c", seed=seed, max_quantity=500))
        for seed in (0, 0, 1, 2, 3, 4, 5, 6, 7)
    ]
    shown = [(r.content, [c.name for c in r.tool_calls]) for r in draws]
    assert shown[0] == shown[1]
    assert len(set(map(str, shown))) > 1  # the seed changes the pick
    assert all(r.content in ("", FINAL_TEXT) or r.asks for r in draws)


def test_every_value_a_baseline_fills_in_is_accepted_by_its_schema() -> None:
    schemas: list[dict[str, Any]] = [
        {"type": "string", "const": "SKU-10232"},
        {"type": "string", "enum": ["WH-01", "WH-02"]},
        {"type": "array", "items": {"type": "string", "enum": ["A", "B"]}, "maxItems": 2},
        {"anyOf": [{"type": "integer", "minimum": 1, "maximum": 50}, {"type": "null"}]},
        {
            "type": "object",
            "properties": {"sku": {"type": "string", "const": "X"}, "note": {"type": "string"}},
            "required": ["sku"],
            "additionalProperties": False,
        },
    ]
    for schema in schemas:
        for draw in (None, random.Random(3)):
            jsonschema.validate(_instance(schema, draw), schema)
