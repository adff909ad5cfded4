from __future__ import annotations

from typing import Any

import pytest

from servers.errors import InvalidArgument
from servers.lookup import (
    check_not_swapped,
    check_sku,
    check_warehouse_id,
    closest,
    listing,
    looks_like,
    prefix_of,
)

WAREHOUSES = ["WH-01", "WH-02"]
SKUS = ["SKU-10231", "SKU-10232", "SKU-10402", "SKU-10403", "SKU-10410"]


def refusal(call: object) -> InvalidArgument:
    assert callable(call)
    with pytest.raises(InvalidArgument) as caught:
        call()
    return caught.value


def test_a_known_warehouse_id_passes() -> None:
    check_warehouse_id("WH-02", WAREHOUSES, SKUS)


def test_a_sku_given_as_warehouse_id_is_named_as_a_sku_and_the_warehouses_are_listed() -> None:
    error = refusal(lambda: check_warehouse_id("SKU-12345", WAREHOUSES, SKUS))
    assert (
        error.message
        == "'SKU-12345' looks like a SKU, not a warehouse id; warehouses: WH-01, WH-02"
    )
    assert (error.code, error.field) == ("wrong_kind", "warehouse_id")
    assert error.details == {"valid": WAREHOUSES}


def test_a_near_miss_warehouse_id_suggests_the_right_one() -> None:
    error = refusal(lambda: check_warehouse_id("wh-1", WAREHOUSES, SKUS))
    assert error.message == (
        "unknown warehouse id 'wh-1' (did you mean WH-01?); warehouses: WH-01, WH-02"
    )
    assert error.code == "unknown_warehouse"


def test_an_unknown_warehouse_with_no_near_miss_only_lists_the_valid_ones() -> None:
    error = refusal(lambda: check_warehouse_id("Shanghai", WAREHOUSES, SKUS))
    assert error.message == "unknown warehouse id 'Shanghai'; warehouses: WH-01, WH-02"


def test_an_empty_store_says_there_are_no_warehouses_yet() -> None:
    error = refusal(lambda: check_warehouse_id("WH-01", [], []))
    assert "no warehouses yet" in error.message


def test_an_unknown_sku_suggests_the_closest_known_skus() -> None:
    error = refusal(lambda: check_sku("SKU-10401", SKUS, WAREHOUSES))
    assert error.message.startswith("unknown SKU 'SKU-10401'; closest known SKUs: SKU-10402")
    assert error.code == "unknown_sku"
    suggestions: Any = error.details["suggestions"]
    assert suggestions[0] == "SKU-10402"


def test_suggestions_prefer_the_skus_of_the_warehouse_in_question() -> None:
    error = refusal(lambda: check_sku("SKU-1023", SKUS, WAREHOUSES, nearby=["SKU-10232"]))
    assert error.details["suggestions"] == ["SKU-10232"]


def test_an_unknown_sku_with_nothing_close_gives_examples() -> None:
    error = refusal(lambda: check_sku("bolts", SKUS, WAREHOUSES))
    assert error.message == (
        "unknown SKU 'bolts' and no known SKU is close; "
        "SKUs look like SKU-10231, SKU-10232, SKU-10402"
    )


def test_a_warehouse_id_given_as_sku_is_named_as_a_warehouse_id() -> None:
    error = refusal(lambda: check_sku("WH-01", SKUS, WAREHOUSES))
    assert error.message.startswith("'WH-01' looks like a warehouse id, not a SKU")
    assert (error.code, error.field) == ("wrong_kind", "sku")


def test_a_swapped_sku_and_warehouse_id_are_named_as_swapped() -> None:
    error = refusal(lambda: check_not_swapped("WH-01", "SKU-10402", SKUS, WAREHOUSES))
    assert error.message == (
        "sku 'WH-01' and warehouse_id 'SKU-10402' look swapped; "
        "did you mean sku='SKU-10402', warehouse_id='WH-01'?"
    )
    assert error.details == {"sku": "SKU-10402", "warehouse_id": "WH-01"}


def test_a_pair_in_the_right_order_is_not_swapped() -> None:
    check_not_swapped("SKU-10402", "WH-01", SKUS, WAREHOUSES)
    check_not_swapped("SKU-99999", "WH-09", SKUS, WAREHOUSES)


@pytest.mark.parametrize(
    ("value", "prefix"), [("SKU-10402", "SKU"), ("wh01", "WH"), (" PO-1", "PO"), ("12345", "")]
)
def test_the_prefix_is_the_leading_letters_in_upper_case(value: str, prefix: str) -> None:
    assert prefix_of(value) == prefix


def test_an_id_looks_like_a_kind_only_when_its_prefix_belongs_to_that_kind_alone() -> None:
    assert looks_like("SKU-99999", SKUS, WAREHOUSES)
    assert not looks_like("WH-09", SKUS, WAREHOUSES)
    assert not looks_like("99999", SKUS, WAREHOUSES)


def test_closest_ignores_case() -> None:
    assert closest("sku-10402", SKUS, n=1) == ["SKU-10402"]


def test_long_listings_are_cut_with_the_total() -> None:
    values = [f"WH-{i:02d}" for i in range(25)]
    shown = listing(values)
    assert shown.endswith("WH-19, … (25 in all)")
    assert "WH-20" not in shown
