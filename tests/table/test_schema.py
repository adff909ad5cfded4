import pytest

from pipeline.table.schema import map_columns


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (
            ["SKU", "Product", "On hand", "Reorder point", "Warehouse"],
            {"sku": 0, "name": 1, "on_hand": 2, "reorder_point": 3, "warehouse_id": 4},
        ),
        (
            ["Location", "Qty", "Part number", "Description", "Min"],
            {"warehouse_id": 0, "on_hand": 1, "sku": 2, "name": 3, "reorder_point": 4},
        ),
        (
            ["ITEM CODE", "ITEM NAME", "STOCK", "THRESHOLD", "WH"],
            {"sku": 0, "name": 1, "on_hand": 2, "reorder_point": 3, "warehouse_id": 4},
        ),
        (
            ["商品编码", "商品名称", "当前库存", "警戒值", "仓库"],
            {"sku": 0, "name": 1, "on_hand": 2, "reorder_point": 3, "warehouse_id": 4},
        ),
        (
            ["Item code", "Status", "Available", "Reorder Pt.", "Last updated"],
            {"sku": 0, "on_hand": 2, "reorder_point": 3},
        ),
    ],
)
def test_header_vocabularies_map_onto_the_schema_in_any_order(
    header: list[str], expected: dict[str, int]
) -> None:
    assert map_columns(header, [[] for _ in header]) == expected


def test_ocr_misreads_of_a_header_still_map_fuzzily() -> None:
    assert map_columns(["SKU", "0n hand", "Reorder polnt"], [[], [], []]) == {
        "sku": 0,
        "on_hand": 1,
        "reorder_point": 2,
    }


def test_a_column_of_sku_shaped_values_is_the_sku_when_no_header_says_so() -> None:
    columns = [["SKU-10231", "SKU-10232"], ["Hex bolt", "Hex nut"], ["12", "30"]]
    assert map_columns(["#", "Product", "Qty"], columns) == {"sku": 0, "name": 1, "on_hand": 2}


def test_headers_that_match_nothing_map_to_nothing() -> None:
    assert map_columns(["Supplier", "Contact", "Phone"], [["Acme"], ["Li Wei"], ["555"]]) == {}
