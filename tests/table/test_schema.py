import pytest

from pipeline.table.headers import header_evidence
from pipeline.table.schema import map_columns, type_columns


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


def roles(header: list[str], columns: list[list[str]]) -> dict[str, str]:
    """Field -> header, as the typing decided."""
    return {r.maps_to: r.header for r in type_columns(header, columns) if r.maps_to}


SKUS = ["SKU-10231", "SKU-10232", "SKU-10233"]
NAMES = ["Hex bolt M8x40 (box of 100)", "Hex nut M8 (box of 200)", "Flat washer M8"]


@pytest.mark.parametrize(
    ("header", "field"),
    [
        ("Qty avail.", "on_hand"),
        ("Free stock", "on_hand"),
        ("Balance", "on_hand"),
        ("结存", "on_hand"),
        ("Reorder pt.", "reorder_point"),
        ("Min qty", "reorder_point"),
        ("Safety stock", "reorder_point"),
        ("警戒库存", "reorder_point"),
    ],
)
def test_quantity_headers_no_list_names_map_by_their_words_and_numeric_values(
    header: str, field: str
) -> None:
    found = roles(["Ref.", "Article", header], [SKUS, NAMES, ["412", "38", "1,204"]])
    assert found == {"sku": "Ref.", "name": "Article", field: header}


def test_item_over_a_column_of_codes_is_the_sku_and_article_over_text_the_name() -> None:
    found = roles(["Item", "Article", "Depot"], [SKUS, NAMES, ["WH-01", "WH-01", "WH-02"]])
    assert found == {"sku": "Item", "name": "Article", "warehouse_id": "Depot"}


def test_on_hand_beats_available_and_on_order_is_never_on_hand() -> None:
    header = ["Code", "Description", "On order", "Available", "On hand", "Min"]
    columns = [SKUS, NAMES, ["0", "120", "0"], ["400", "30", "900"], ["412", "38", "1,204"],
               ["150", "120", "300"]]  # fmt: skip
    assert roles(header, columns) == {
        "sku": "Code",
        "name": "Description",
        "on_hand": "On hand",
        "reorder_point": "Min",
    }


def test_a_running_row_number_is_no_quantity_and_dotted_codes_are_skus_not_dates() -> None:
    header = ["序号", "物料编码", "物料名称", "现存量", "安全库存"]
    columns = [["1", "2", "3"], ["01.02.0035", "01.02.0036", "02.01.0011"],
               ["六角螺栓 M10x50", "六角螺母 M10", "气泡膜"], ["1,450 件", "2,380 件", "14 卷"],
               ["400", "600", "10"]]  # fmt: skip
    typed = type_columns(header, columns)
    assert [r.maps_to for r in typed] == [None, "sku", "name", "on_hand", "reorder_point"]
    assert typed[3].unit == "件"
    assert "row number" in typed[0].why


def test_a_date_column_is_never_the_sku() -> None:
    found = roles(
        ["Item", "Name", "Last count"], [SKUS, NAMES, ["20/11/2026", "21/11/2026", "22/11/2026"]]
    )
    assert found["sku"] == "Item" and "Last count" not in found.values()


def test_every_mapping_says_why_and_how_sure() -> None:
    typed = type_columns(["Qty avail.", "Status"], [["12", "40"], ["OK", "Low"]])
    assert typed[0].maps_to == "on_hand" and 0 < typed[0].confidence <= 1
    assert "qty" in typed[0].why and "2/2 quantities" in typed[0].why
    assert typed[1].maps_to is None and "status" in typed[1].why


def test_two_headers_read_as_one_map_by_the_first_when_each_value_is_a_number_and_a_word() -> None:
    header = ["SKU", "Product", "Balance", "Min qty Unit", "Threshold Status"]
    column_values = [
        ["SKU-1", "SKU-2", "SKU-3"],
        ["Bolt", "Nut", "Washer"],
        ["12", "40", "7"],
        ["150 boxes", "120 boxes", "25 pcs"],
        ["60 OK", "12 Low", "8 OK"],
    ]
    roles = type_columns(header, column_values)
    assert roles[3].maps_to == "reorder_point"
    assert "read as one column" in roles[3].why
    # Words that rule a field out keep ruling it out where they come first.
    assert map_columns(["SKU", "Qty on order"], [["SKU-1"], ["40 pcs"]]) == {"sku": 0}
    assert map_columns(["SKU", "Allocated stock"], [["SKU-1"], ["40 pcs"]]) == {"sku": 0}
    # Chinese headers join without a space.
    zh = ["存货编码", "名称", "补货点", "实际库存单位"]
    values = [
        ["SKU-20101", "SKU-20102"],
        ["螺丝 M4", "螺母 M4"],
        ["300", "300"],
        ["880 盒", "120 盒"],
    ]
    assert map_columns(zh, values)["on_hand"] == 3
    assert "on_hand" not in map_columns([*zh[:3], "在途单位"], values)


def test_codes_under_a_header_that_names_something_else_are_not_taken_for_the_sku() -> None:
    header = ["存货编码", "存货名称", "结存", "库位"]
    column_values = [
        ["K", "1", "R"],  # the SKUs, misread
        ["螺丝", "螺母", "垫圈"],
        ["880", "120", "45"],
        ["E-07-01", "E-01-01", "E-11-02"],
    ]
    assert map_columns(header, column_values).get("sku") != 3


def test_words_under_a_misread_header_are_the_name_of_a_stock_table() -> None:
    header = ["Part no.", "B", "In stock", "Min qty"]
    column_values = [
        ["SKU-1", "SKU-2", "SKU-3"],
        ["Hex bolt M8", "Hex nut M8", "Cable tie"],
        ["96", "205", "130"],
        ["150", "120", "100"],
    ]
    assert map_columns(header, column_values)["name"] == 1
    # Without a stock quantity's header, a grid of words is no stock table's names.
    assert "name" not in map_columns(["Part no.", "B"], [["SKU-1"], ["Hex bolt M8"]])


def test_words_beside_named_codes_and_counts_under_unread_headers_are_the_name() -> None:
    # `库存数量`, `警戒库存` and `存货名称` blurred into nothing the vocabulary knows; `货号`
    # read right over its codes: a table of items that counts them, so its words are names.
    header = ["8号", "成行 R量", "货号", "BNN", "作营书称"]
    values = [
        ["21", "22", "23", "24"],
        ["880", "120", "45", "700"],
        ["SKU-20101", "SKU-20102", "SKU-20103", "SKU-20110"],
        ["300", "300", "200", "250"],
        ["不锈钢螺丝 M4", "不锈钢螺母 M4", "弹簧垫圈 M6", "尼龙扎带 150mm"],
    ]
    roles = type_columns(header, values)
    assert roles[4].maps_to == "name" and roles[4].confidence < 0.5  # unsure: to confirm
    # Which count is which is not for values to say: neither is taken.
    assert {r.maps_to for r in roles} == {"sku", "name", None}
    # Codes that no header names, or no column of counts, leave the words unnamed.
    assert "name" not in map_columns(["8号", "成行 R量", "", "BNN", "作营书称"], values)
    assert "name" not in map_columns(header[2:3] + header[4:], values[2:3] + values[4:])


def test_current_stock_beside_available_is_on_hand() -> None:
    header = ["Stock code", "Avail.", "Item description", "Current stock", "Reorder level"]
    values = [["SKU-1", "SKU-2"], ["10", "3"], ["Bolt", "Nut"], ["12", "5"], ["4", "4"]]
    assert map_columns(header, values)["on_hand"] == 3
    assert map_columns(["编码", "可用库存", "当前库存"], [["A-1"], ["3"], ["5"]])["on_hand"] == 2


def test_a_bare_quantity_beside_available_is_on_hand_and_available_alone_still_is() -> None:
    values = [["SKU-1", "SKU-2"], ["12", "5"], ["10", "3"]]
    assert map_columns(["Product code", "Qty", "Avail."], values)["on_hand"] == 1
    assert map_columns(["物料编码", "库存数量", "可用库存"], values)["on_hand"] == 1
    assert map_columns(["SKU", "Stock level", "Free stock"], values)["on_hand"] == 1
    assert map_columns(["SKU", "Qty avail.", "Reorder pt."], values)["on_hand"] == 1


def test_a_menu_sharing_a_few_rows_of_the_table_does_not_take_the_name_from_a_named_column() -> (
    None
):
    menu = ["orders", "Suppliers", "Reports", "", "Settings", "", "", "", "", "", "", ""]
    names = [f"Item {n}" for n in ("washer", "screw", "plug", "tie", "kit", "gloves")] * 2
    on_hand = ["1,204 boxes", "260 boxes", "520 bags", "75 bags", "2 pcs", "310 pairs"] * 2
    codes = [f"SKU-{10230 + k}" for k in range(12)]
    mapping = map_columns(["Purchase", "Free stock", "Article", "Product code"],
                          [menu, on_hand, names, codes])  # fmt: skip
    assert mapping == {"on_hand": 1, "name": 2, "sku": 3}


def test_headers_clipped_with_an_ellipsis_map_by_the_words_they_begin() -> None:
    values = [["SKU-1", "SKU-2"], ["Bolt", "Nut"], ["12", "5"], ["10", "3"], ["4", "4"]]
    clipped = ["Item co…", "Descrip...", "Balan…", "Avail…", "Reorder le..."]
    assert map_columns(clipped, values) == {
        "sku": 0, "name": 1, "on_hand": 2, "reorder_point": 4
    }  # fmt: skip
    # An actual stock clipped in a narrow Chinese column is on hand, over what is available.
    zh = ["货号", "名称", "实际...", "可用..", "警戒..."]
    assert map_columns(zh, values) == {"sku": 0, "name": 1, "on_hand": 2, "reorder_point": 4}
    # A word cut too short to tell, or a header that is not clipped, is not expanded.
    assert "on_hand" not in map_columns(["SKU", "Name", "Ba…"], values[:3])
    assert "on_hand" not in map_columns(["SKU", "Name", "Balan"], values[:3])


def test_a_header_cut_at_its_columns_edge_gives_way_to_an_uncut_one_naming_the_same_field() -> None:
    values = [["Bolt", "Nut"], ["5", "10"], ["42", "38"], ["4", "4"]]
    # "Reorder Q(uantity)" cut to "Reorder C" beside "Safety Sto(ck)": the safety stock is
    # the reorder point; the cut header may name anything that begins with "reorder".
    mapping = map_columns(["Item", "Safety Sto", "Reorder C", "On Hand"], values)
    assert mapping["reorder_point"] == 1
    # Alone, a cut header still names what its whole words name.
    assert (
        map_columns(["Item", "Reorder C", "On Hand"], [values[0], *values[2:]])["reorder_point"]
        == 1
    )


def test_a_quantity_column_with_a_few_misread_cells_is_still_on_hand_but_a_column_of_words_is_not() -> (
    None
):
    blurred = ["205 boxes", "130 bags", "u pes", "240 rolls", "pc8", "152 packs"]
    words = ["In stock", "Low", "Out of stock", "12 left", "In stock", "Low"]
    header = ["SKU", "Product", "QTY ON HING"]
    skus = [f"SKU-1023{i}" for i in range(6)]
    names = [f"Cable tie {i}00 mm" for i in range(1, 7)]
    typed = {r.maps_to: r for r in type_columns(header, [skus, names, blurred])}
    assert typed["on_hand"].header == "QTY ON HING"
    assert typed["on_hand"].confidence < 0.8  # less sure than over clean numbers
    assert "on_hand" not in roles(header, [skus, names, words])


def test_a_column_that_is_available_plus_allocated_on_every_row_is_on_hand_whatever_its_header() -> (
    None
):
    header = ["Code", "Article", "Free stock", "Alloc.", "Avail.", "Min"]
    columns = [SKUS, NAMES, ["412", "38", "1,204"], ["82", "-", "240"], ["330", "38", "964"],
               ["150", "120", "300"]]  # fmt: skip
    typed = {r.header: r for r in type_columns(header, columns)}
    assert typed["Free stock"].maps_to == "on_hand"
    assert "'Avail.' + 'Alloc.'" in typed["Free stock"].why
    assert typed["Avail."].maps_to is None
    # Where the sums do not hold, the header decides as before.
    columns[2] = ["500", "40", "1,300"]
    assert roles(header, columns)["on_hand"] == "Avail."


def test_sure_codes_under_a_header_read_with_its_neighbours_are_the_sku_when_none_names_it() -> (
    None
):
    # `On order` (all dashes) and `SKU` read as one header, its last word misread.
    header = ["Safety stock", "ON ORDER SAU", "Description", "Qty on hand"]
    column_values = [
        ["150", "120", "100"],
        ["SKU-10231", "SKU-10232", "SKU-10310"],
        ["Hex bolt M8x40", "Hex nut M8", "Cable tie 200 mm"],
        ["96", "205", "130"],
    ]
    assert map_columns(header, column_values)["sku"] == 1
    # A header that does name the SKU keeps it, codes elsewhere or not.
    named = ["Bin", "SKU", "Qty on hand"]
    values = [["E-07-01", "E-01-01", "E-11-02"], ["K", "1", "R"], ["96", "205", "130"]]
    assert map_columns(named, values).get("sku") == 1


def test_quantities_with_their_unit_under_an_unread_header_are_on_hand_in_a_table_of_codes() -> (
    None
):
    header = ["Item", "Description", ""]
    codes = ["SKU-10231", "SKU-10232", "SKU-10310", "SKU-10318"]
    names = ["Hex bolt M8x40", "Hex nut M8", "Cable tie 200 mm", "Heat-shrink tube kit"]
    counts = ["96 boxes", "205 boxes", "130 bags", "31 pcs"]
    roles = type_columns(header, [codes, names, counts])
    assert roles[2].maps_to == "on_hand" and roles[2].unit is not None
    assert roles[2].confidence < 0.7  # taken by its values alone: unsure, for a person to confirm
    # Where a header names what is on hand, a silent column of quantities does not take it.
    named = type_columns(["Item", "On hand", ""], [codes, ["1", "2", "3", "4"], counts])
    assert named[1].maps_to == "on_hand" and named[2].maps_to != "on_hand"
    # Nor in a grid with no codes: counted things are not yet a table of stock.
    assert "on_hand" not in map_columns(["Description", ""], [names, counts])


def test_the_one_other_column_of_quantities_under_an_unread_header_is_the_count_left_over() -> None:
    codes = ["SKU-10402", "SKU-10403", "SKU-10410", "SKU-10415"]
    names = ["Safety gloves L", "Safety gloves M", "Dust mask FFP2", "Safety glasses"]
    counts = ["310", "95", "48", "180"]
    minimums = ["200", "200", "40", "120"]
    # `Qty avail.` read as `qtyal.` beside a named reorder point: on hand, unsure.
    roles = type_columns(["Code", "Name", "qtyal.", "Min"], [codes, names, counts, minimums])
    assert roles[2].maps_to == "on_hand" and roles[2].confidence < 0.5
    assert "no header names it" in roles[2].why
    # The reorder point's header lost beside a named on-hand column: the reorder point.
    lost = type_columns(["Item", "Name", "Qty", ""], [codes, names, counts, minimums])
    assert lost[3].maps_to == "reorder_point" and lost[3].confidence < 0.5
    # Two such columns: which is which is not for values to say, so neither is taken.
    two = map_columns(["Item", "Name", "", ""], [codes, names, counts, minimums])
    assert "on_hand" not in two and "reorder_point" not in two
    # A header that names another column keeps it out; so does a grid with no codes.
    assert "on_hand" not in map_columns(
        ["Code", "Name", "On order", "Min"], [codes, names, counts, minimums]
    )
    assert "reorder_point" not in map_columns(["Name", "Qty", ""], [names, counts, minimums])


def test_plain_numbers_under_two_headers_read_as_one_are_the_first_ones() -> None:
    # `Safety stock` and `Status` read as one header over the stock's numbers (badges unread).
    header = ["SAFETY STOCK STATUS", "SKU", "Description", "Qty on hand"]
    values = [
        ["150", "120", "100"],
        ["SKU-10231", "SKU-10232", "SKU-10310"],
        ["Hex bolt M8x40", "Hex nut M8", "Cable tie 200 mm"],
        ["96", "205", "130"],
    ]
    roles = type_columns(header, values)
    assert roles[0].maps_to == "reorder_point" and "read as one column" in roles[0].why
    # Words under it (the status column's own values) are no count.
    values[0] = ["OK", "Low", "OK"]
    assert "reorder_point" not in map_columns(header, values)


def test_status_words_under_an_unread_header_do_not_take_the_name_from_an_article_column() -> None:
    # `Reorder pt.` and `Status` read as one header; the badges landed in a column of their own.
    header = ["Ref.", "Article", "Available", "Reorder pt. Status", ""]
    values = [
        ["SKU-10402", "SKU-10403", "SKU-10410", "SKU-10415"],
        ["Safety gloves L", "Safety gloves M", "Dust mask FFP2", "Safety glasses"],
        ["310", "95", "48", "180"],
        ["200", "200", "40", "120"],
        ["OK", "Reorder", "OK", "OK"],
    ]
    assert map_columns(header, values)["name"] == 1
    # Nor do they where no header names the name at all: they repeat, names do not.
    assert "name" not in map_columns(header[:1] + header[2:], values[:1] + values[2:])


def test_area_codes_under_a_location_header_are_locations_and_the_names_key_the_rows() -> None:
    header = ["商品信息", "规格信息", "库区", "实际库存"]
    values = [["舟山带鱼", "青岛大虾", "启东黄鱼"], ["大", "中", "大"], ["B2", "B1", "A2"],
              ["99", "100", "98"]]  # fmt: skip
    assert map_columns(header, values) == {"name": 0, "warehouse_id": 2, "on_hand": 3}


def test_another_partys_number_is_not_the_items_code() -> None:
    header = ["id", "名称", "数量", "供货商编号"]
    values = [["01001", "01002", "01003"], ["猪肉脯", "芒果干", "碧根果"], ["220", "190", "30"],
              ["1", "1", "2"]]  # fmt: skip
    assert map_columns(header, values)["sku"] == 0
    assert header_evidence("Supplier no.", "sku")[0] == 0


def test_the_one_column_of_counts_under_a_lost_header_in_a_table_of_codes_is_on_hand_unsure() -> (
    None
):
    header = ["Product name", "SKU", "Price", "", ""]
    values = [["Build your own computer", "Lenovo IdeaCentre", "Nikon D5500"],
              ["COMP_CUST", "LE_IC_600", "N5500DS_B-copy"], ["1200.0000", "500.0000", "670.0000"],
              ["USD", "USD", "USD"], ["9999", "10000", "9999"]]  # fmt: skip
    roles = type_columns(header, values)
    assert roles[4].maps_to == "on_hand" and roles[4].confidence < 0.5
    assert roles[2].maps_to is None  # prices are never a count
