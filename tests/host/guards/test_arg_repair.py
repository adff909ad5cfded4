from typing import Any

import pytest

from pipeline.host.guards.arg_repair import arg_repair
from pipeline.models import ToolCall
from tests.host.guards.states import call, state

CREATE = "orders_create_replenishment"


@pytest.mark.parametrize(
    ("sent", "repaired"),
    [
        ({"sku": "SKU-1", "warehouse_id": "WH-01", "quantity": "202"}, {"quantity": 202}),
        ({"sku": "SKU-1", "warehouse_id": "WH-01", "quantity": "２０２"}, {"quantity": 202}),
        ({"sku": "SKU-1", "warehouse_id": "WH-01", "quantity": "1,204"}, {"quantity": 1204}),
        (
            {"sku": "ＳＫＵ－１", "warehouse_id": "ＷＨ－０１", "quantity": 5},
            {"sku": "SKU-1", "warehouse_id": "WH-01"},
        ),
        ({"sku": {"value": "SKU-1"}, "warehouse_id": "WH-01", "quantity": 5}, {"sku": "SKU-1"}),
        ({"sku": "SKU-1", "warehouse_id": "WH-01", "quantity": {"value": "5"}}, {"quantity": 5}),
        (
            {
                "sku": "SKU-1",
                "warehouse_id": "WH-01",
                "quantity": 5,
                "observed_at": "２０２６－１１－２８Ｔ１０：０５：００",
            },
            {"observed_at": "2026-11-28T10:05:00"},
        ),
    ],
)
def test_arguments_are_reshaped_to_the_schema(
    sent: dict[str, Any], repaired: dict[str, Any]
) -> None:
    decision = arg_repair(call(CREATE, **sent), state())
    assert decision.action == "repair" and decision.call is not None
    assert decision.call.arguments == {**sent, **repaired}


def test_a_lone_value_for_an_array_is_wrapped_in_a_list() -> None:
    decision = arg_repair(
        call("inventory_query_stock", warehouse_id="WH-01", skus="SKU-1"), state()
    )
    assert decision.call is not None and decision.call.arguments["skus"] == ["SKU-1"]


def test_wrapped_arguments_are_unwrapped() -> None:
    decision = arg_repair(call("warehouses_list", arguments={}), state())
    assert decision.action == "allow" or (
        decision.call is not None and decision.call.arguments == {}
    )
    wrapped = call(CREATE, arguments={"sku": "SKU-1", "warehouse_id": "WH-01", "quantity": 5})
    fixed = arg_repair(wrapped, state())
    assert fixed.call is not None
    assert fixed.call.arguments == {"sku": "SKU-1", "warehouse_id": "WH-01", "quantity": 5}


def test_enum_case_is_fixed_when_it_matches_one_member() -> None:
    decision = arg_repair(call("orders_list", status="OPEN"), state())
    assert decision.call is not None and decision.call.arguments == {"status": "open"}
    alias = arg_repair(call("orders_list", status="canceled"), state())
    assert alias.call is not None and alias.call.arguments == {"status": "cancelled"}


@pytest.mark.parametrize(
    "sent",
    [
        {"sku": "SKU-1", "warehouse": "WH-01", "quantity": 5},
        {"sku": "SKU-1", "quantity": 5},
        {"sku": "SKU-1", "warehouse_id": "WH-01", "quantity": "about 20"},
        {"sku": "SKU-1", "warehouse_id": "WH-01", "quantity": "２０．０９"},
    ],
    ids=["wrong-name", "missing", "words", "not-an-integer"],
)
def test_fields_are_never_added_renamed_or_dropped_and_ambiguity_stays(
    sent: dict[str, Any],
) -> None:
    decision = arg_repair(call(CREATE, **sent), state())
    assert decision.action == "allow"


def test_full_width_punctuation_in_argument_text_is_read_as_json() -> None:
    broken = ToolCall(
        id="c",
        name=CREATE,
        arguments={},
        raw_arguments='｛"sku"："SKU-1"，"warehouse_id"："WH-01"，"quantity"：5｝',
    )
    decision = arg_repair(broken, state())
    assert decision.call is not None
    assert decision.call.arguments == {"sku": "SKU-1", "warehouse_id": "WH-01", "quantity": 5}
    assert decision.call.raw_arguments is None


def test_the_decision_says_what_changed() -> None:
    decision = arg_repair(
        call(CREATE, sku="SKU-1", warehouse_id="WH-01", quantity="２０２"), state()
    )
    assert decision.message == 'reshaped quantity: "２０２" -> 202'
