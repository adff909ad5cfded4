"""The warehouse a page names in its title, filters or breadcrumb, when its table has none."""

from pipeline.models import Table
from pipeline.table.rows import page_warehouse, selected_line, to_rows, warehouse_label


def test_a_warehouse_id_written_right_after_chinese_text_is_the_pages_warehouse() -> None:
    assert page_warehouse(["首页 / 库存管理", "现存量查询一WH-03", "新建 导入"]) == "WH-03"
    assert page_warehouse(["Stock levels", "Warehouse: WH-02 ×"]) == "WH-02"


def test_a_breadcrumbs_warehouse_whose_hyphen_was_lost_or_read_as_a_space_is_the_pages() -> None:
    assert page_warehouse(["Home", "1 Inventory 1", "WH 01", "Stock"]) == "WH-01"
    assert page_warehouse(["Stock levels · WH02"]) == "WH-02"
    assert page_warehouse(["WH 1200 units"]) is None
    assert page_warehouse(["WH 12-04 zone"]) is None and page_warehouse(["WH2.5 m"]) is None


def test_a_breadcrumbs_warehouse_whose_hyphen_was_misread_in_small_text_is_the_pages() -> None:
    assert page_warehouse(["Home / Inventory / W+02 / Stock levels"]) == "WH-02"
    assert page_warehouse(["Stock — WH—03"]) == "WH-03"
    assert page_warehouse(["WH·01 · Stock"]) == "WH-01"
    assert page_warehouse(["Inventory / WH:01 / Stock levels"]) == "WH-01"
    assert page_warehouse(["Warehouse: WH+-02 In stock Low stock"]) == "WH-02"
    assert page_warehouse(["Search", "WH4-02", "Stock levels"]) == "WH-02"
    assert page_warehouse(["W+1200 units", "SW+02"]) is None


def test_a_filter_chips_close_mark_read_into_its_warehouse_still_names_the_pages() -> None:
    assert page_warehouse(["Stock levels", "WAREHOUSE: WH-02x1 COUNT DUE"]) == "WH-02"
    assert page_warehouse(["Warehouse: WH-03X|"]) == "WH-03"
    assert warehouse_label("WH-01x") == "WH-01"
    # Letters or digits after the mark make another code, not a chip.
    assert page_warehouse(["WH-01xL", "WH-2x4", "WH-03x12"]) is None


def test_several_warehouses_on_one_page_name_none_and_a_longer_code_is_no_warehouse() -> None:
    assert page_warehouse(["WH-01", "WH-02", "WH-03"]) is None
    assert page_warehouse(["Order WH-0211X", "SKU-WH-02A"]) is None


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


def test_among_several_warehouses_the_one_a_tab_bar_shows_selected_is_the_pages() -> None:
    context = ["Stock", "WH-01", "WH-02", "WH-03", selected_line("WH-02")]
    assert page_warehouse(context) == "WH-02"
    assert warehouse_label(" WH-03 ") == "WH-03" and warehouse_label("Depot WH-03") is None


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


def test_a_warehouse_cell_whose_hyphen_most_rows_lost_reads_as_the_text_above_would() -> None:
    # Small blurred text: most cells lost the hyphen, one read it as a plus.
    sites = ["WH03", "WH03", "WH 03", "WH+02", "WH03"]
    table = Table(
        header=["SKU", "Name", "Site"],
        cells=[[f"SKU-1023{k}", "Bolt", site] for k, site in enumerate(sites)],
    )
    rows = to_rows(table, [[1.0] * 3 for _ in sites]).rows
    assert [r.warehouse_id for r in rows] == ["WH-03", "WH-03", "WH-03", "WH-02", "WH-03"]
    # Other warehouse codes are kept as read.
    other = Table(header=["SKU", "Name", "Site"], cells=[["SKU-10231", "Bolt", "DC-North"]])
    assert to_rows(other, [[1.0] * 3]).rows[0].warehouse_id == "DC-NORTH"


def test_a_neighbours_number_or_dash_read_into_a_code_cell_is_left_out_of_the_sku() -> None:
    codes = ["120 SKU-10403", "- SKU-10231", "SKU-10232"]
    table = Table(header=["Article", "Name", "On hand"], cells=[[c, "Bolt", "12"] for c in codes])
    rows = to_rows(table, [[1.0] * 3 for _ in codes]).rows
    assert [r.sku for r in rows] == ["SKU-10403", "SKU-10231", "SKU-10232"]
