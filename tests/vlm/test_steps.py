"""Step schemas shaped from the conversation, and replies read against them."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from PIL import Image

from pipeline.contract import parse_task, render_contract
from pipeline.host.context import Picture
from pipeline.host.screenview import view_spec
from pipeline.models import Message, ToolCall, ToolSpec
from pipeline.toolfacts import VIEW_TOOL
from pipeline.vlm.step_reply import catalogue, history, parse_step
from pipeline.vlm.steps import Narrowing, step_schema
from tests.vlm.offered import query_stock

SCREEN = """Screenshot captured at 2026-11-28T10:05:00+08:00 (a past view).
Page: Stock levels · WH-01
| sku | name | on_hand | reorder_point | warehouse_id | low |
|---|---|---|---|---|---|
| SKU-10232 | Hex nut | 38 | 120 | WH-01 | yes |
| SKU-10233 | Washer | 1204 | 300 | WH-01 | no |
| SKU-10318 | Tube kit | 2 | 25 | WH-01 | yes |"""

QUERY = query_stock(
    skus={"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]}
)
CREATE = ToolSpec(
    name="orders_create_replenishment",
    group="orders",
    description="Order more.",
    input_schema={
        "type": "object",
        "properties": {
            "warehouse_id": {"type": "string"},
            "sku": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "skus": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
            "quantity": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]},
        },
        "required": ["warehouse_id"],
    },
)
TOOLS = [QUERY, CREATE]


def conversation(task: str, *results: tuple[str, dict[str, Any], dict[str, Any]]) -> list[Message]:
    opening = f"Task: {task}\n\n{render_contract(parse_task(task))}\n\n@erp.png:\n{SCREEN}"
    messages = [Message(role="system", content="rules"), Message(role="user", content=opening)]
    for n, (name, arguments, result) in enumerate(results):
        call = ToolCall(id=f"c{n}", name=name, arguments=arguments)
        messages.append(Message(role="assistant", tool_calls=[call]))
        messages.append(
            Message(role="tool", tool_call_id=f"c{n}", name=name, content=json.dumps(result))
        )
    return messages


LIVE: dict[str, Any] = {
    "warehouse_id": "WH-01",
    "items": [
        {"sku": "SKU-10232", "warehouse_id": "WH-01", "on_hand": 38, "on_order": 0, "reorder_point": 120},
        {"sku": "SKU-10318", "warehouse_id": "WH-01", "on_hand": 300, "on_order": 0, "reorder_point": 25},
    ],
}  # fmt: skip
READ = (
    "inventory_query_stock",
    {"warehouse_id": "WH-01", "skus": ["SKU-10232", "SKU-10318"]},
    LIVE,
)


def valid(schema: dict[str, Any], step: dict[str, Any]) -> bool:
    return not list(jsonschema.Draft202012Validator(schema).iter_errors(step))


def test_before_any_live_read_only_reads_an_answer_or_a_question_can_be_written() -> None:
    schema: Any = step_schema(TOOLS, conversation("replenish what is low"))
    tools = [o["properties"]["tool"]["const"] for o in schema["oneOf"] if "tool" in o["properties"]]
    assert tools == ["inventory_query_stock"]
    assert valid(schema, {"final": "nothing to do"})
    assert not valid(
        schema,
        {
            "tool": "orders_create_replenishment",
            "arguments": {"warehouse_id": "WH-01", "sku": "SKU-10232"},
        },
    )


def test_ids_are_the_ones_valid_now_within_the_contract() -> None:
    schema: Any = step_schema(TOOLS, conversation("replenish what is low except SKU-10318"))
    query = {
        "tool": "inventory_query_stock",
        "arguments": {"warehouse_id": "WH-01", "skus": ["SKU-10232"]},
    }
    assert valid(schema, query)
    assert not valid(schema, {**query, "arguments": {"warehouse_id": "SKU-10232"}})
    excluded = {**query, "arguments": {"warehouse_id": "WH-01", "skus": ["SKU-10318"]}}
    assert not valid(schema, excluded)


def test_after_the_live_read_a_write_is_offered_for_what_is_still_low_only() -> None:
    schema: Any = step_schema(TOOLS, conversation("replenish what is low", READ))

    def order(**arguments: Any) -> dict[str, Any]:
        return {
            "tool": "orders_create_replenishment",
            "arguments": {"warehouse_id": "WH-01", **arguments},
        }

    assert valid(schema, order(sku="SKU-10232"))
    assert not valid(schema, order(sku="SKU-10318"))
    assert not valid(schema, order(sku="SKU-10232", quantity=10_001))


def test_an_explicit_quantity_is_the_only_quantity_the_schema_takes() -> None:
    schema: Any = step_schema(TOOLS, conversation("Order 10 units of SKU-10232 only", READ))

    def order(quantity: int) -> dict[str, Any]:
        arguments = {"warehouse_id": "WH-01", "sku": "SKU-10232", "quantity": quantity}
        return {"tool": "orders_create_replenishment", "arguments": arguments}

    assert valid(schema, order(10))
    assert not valid(schema, order(202))


def test_a_report_never_offers_a_write_even_after_the_read() -> None:
    messages = conversation("just tell me what is low", READ)
    schema: Any = step_schema([QUERY], messages)
    assert all(
        o["properties"].get("tool", {}).get("const") != "orders_create_replenishment"
        for o in schema["oneOf"]
    )


@pytest.mark.parametrize("switch", ["writes_after_read", "id_enums", "quantity_bounds"])
def test_each_narrowing_can_be_switched_off(switch: str) -> None:
    loose = Narrowing(**{switch: False})
    messages = conversation("replenish what is low")
    schema: Any = step_schema(TOOLS, messages, narrowing=loose)
    if switch == "writes_after_read":
        assert valid(
            schema,
            {
                "tool": "orders_create_replenishment",
                "arguments": {"warehouse_id": "WH-01", "sku": "SKU-10232"},
            },
        )
    elif switch == "id_enums":
        assert valid(
            schema, {"tool": "inventory_query_stock", "arguments": {"warehouse_id": "WH-09"}}
        )
    else:
        after: Any = step_schema(
            TOOLS, conversation("replenish what is low", READ), narrowing=loose
        )
        assert valid(
            after,
            {
                "tool": "orders_create_replenishment",
                "arguments": {"warehouse_id": "WH-01", "sku": "SKU-10232", "quantity": 999_999},
            },
        )


def test_the_prompt_is_the_same_at_every_step_only_the_schema_changes() -> None:
    first = history(conversation("replenish what is low"), TOOLS)
    later = history(conversation("replenish what is low", READ), TOOLS)
    assert first[0] == later[0] and first[1] == later[1]
    assert catalogue(TOOLS) in first[0].content
    assert later[2].content == json.dumps({"tool": READ[0], "arguments": READ[1]})
    assert later[3].role == "user" and later[3].content.startswith(
        "Result of inventory_query_stock: "
    )


@pytest.mark.parametrize(
    ("text", "kind", "meets"),
    [
        (
            '{"tool": "inventory_query_stock", "arguments": {"warehouse_id": "WH-01", "skus": ["SKU-10232"]}}',
            "call",
            True,
        ),
        (
            '```json\n{"tool": "inventory_query_stock", "arguments": {"warehouse_id": "WH-09"}}\n```',
            "call",
            False,
        ),
        ('{"final": "SKU-10232 is low."}', "final", True),
        ('{"question": "Which warehouse?"}', "question", True),
        ("I will now check the stock.", "text", False),
        ('{"tool": "made_up", "arguments": {}}', "text", False),
    ],
)
def test_a_reply_is_read_as_well_as_it_can_be_and_says_whether_it_met_the_schema(
    text: str, kind: str, meets: bool
) -> None:
    schema: Any = step_schema(TOOLS, conversation("replenish what is low"))
    response, ok = parse_step(text, schema, TOOLS, "step_1")
    assert ok is meets
    if kind == "call":
        assert [c.name for c in response.tool_calls] == ["inventory_query_stock"]
    elif kind == "question":
        assert response.asks and response.content == "Which warehouse?"
    elif kind == "final":
        assert not response.tool_calls and response.content == "SKU-10232 is low."
    else:
        assert not response.tool_calls and response.content == text


def _tools_in(schema: dict[str, Any]) -> list[str]:
    return [o["properties"]["tool"]["const"] for o in schema["oneOf"] if "tool" in o["properties"]]


def test_once_the_task_s_skus_are_read_reads_are_no_longer_offered() -> None:
    read_all = (
        "inventory_query_stock",
        {"warehouse_id": "WH-01", "skus": ["SKU-10232", "SKU-10318"]},
        LIVE,
    )
    after: Any = step_schema(TOOLS, conversation("just tell me what is low", read_all))
    assert "inventory_query_stock" not in _tools_in(after)


def test_each_write_is_one_alternative_per_order_with_the_quantity_the_task_gives() -> None:
    low_both = {
        "warehouse_id": "WH-01",
        "items": [{**item, "on_hand": 2} for item in LIVE["items"]],
    }
    read = (
        "inventory_query_stock",
        {"warehouse_id": "WH-01", "skus": ["SKU-10232", "SKU-10318"]},
        low_both,
    )
    policy: Any = step_schema(TOOLS, conversation("replenish what is low", read))
    writes = [
        o["properties"]["arguments"]
        for o in policy["oneOf"]
        if o["properties"].get("tool", {}).get("const") == "orders_create_replenishment"
    ]
    singles = [w for w in writes if "sku" in w["properties"]]
    assert [(w["properties"]["sku"]["const"], "quantity" in w["properties"]) for w in singles] == [
        ("SKU-10232", False),
        ("SKU-10318", False),
    ]
    each: Any = step_schema(TOOLS, conversation("replenish what is low, 30 each", read))
    assert valid(
        each,
        {
            "tool": "orders_create_replenishment",
            "arguments": {"sku": "SKU-10318", "warehouse_id": "WH-01", "quantity": 30},
        },
    )
    assert not valid(
        each,
        {
            "tool": "orders_create_replenishment",
            "arguments": {"sku": "SKU-10318", "warehouse_id": "WH-01"},
        },
    )
    rule: Any = step_schema(TOOLS, conversation("top up just to the reorder point", read))
    assert valid(
        rule,
        {
            "tool": "orders_create_replenishment",
            "arguments": {"sku": "SKU-10232", "warehouse_id": "WH-01", "quantity": 118},
        },
    )


def test_a_write_already_made_is_not_offered_again() -> None:
    created = {
        "order": {"id": "PO-000001", "sku": "SKU-10232", "warehouse_id": "WH-01", "quantity": 202,
                  "status": "open"},
        "created": True,
    }  # fmt: skip
    order = ("orders_create_replenishment", {"sku": "SKU-10232", "warehouse_id": "WH-01"}, created)
    schema: Any = step_schema(TOOLS, conversation("replenish what is low", READ, order))
    assert "orders_create_replenishment" not in _tools_in(schema)


def test_a_row_the_screen_places_in_no_warehouse_offers_no_write_only_a_question() -> None:
    homeless = SCREEN.replace("Page: Stock levels · WH-01\n", "").replace(" WH-01 |", " |")
    task = "replenish what is low"
    opening = f"Task: {task}\n\n{render_contract(parse_task(task))}\n\n@erp.png:\n{homeless}"
    messages = conversation(task, READ)
    messages[1] = Message(role="user", content=opening)
    schema: Any = step_schema(TOOLS, messages)
    order = {
        "tool": "orders_create_replenishment",
        "arguments": {"warehouse_id": "WH-01", "sku": "SKU-10232"},
    }
    assert not valid(schema, order)
    assert valid(schema, {"question": "Which warehouse is this screen for?"})


def test_several_low_skus_of_one_warehouse_can_be_ordered_in_one_step() -> None:
    both_low = {**LIVE, "items": [{**item, "on_hand": 1} for item in LIVE["items"]]}
    read = ("inventory_query_stock", READ[1], both_low)
    schema: Any = step_schema(TOOLS, conversation("replenish what is low", read))
    batch = {"warehouse_id": "WH-01", "skus": ["SKU-10232", "SKU-10318"]}
    assert valid(schema, {"tool": "orders_create_replenishment", "arguments": batch})
    one_of_them = {"warehouse_id": "WH-01", "skus": ["SKU-10232"]}
    assert not valid(schema, {"tool": "orders_create_replenishment", "arguments": one_of_them})
    per_sku = parse_task("Order 10 units of SKU-10232 and 20 units of SKU-10318")
    assert per_sku.quantities == {"SKU-10232": 10, "SKU-10318": 20}
    task = "Order 10 units of SKU-10232 and 20 units of SKU-10318"
    schema = step_schema(TOOLS, conversation(task, read))
    assert not valid(schema, {"tool": "orders_create_replenishment", "arguments": batch})


VIEW = view_spec({"erp.png": Picture("erp.png", (1200, 800), lambda: Image.new("RGB", (1, 1)))})


def test_the_host_s_screen_view_is_a_step_whenever_the_host_offers_it() -> None:
    region = {"x": 0, "y": 0, "width": 600, "height": 200}
    for messages in (
        conversation("replenish what is low"),
        conversation("replenish what is low", READ),
        conversation("which SKUs are low? do not order"),
    ):
        schema: Any = step_schema([*TOOLS, VIEW], messages)
        assert valid(schema, {"tool": VIEW_TOOL, "arguments": {"image": "erp.png"}})
        assert valid(
            schema, {"tool": VIEW_TOOL, "arguments": {"image": "erp.png", "region": region}}
        )
        assert not valid(schema, {"tool": VIEW_TOOL, "arguments": {"image": "other.png"}})
        assert not valid(schema, {"tool": VIEW_TOOL, "arguments": {"image": "erp.png", "page": 2}})
        without: Any = step_schema(TOOLS, messages)
        assert all(
            o["properties"].get("tool", {}).get("const") != VIEW_TOOL for o in without["oneOf"]
        )


def test_a_screen_view_step_is_read_as_its_call() -> None:
    schema: Any = step_schema([*TOOLS, VIEW], conversation("replenish what is low"))
    step = json.dumps({"tool": VIEW_TOOL, "arguments": {"image": "erp.png"}})
    reply, valid_step = parse_step(step, schema, [*TOOLS, VIEW], "s1")
    assert valid_step
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [(VIEW_TOOL, {"image": "erp.png"})]
    assert f"- {VIEW_TOOL}(image: " in catalogue([*TOOLS, VIEW])
