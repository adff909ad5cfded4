"""`scripted:PATH`: replays recorded assistant turns in order, then says it has nothing more."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pipeline.errors import ConfigError
from pipeline.models import Message, ModelSettings
from pipeline.vlm import ModelOptions, make_model
from pipeline.vlm.scripted import EXHAUSTED, ScriptedModel
from tests.vlm.chat_endpoint import wire_call

SETTINGS = ModelSettings()
HELLO = [Message(role="user", content="Restock what is low.")]


def script(tmp_path: Path, data: Any, name: str = "turns.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def load(path: Path) -> ScriptedModel:
    model = make_model(f"scripted:{path}", ModelOptions())
    assert isinstance(model, ScriptedModel)
    return model


TURNS: list[dict[str, Any]] = [
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            wire_call(
                "call_1",
                "inventory_query_stock",
                '{"warehouse_id": "WH-01", "skus": ["SKU-10402"]}',
            )
        ],
    },
    {
        "role": "assistant",
        "tool_calls": [
            wire_call(
                "call_2",
                "orders_create_replenishment",
                {"sku": "SKU-10402", "warehouse_id": "WH-01", "quantity": 140},
            )
        ],
    },
    {"role": "assistant", "content": "Ordered 140 of SKU-10402 for WH-01."},
]


async def test_turns_are_replayed_in_order(tmp_path: Path) -> None:
    model = load(script(tmp_path, TURNS))

    first = await model.request(HELLO, [], SETTINGS)
    second = await model.request(HELLO, [], SETTINGS)
    third = await model.request(HELLO, [], SETTINGS)

    assert [(c.id, c.name, c.arguments) for c in first.tool_calls] == [
        ("call_1", "inventory_query_stock", {"warehouse_id": "WH-01", "skus": ["SKU-10402"]})
    ]
    assert [(c.id, c.name, c.arguments) for c in second.tool_calls] == [
        (
            "call_2",
            "orders_create_replenishment",
            {"sku": "SKU-10402", "warehouse_id": "WH-01", "quantity": 140},
        )
    ]
    assert (first.content, first.finish_reason) == ("", "tool_calls")
    assert (third.content, third.tool_calls, third.finish_reason) == (
        "Ordered 140 of SKU-10402 for WH-01.",
        [],
        "stop",
    )


async def test_arguments_as_a_json_string_and_as_an_object_parse_the_same(tmp_path: Path) -> None:
    arguments = {"sku": "SKU-1", "warehouse_id": "WH-01", "quantity": 3}
    as_text = {"tool_calls": [{"function": {"name": "f", "arguments": json.dumps(arguments)}}]}
    as_object = {"tool_calls": [{"function": {"name": "f", "arguments": arguments}}]}
    model = load(script(tmp_path, [as_text, as_object]))

    text_turn = await model.request(HELLO, [], SETTINGS)
    object_turn = await model.request(HELLO, [], SETTINGS)

    assert text_turn.tool_calls[0].arguments == object_turn.tool_calls[0].arguments == arguments
    assert text_turn.tool_calls[0].raw_arguments is None


async def test_argument_text_that_is_not_a_json_object_is_kept_raw(tmp_path: Path) -> None:
    turns = [
        {"tool_calls": [{"function": {"name": "f", "arguments": '{"sku": "SKU-1"'}}]},
        {"tool_calls": [{"function": {"name": "f", "arguments": "[1, 2]"}}]},
    ]
    model = load(script(tmp_path, turns))

    cut = await model.request(HELLO, [], SETTINGS)
    listed = await model.request(HELLO, [], SETTINGS)

    assert (cut.tool_calls[0].arguments, cut.tool_calls[0].raw_arguments) == ({}, '{"sku": "SKU-1"')
    assert (listed.tool_calls[0].arguments, listed.tool_calls[0].raw_arguments) == ({}, "[1, 2]")


async def test_a_flat_call_and_calls_without_ids_are_accepted(tmp_path: Path) -> None:
    turns = [
        {"tool_calls": [{"name": "warehouses_list"}, {"name": "orders_list", "arguments": {}}]}
    ]
    model = load(script(tmp_path, turns))

    response = await model.request(HELLO, [], SETTINGS)

    assert [(c.id, c.name) for c in response.tool_calls] == [
        ("call_0_0", "warehouses_list"),
        ("call_0_1", "orders_list"),
    ]


async def test_a_recorded_finish_reason_is_kept(tmp_path: Path) -> None:
    model = load(script(tmp_path, [{"content": "I will ord", "finish_reason": "length"}]))

    response = await model.request(HELLO, [], SETTINGS)

    assert response.truncated


async def test_when_the_turns_run_out_it_answers_a_final_text(tmp_path: Path) -> None:
    model = load(script(tmp_path, TURNS[:1]))

    await model.request(HELLO, [], SETTINGS)
    after = [await model.request(HELLO, [], SETTINGS) for _ in range(2)]

    for response in after:
        assert (response.content, response.tool_calls, response.finish_reason) == (
            EXHAUSTED,
            [],
            "stop",
        )


async def test_an_empty_script_answers_the_final_text_at_once(tmp_path: Path) -> None:
    model = load(script(tmp_path, []))

    response = await model.request(HELLO, [], SETTINGS)

    assert response.content == EXHAUSTED


async def test_turns_may_be_wrapped_in_an_object(tmp_path: Path) -> None:
    model = load(script(tmp_path, {"turns": TURNS[2:]}))

    response = await model.request(HELLO, [], SETTINGS)

    assert response.content == "Ordered 140 of SKU-10402 for WH-01."


async def test_responses_are_named_after_the_script_and_requests_are_kept(tmp_path: Path) -> None:
    model = load(script(tmp_path, TURNS, name="replenish.json"))
    follow_up = [*HELLO, Message(role="assistant", content="ok")]

    first = await model.request(HELLO, [], SETTINGS)
    await model.request(follow_up, [], SETTINGS)

    assert model.name == first.model == "scripted:replenish.json"
    assert model.requests == [HELLO, follow_up]


def test_a_missing_script_is_a_config_error_naming_the_path(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.json"

    with pytest.raises(ConfigError, match="does not exist") as caught:
        load(path)

    assert str(path) in str(caught.value)


def test_a_script_that_is_a_directory_is_a_config_error_naming_the_path(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load(tmp_path)

    assert str(tmp_path) in str(caught.value)


def test_a_script_that_is_not_utf8_is_a_config_error_naming_the_path(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes('[{"content": "caf\u00e9"}]'.encode("latin-1"))

    with pytest.raises(ConfigError) as caught:
        load(path)

    assert str(path) in str(caught.value)


def test_a_script_that_is_not_json_is_a_config_error_naming_the_path(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('[{"content": "hi"', encoding="utf-8")

    with pytest.raises(ConfigError, match="not valid JSON") as caught:
        load(path)

    assert str(path) in str(caught.value)


@pytest.mark.parametrize(
    "data",
    [{"content": "one turn"}, ["text turn"], "turns", 3, {"steps": []}],
    ids=["object-without-turns", "list-of-strings", "string", "number", "wrong-key"],
)
def test_a_script_of_the_wrong_shape_is_a_config_error_naming_the_path(
    tmp_path: Path, data: Any
) -> None:
    path = script(tmp_path, data)

    with pytest.raises(ConfigError, match="list of assistant turns") as caught:
        load(path)

    assert str(path) in str(caught.value)


@pytest.mark.parametrize(
    "turn",
    [
        {"tool_calls": {"name": "warehouses_list"}},
        {"tool_calls": ["warehouses_list"]},
        {"tool_calls": [{"function": None}]},
        {"tool_calls": [{"function": "warehouses_list"}]},
    ],
    ids=["calls-not-a-list", "call-not-an-object", "function-null", "function-a-string"],
)
def test_a_malformed_tool_call_is_a_config_error_naming_the_path_and_turn(
    tmp_path: Path, turn: dict[str, Any]
) -> None:
    path = script(tmp_path, [{"content": "fine"}, turn])

    with pytest.raises(ConfigError) as caught:
        load(path)

    assert str(path) in str(caught.value)
    assert "turn 2" in str(caught.value)


def test_scripted_without_a_path_says_how_to_give_one() -> None:
    with pytest.raises(ConfigError, match=r"--model scripted:PATH"):
        make_model("scripted", ModelOptions())
