"""A column mapping a person gives: its text form, the signature it is kept by, and how it lays
over the typed roles."""

import pytest

from pipeline.errors import InputError
from pipeline.table.profiles import (
    format_columns,
    header_signature,
    parse_columns,
    roles_from_mapping,
)
from pipeline.table.schema import type_columns


def test_columns_read_field_header_pairs_and_write_them_back() -> None:
    mapping = parse_columns("on_hand=Free stock, reorder_point=Reorder level")
    assert mapping == {"on_hand": "Free stock", "reorder_point": "Reorder level"}
    assert parse_columns(format_columns(mapping)) == mapping


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("stock=Free stock", "unknown field 'stock'"),
        ("on_hand", "field=header pairs"),
        ("on_hand=A,on_hand=B", "gives on_hand twice"),
        (" , ", "empty"),
    ],
)
def test_a_mapping_that_names_no_field_or_a_field_twice_says_what_is_wrong(
    text: str, why: str
) -> None:
    with pytest.raises(InputError, match=why):
        parse_columns(text)


def test_the_signature_ignores_case_and_punctuation_but_not_order() -> None:
    assert header_signature(["SKU", "Qty avail."]) == header_signature(["sku", "QTY AVAIL"])
    assert header_signature(["SKU", "Qty"]) != header_signature(["Qty", "SKU"])


def test_a_given_field_takes_its_column_and_leaves_the_one_it_was_typed_to() -> None:
    header = ["SKU", "Available", "On hand"]
    typed = type_columns(header, [["SKU-10231"], ["10"], ["12"]])
    assert {r.maps_to: r.index for r in typed if r.maps_to} == {"sku": 0, "on_hand": 2}
    roles, missing = roles_from_mapping(
        header, {"on_hand": "available", "reorder_point": "Min"}, typed, source="given"
    )
    assert [r.maps_to for r in roles] == ["sku", "on_hand", None]
    assert missing == ["reorder_point"]
    assert roles[1].why == "given: on_hand is 'Available'"
