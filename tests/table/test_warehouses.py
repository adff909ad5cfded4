"""The warehouse a page names in its title, filters or breadcrumb, when its table has none; and
the warehouse a column's cell names."""

from pipeline.table.warehouses import (
    page_warehouse,
    selected_line,
    warehouse_in_cell,
    warehouse_label,
)


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


def test_among_several_warehouses_the_one_a_tab_bar_shows_selected_is_the_pages() -> None:
    context = ["Stock", "WH-01", "WH-02", "WH-03", selected_line("WH-02")]
    assert page_warehouse(context) == "WH-02"
    assert warehouse_label(" WH-03 ") == "WH-03" and warehouse_label("Depot WH-03") is None


def test_a_cell_with_a_neighbours_number_or_dash_read_into_it_names_its_warehouse() -> None:
    assert warehouse_in_cell("200 WH-03") == "WH-03"
    assert warehouse_in_cell("— WH-01") == "WH-01"
    # Words that are no number stay: a cell of text is not a warehouse.
    assert warehouse_in_cell("Depot WH-03") is None
    assert warehouse_in_cell("WH-01 WH-02") is None
