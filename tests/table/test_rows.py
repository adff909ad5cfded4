"""The warehouse a page names in its title, filters or breadcrumb, when its table has none."""

from pipeline.table.rows import page_warehouse


def test_a_warehouse_id_written_right_after_chinese_text_is_the_pages_warehouse() -> None:
    assert page_warehouse(["首页 / 库存管理", "现存量查询一WH-03", "新建 导入"]) == "WH-03"
    assert page_warehouse(["Stock levels", "Warehouse: WH-02 ×"]) == "WH-02"


def test_several_warehouses_on_one_page_name_none_and_a_longer_code_is_no_warehouse() -> None:
    assert page_warehouse(["WH-01", "WH-02", "WH-03"]) is None
    assert page_warehouse(["Order WH-0211X", "SKU-WH-02A"]) is None
