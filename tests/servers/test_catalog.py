from __future__ import annotations

import io

import pytest
from hypothesis import given, strategies as st

from servers.catalog import (
    STOCK_COLUMNS,
    parse_stock_csv,
    parse_warehouses_csv,
    seed_data,
    write_stock_csv,
)
from servers.errors import CsvRowError, InputError
from store.models import ItemCode, StockRecord

HEADER = ",".join(STOCK_COLUMNS)


def parse(text: str) -> list[StockRecord]:
    return parse_stock_csv(io.StringIO(text, newline=""))


def line_of_error(text: str) -> CsvRowError:
    with pytest.raises(CsvRowError) as caught:
        parse(text)
    return caught.value


def test_the_seed_catalogue_has_three_warehouses_and_43_stock_rows() -> None:
    warehouses, records = seed_data()
    assert [w.warehouse_id for w in warehouses] == ["WH-01", "WH-02", "WH-03"]
    assert len(records) == 43
    assert records[0] == StockRecord(
        sku="SKU-10231",
        name="Hex bolt M8x40 (box of 100)",
        warehouse_id="WH-01",
        on_hand=412,
        reorder_point=150,
        on_order=0,
        codes=(
            ItemCode(kind="barcode", code="4006381333931"),
            ItemCode(kind="part_number", code="DIN933-M8x40"),
            ItemCode(kind="alias", code="六角螺栓 M8x40"),
        ),
    )


def test_barcode_part_number_and_aliases_columns_give_the_items_codes_byte_for_byte() -> None:
    plain, coded = parse(
        f"{HEADER},barcode,aliases,part_number\n"
        "SKU-1,Bolt,WH-01,5,10,0,,,\n"
        "SKU-2,Nut,WH-02,0,0,3, 4006381333948 ,nut M8|螺母 M8|nut M8,shirt-variant-1-7\n"
    )
    assert plain.codes == ()
    assert coded.codes == (
        ItemCode(kind="barcode", code="4006381333948"),
        ItemCode(kind="part_number", code="shirt-variant-1-7"),
        ItemCode(kind="alias", code="nut M8"),
        ItemCode(kind="alias", code="螺母 M8"),
    )


def test_an_export_without_codes_keeps_the_six_import_columns() -> None:
    out = io.StringIO()
    write_stock_csv(parse(f"{HEADER}\nSKU-1,Bolt,WH-01,5,10,0\n"), out)
    assert out.getvalue().splitlines()[0] == HEADER


def test_an_export_with_codes_parses_back_to_the_same_codes() -> None:
    _, records = seed_data()
    out = io.StringIO()
    write_stock_csv(records, out)
    assert out.getvalue().splitlines()[0] == f"{HEADER},barcode,part_number,aliases"
    assert parse(out.getvalue()) == records


def test_a_well_formed_file_parses_with_spaces_trimmed_and_blank_lines_skipped() -> None:
    records = parse(f"{HEADER}\n SKU-1 , Bolt ,WH-01, 5 ,10,0\n\n,,,,,\nSKU-2,Nut,WH-02,0,0,3\n")
    assert [(r.sku, r.name, r.warehouse_id, r.on_hand) for r in records] == [
        ("SKU-1", "Bolt", "WH-01", 5),
        ("SKU-2", "Nut", "WH-02", 0),
    ]


def test_columns_may_come_in_any_order_and_any_case() -> None:
    (record,) = parse(
        "ON_ORDER,reorder_point,on_hand,warehouse_id,name,sku\n1,2,3,WH-01,Bolt,SKU-1\n"
    )
    assert (record.on_order, record.reorder_point, record.on_hand) == (1, 2, 3)


@pytest.mark.parametrize(
    ("cell", "problem"),
    [
        ("-5", "on_hand must be a whole number of 0 or more, got '-5'"),
        ("12a", "on_hand must be a whole number of 0 or more, got '12a'"),
        ("", "on_hand must be a whole number of 0 or more, got ''"),
        ("1,204", "expected 6 fields, found 7"),
    ],
)
def test_a_bad_count_is_reported_with_its_line_number(cell: str, problem: str) -> None:
    text = f"{HEADER}\nSKU-1,Bolt,WH-01,5,10,0\nSKU-2,Nut,WH-01,{cell},10,0\n"
    error = line_of_error(text)
    assert error.line == 3
    assert str(error) == f"line 3: {problem}"


def test_an_empty_sku_is_reported() -> None:
    assert str(line_of_error(f"{HEADER}\n,Bolt,WH-01,5,10,0\n")) == "line 2: sku is empty"


def test_a_repeated_sku_and_warehouse_names_the_line_it_repeats() -> None:
    error = line_of_error(f"{HEADER}\nSKU-1,Bolt,WH-01,5,10,0\nSKU-1,Bolt,WH-01,6,10,0\n")
    assert str(error) == "line 3: SKU-1 in WH-01 already appears on line 2"


def test_one_sku_with_two_names_is_reported() -> None:
    error = line_of_error(f"{HEADER}\nSKU-1,Bolt,WH-01,5,10,0\nSKU-1,Nut,WH-02,6,10,0\n")
    assert str(error) == "line 3: SKU-1 is named 'Nut' here but 'Bolt' on line 2"


def test_a_missing_or_unexpected_column_is_reported_on_line_1() -> None:
    error = line_of_error("sku,name,warehouse_id,on_hand,reorder_pt\n")
    assert error.line == 1
    assert "missing column(s) reorder_point, on_order" in str(error)
    assert "unexpected column(s) reorder_pt" in str(error)


def test_a_line_number_counts_physical_lines_of_quoted_multiline_names() -> None:
    text = f'{HEADER}\nSKU-1,"Bolt\nlong",WH-01,5,10,0\nSKU-2,Nut,WH-01,x,10,0\n'
    assert line_of_error(text).line == 4


def test_an_empty_file_asks_for_a_header() -> None:
    with pytest.raises(InputError, match="expected a header"):
        parse("")


def test_warehouses_parse_with_name_and_city() -> None:
    (warehouse,) = parse_warehouses_csv(["warehouse_id,name,city", "WH-09,Overflow,Ningbo"])
    assert (warehouse.warehouse_id, warehouse.name, warehouse.city) == (
        "WH-09",
        "Overflow",
        "Ningbo",
    )


_text = (
    st.text(
        alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")),
        min_size=1,
        max_size=20,
    )
    .map(str.strip)
    .filter(bool)
)
_count = st.integers(min_value=0, max_value=10**9)


@given(
    st.lists(
        st.tuples(_text, _text, _text, _count, _count, _count),
        max_size=8,
        unique_by=lambda row: row[0],
    )
)
def test_written_csv_parses_back_to_the_same_records(
    rows: list[tuple[str, str, str, int, int, int]],
) -> None:
    records = [
        StockRecord(sku=sku, name=name, warehouse_id=wh, on_hand=a, reorder_point=b, on_order=c)
        for sku, name, wh, a, b, c in rows
    ]
    out = io.StringIO()
    write_stock_csv(records, out)
    assert parse(out.getvalue()) == records


def test_warehouses_may_carry_aliases_separated_by_bars() -> None:
    (warehouse,) = parse_warehouses_csv(
        ["warehouse_id,name,city,aliases", "WH-09,Overflow,Ningbo,宁波仓| overflow depot |"]
    )
    assert warehouse.aliases == ("宁波仓", "overflow depot")
