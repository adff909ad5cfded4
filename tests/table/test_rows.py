"""Inventory rows from a grid: codes, quantities and warehouse cells as a column reads them."""

from pipeline.models import Table
from pipeline.table.rows import MappedRows, keyed_by_name, to_rows


def test_a_row_number_read_into_the_code_beside_it_is_dropped_from_the_sku() -> None:
    codes = ["2101.02.0035", "2201.02.0036", "2301.02.0041", "2401.03.0112"]
    table = Table(
        header=["序号物料编码", "物料名称", "现存量"],
        cells=[[code, "螺栓", "12"] for code in codes],
    )
    rows = to_rows(table, [[1.0] * 3 for _ in codes]).rows
    assert [row.sku for row in rows] == ["01.02.0035", "01.02.0036", "01.02.0041", "01.03.0112"]
    # Codes that merely begin with digits keep them.
    plain = Table(header=["SKU", "Name", "On hand"], cells=[["100231", "Bolt", "4"],
                  ["100232", "Nut", "5"], ["100310", "Tie", "6"]])  # fmt: skip
    assert [r.sku for r in to_rows(plain, [[1.0] * 3] * 3).rows] == ["100231", "100232", "100310"]


def test_a_pager_read_as_the_table_s_last_line_is_not_a_row() -> None:
    cells = [
        ["WH-01", "SKU-10402", "200", "Safety gloves size L (pair)", "310"],
        ["WH-01", "SKU-10403", "200", "Safety gloves size M (pair)", "95"],
        ["WH-02", "SKU-10620", "40", "Barcode labels 100x150 (roll)", "23"],
        ["Showing", "1-13 ef 30 1 3 3", "", "", "Brovious"],
    ]
    table = Table(
        header=["Site", "Part number", "Reorder level", "Item name", "In stock"], cells=cells
    )
    mapped = to_rows(table, [[1.0] * 5 for _ in cells])
    assert [r.sku for r in mapped.rows] == ["SKU-10402", "SKU-10403", "SKU-10620"]
    assert mapped.sources == [0, 1, 2]
    # A row whose code was misread keeps its place when its numbers were read.
    cells[1][1] = "SKU 1O4O3 x"
    cells[3] = ["WH-02", "SKV 1062l", "20", "Thermal printer ribbon", "61"]
    mapped = to_rows(table.model_copy(update={"cells": cells}), [[1.0] * 5 for _ in cells])
    assert [r.on_hand for r in mapped.rows] == [310, 95, 23, 61]


def warehouses_read(header: str, sites: list[str]) -> list[str | None]:
    """The warehouse each row of a code, name and `sites` column is read with."""
    table = Table(
        header=["SKU", "Name", header],
        cells=[[f"SKU-1023{k}", "Bolt", site] for k, site in enumerate(sites)],
    )
    return [r.warehouse_id for r in to_rows(table, [[1.0] * 3 for _ in sites]).rows]


def test_a_warehouse_cell_whose_hyphen_most_rows_lost_reads_as_the_text_above_would() -> None:
    # Small blurred text: most cells lost the hyphen, one read it as a plus.
    sites = ["WH03", "WH03", "WH 03", "WH+02", "WH03"]
    assert warehouses_read("Site", sites) == ["WH-03", "WH-03", "WH-03", "WH-02", "WH-03"]
    # Other warehouse codes are kept as read.
    other = Table(header=["SKU", "Name", "Site"], cells=[["SKU-10231", "Bolt", "DC-North"]])
    assert to_rows(other, [[1.0] * 3]).rows[0].warehouse_id == "DC-North"


def test_a_neighbours_number_or_dash_read_into_a_code_cell_is_left_out_of_the_sku() -> None:
    codes = ["120 SKU-10403", "- SKU-10231", "SKU-10232"]
    table = Table(header=["Article", "Name", "On hand"], cells=[[c, "Bolt", "12"] for c in codes])
    rows = to_rows(table, [[1.0] * 3 for _ in codes]).rows
    assert [r.sku for r in rows] == ["SKU-10403", "SKU-10231", "SKU-10232"]


def test_a_warehouse_cell_a_neighbours_number_was_read_into_still_names_its_warehouse() -> None:
    # Small text: the 在途 column's quantity read into the warehouse cell beside it.
    sites = ["200 WH-03", "WH-03", "- WH-01", "WH 02", "1,000 WH-03"]
    assert warehouses_read("", sites) == ["WH-03", "WH-03", "WH-01", "WH-02", "WH-03"]


def _mapped(header: list[str], cells: list[list[str]]) -> MappedRows:
    return to_rows(Table(header=header, cells=cells), [[1.0] * len(header) for _ in cells])


def test_a_list_without_codes_is_keyed_by_its_names_and_says_so() -> None:
    mapped = _mapped(
        ["Product name", "Inventory method", "Stock quantity"],
        [
            ["Reversible Horseferry Check Belt", "Track inventory", "0"],
            ["Flower Girl Bracelet", "Track inventory", "0"],
            ["adidas Consortium Campus 80s Running Shoes", "Track inventory", "4"],
        ],
    )
    assert [(r.sku, r.name, r.on_hand) for r in mapped.rows] == [
        (None, "Reversible Horseferry Check Belt", 0),
        (None, "Flower Girl Bracelet", 0),
        (None, "adidas Consortium Campus 80s Running Shoes", 4),
    ]
    assert [(c.header, c.key) for c in mapped.columns() if c.key] == [("Product name", "name")]


def test_rows_keyed_by_names_a_header_names_are_as_keyed_as_coded_rows() -> None:
    header = ["Product name", "Stock quantity"]
    cells = [["Flower Girl Bracelet", "0"], ["Reversible Horseferry Check Belt", "4"]]
    table = Table(header=header, cells=cells)
    assert keyed_by_name(_mapped(header, cells), table)


def test_a_name_merged_over_several_lines_leaves_the_name_key_unsure() -> None:
    header = ["Warehouse", "Product name", "Stock"]
    cells = [["Wujiang", "Barbell", "0"], ["", "", "1"], ["", "Fridge", "2"]]
    table = Table(header=header, cells=cells)
    assert not keyed_by_name(_mapped(header, cells), table)


def test_each_row_keeps_the_unit_written_beside_its_quantity() -> None:
    mapped = _mapped(
        ["ID", "商品名", "库存"],
        [["10001", "可乐", "1000箱"], ["10002", "雪碧", "24瓶"], ["10003", "芬达", "60"]],
    )
    assert [(r.sku, r.on_hand, r.unit) for r in mapped.rows] == [
        ("10001", 1000, "箱"),
        ("10002", 24, "瓶"),
        ("10003", 60, None),
    ]


def test_a_link_arrow_drawn_beside_a_name_or_a_place_is_no_part_of_it() -> None:
    mapped = _mapped(
        ["Item", "Location", "On Hand"],
        [["Tennis short ▸", "RDC ▸", "5"], ["Umpire chair ▶", "Tennis shop Brussels", "0"]],
    )
    assert [(r.name, r.warehouse_id) for r in mapped.rows] == [
        ("Tennis short", "RDC"),
        ("Umpire chair", "Tennis shop Brussels"),
    ]


def test_names_alone_with_nothing_counted_give_no_rows() -> None:
    assert _mapped(["Name", "Category"], [["Bolt", "Fasteners"], ["Nut", "Fasteners"]]).rows == []


def test_the_code_in_brackets_before_a_name_keys_the_row() -> None:
    mapped = _mapped(
        ["Product", "On hand"],
        [["[FURN_7800] Desk Combination", "12"], ["[E-COM11] Cabinet with Doors", "8"]],
    )
    assert [(r.sku, r.name) for r in mapped.rows] == [
        ("FURN_7800", "Desk Combination"),
        ("E-COM11", "Cabinet with Doors"),
    ]
    key = next(c for c in mapped.columns() if c.key)
    assert (key.key, key.key_part) == ("code", "the code in brackets before the name")


def test_a_column_of_barcodes_keys_the_rows_as_barcodes() -> None:
    mapped = _mapped(
        ["药品编号", "药品名", "库存"],
        [["6916119070237", "清咽片", "455"], ["6922242721649", "阿莫西林胶囊", "1140"]],
    )
    assert [r.sku for r in mapped.rows] == ["6916119070237", "6922242721649"]
    assert next(c.key for c in mapped.columns() if c.key) == "barcode"


def test_the_key_kind_follows_the_header_where_the_values_have_no_shape_of_their_own() -> None:
    cells = [["R1", "Breitreifen", "8,00"], ["FG3", "Fahrgestell", "0,00"]]
    mapped = _mapped(["Artikelnummer", "Beschreibung", "Auf Lager"], cells)
    assert next(c.key for c in mapped.columns() if c.key) == "part_number"
    assert [r.on_hand for r in mapped.rows] == [8, 0]


def test_codes_are_kept_exactly_as_the_screen_writes_them() -> None:
    mapped = _mapped(
        ["SKU", "Name", "Qty"],
        [["N5500DS_B-copy", "Nikon Black", "9999"], ["shirt-variant-1-7", "Red Shirt", "100"]],
    )
    assert [r.sku for r in mapped.rows] == ["N5500DS_B-copy", "shirt-variant-1-7"]


def test_item_numbers_that_run_on_under_an_id_header_are_the_key_not_a_row_number() -> None:
    cells = [[str(10001 + k), name, f"{n}箱"] for k, (name, n) in enumerate(
        [("可乐", 1000), ("雪碧", 1000), ("冰露", 96)])]  # fmt: skip
    mapped = _mapped(["ID", "商品名", "库存"], cells)
    assert [(r.sku, r.on_hand) for r in mapped.rows] == [
        ("10001", 1000),
        ("10002", 1000),
        ("10003", 96),
    ]
    # Under `#` starting at 1 they are the rows' numbers: the names key the rows.
    numbered = _mapped(["#", "商品名", "库存"], [["1", *c[1:]] for c in cells[:1]] + [
        ["2", *cells[1][1:]], ["3", *cells[2][1:]]])  # fmt: skip
    assert [r.sku for r in numbered.rows] == [None, None, None]
