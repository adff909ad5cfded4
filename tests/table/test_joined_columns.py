"""Two columns the reader took for one (a right-aligned quantity one space from a left-aligned
code or name) are cut apart by what their header and cells hold; a column of one kind is not."""

import pytest

from pipeline.models import Table
from pipeline.table.joined_columns import split_fused
from pipeline.table.rows import to_rows


def grid(header: list[str], *rows: list[str]) -> tuple[list[list[str]], list[list[float]]]:
    texts = [header, *rows]
    return texts, [[0.9] * len(r) for r in texts]


def test_a_quantity_one_space_from_a_code_is_cut_into_the_two_columns_its_header_names() -> None:
    texts, confs = grid(
        ["Name", "On hand Part no.", "Reorder pt."],
        ["Flat washer M8", "1,204 boxes SKU-10233", "300"],
        ["Wood screw 4x35", "260 boxes SKU-10240", "80"],
        ["Wall plug 8 mm", "520 bags SKU-10244", "60"],
        ["Cable tie 200 mm", "75 bags SKU-10310", "100"],
        ["Heat-shrink kit", "2 pcs SKU-10318", "25"],
    )
    cut, cut_confs = split_fused(texts, confs)
    assert cut[0] == ["Name", "On hand", "Part no.", "Reorder pt."]
    assert cut[1] == ["Flat washer M8", "1,204 boxes", "SKU-10233", "300"]
    assert [len(r) for r in cut_confs] == [4] * 6
    rows = to_rows(Table(header=cut[0], cells=cut[1:]), cut_confs[1:]).rows
    assert (rows[0].sku, rows[0].on_hand, rows[0].reorder_point) == ("SKU-10233", 1204, 300)


def test_a_stock_one_space_from_a_date_is_cut_between_the_two_names_of_its_header() -> None:
    # `Qty avail.` is one name: the cut is before `Last count`, not after `Qty`.
    texts, confs = grid(
        ["SKU", "Qty avail. Last count", "Min. stock"],
        ["SKU-10231", "412 21/11/2026", "150"],
        ["SKU-10232", "38 23/11/2026", "120"],
        ["SKU-10233", "1,204 27/11/2026", "300"],
        ["SKU-10240", "260 19/11/2026", "80"],
        ["SKU-10244", "520 25/11/2026", "60"],
    )
    cut, cut_confs = split_fused(texts, confs)
    assert cut[0] == ["SKU", "Qty avail.", "Last count", "Min. stock"]
    rows = to_rows(Table(header=cut[0], cells=cut[1:]), cut_confs[1:]).rows
    assert [r.on_hand for r in rows] == [412, 38, 1204, 260, 520]


def test_a_chinese_on_order_column_beside_dotted_codes_is_cut_and_a_dash_is_its_none() -> None:
    texts, confs = grid(
        ["商品名称", "在途 物料编码"],
        ["六角螺栓 M10x50", "500 01.02.0035"],
        ["六角螺母 M10", "- 01.02.0036"],
        ["弹簧垫圈 M10", "- 01.02.0041"],
        ["平垫圈 M12", "1,000 01.03.0112"],
        ["膨胀螺栓 M8x80", "200 01.03.0120"],
    )
    cut, _ = split_fused(texts, confs)
    assert cut[0] == ["商品名称", "在途", "物料编码"]
    assert [row[1:] for row in cut[1:3]] == [["500", "01.02.0035"], ["-", "01.02.0036"]]


def test_a_price_one_space_from_a_name_is_cut_and_the_name_keeps_its_words() -> None:
    texts, confs = grid(
        ["Quantity", "Price Name", "SKU"],
        ["130 bags", "$18.10 Cable tie 200 mm (bag of 100)", "SKU-10310"],
        ["31 pcs", "527.62 Heat-shrink tube kit", "SKU-10318"],
        ["88 pairs", "$7.58 Safety gloves size L (pair)", "SKU-10402"],
        ["240 rolls", "$23.39 Packing tape 48 mm x 66 m", "SKU-10501"],
        ["14 pcs", "$22.39 LED work light 20 W", "SKU-10601"],
    )
    cut, _ = split_fused(texts, confs)
    assert cut[0] == ["Quantity", "Price", "Name", "SKU"]
    assert cut[1] == ["130 bags", "$18.10", "Cable tie 200 mm (bag of 100)", "SKU-10310"]
    assert cut[2][1:3] == ["527.62", "Heat-shrink tube kit"]


@pytest.mark.parametrize(
    ("header", "rows"),
    [
        pytest.param(
            ["Product name", "On hand"],
            [
                ["10 mm hex bolt", "120 pcs"],
                ["12 mm hex bolt", "80 pcs"],
                ["8 mm washer", "1,450 pcs"],
                ["6 mm wall plug", "96 bags"],
                ["20 mm cable tie", "5 bags"],
            ],
            id="names-opening-with-a-size-beside-quantities-with-their-unit",
        ),
        pytest.param(
            ["Stock Product", "Min"],
            [
                ["1,204", "300"],
                ["260", "80"],
                ["520", "60"],
                ["75", "100"],
                ["2", "25"],
            ],
            id="a-header-of-two-names-over-cells-of-one-kind",
        ),
        pytest.param(
            ["Qty", "Price Name"],
            [
                ["130", "S12 bolt pack"],
                ["31", "S8 hex nuts"],
                ["88", "S10 washers"],
                ["240", "S4 screws"],
                ["14", "S6 anchors"],
            ],
            id="names-opening-with-an-s-and-a-number-are-no-prices",
        ),
    ],
)
def test_a_column_of_one_kind_is_not_cut(header: list[str], rows: list[list[str]]) -> None:
    texts, confs = grid(header, *rows)
    assert split_fused(texts, confs) == (texts, confs)


def test_a_name_s_first_word_after_a_fused_number_stays_in_the_name_where_no_unit_repeats() -> None:
    texts, confs = grid(
        ["SKU", "Reorder level Item name", "In stock"],
        ["SKU-10402", "200 Safety gloves size L (pair)", "310"],
        ["SKU-10410", "40 Dust mask FFP2 (box of 20)", "48"],
        ["SKU-10501", "120 Packing tape 48 mm x 66 m", "240"],
        ["SKU-10502", "60 Stretch film 500 mm", "75"],
        ["SKU-10601", "15 LED work light 20 W", "9"],
        ["SKU-10620", "25 AA batteries (pack of 24)", "31"],
    )
    cut, _ = split_fused(texts, confs)
    assert cut[0] == ["SKU", "Reorder level", "Item name", "In stock"]
    assert [row[1:3] for row in cut[1:3]] == [
        ["200", "Safety gloves size L (pair)"],
        ["40", "Dust mask FFP2 (box of 20)"],
    ]


def test_units_that_repeat_down_a_fused_column_stay_with_their_numbers_before_names() -> None:
    texts, confs = grid(
        ["SKU", "On hand Item name"],
        ["SKU-10402", "200 pcs Safety gloves size L (pair)"],
        ["SKU-10410", "40 boxes Dust mask FFP2"],
        ["SKU-10501", "120 pcs Packing tape 48 mm"],
        ["SKU-10502", "60 pcs Stretch film 500 mm"],
        ["SKU-10601", "15 boxes LED work light 20 W"],
    )
    cut, _ = split_fused(texts, confs)
    assert [row[1:3] for row in cut[1:3]] == [
        ["200 pcs", "Safety gloves size L (pair)"],
        ["40 boxes", "Dust mask FFP2"],
    ]


def test_a_price_run_into_its_name_or_read_with_an_s_for_its_dollar_is_still_cut() -> None:
    texts, confs = grid(
        ["Qty", "Price Name"],
        ["130", "$18.10 Cable tie 200 mm (bag of 100)"],
        ["31", "S27.62 Heat-shrink tube kit"],
        ["88", "$7.58Safety gloves size L (pair)"],
        ["240", "$23.39 Packing tape 48 mm x 66 m"],
        ["14", "$22.39LED work light 20 W"],
        ["9", "$S.58 Extension cord 10 m"],
    )
    cut, _ = split_fused(texts, confs)
    assert cut[0] == ["Qty", "Price", "Name"]
    assert [row[2] for row in cut[1:]] == [
        "Cable tie 200 mm (bag of 100)",
        "Heat-shrink tube kit",
        "Safety gloves size L (pair)",
        "Packing tape 48 mm x 66 m",
        "LED work light 20 W",
        "Extension cord 10 m",
    ]
    assert [row[1] for row in cut[1:3]] == ["$18.10", "S27.62"]


def test_a_sparse_on_order_column_read_with_the_names_is_cut_where_its_header_says_so() -> None:
    # Few items are on order and the photo lost the others' dashes: most cells are names alone.
    # A name's first word is no unit (`六角螺栓`), where `件` would be.
    texts, confs = grid(
        ["现存量", "在途 商品名称", "货号"],
        ["1,450 件", "500 六角螺栓 M10x50", "01.02.0035"],
        ["2,380 件", "六角螺母 M10", "01.02.0036"],
        ["960 件", "弹簧垫圈 M10", "01.02.0041"],
        ["318 件", "1,000 平垫圈 M12", "01.03.0112"],
        ["75 件", "200 膨胀螺栓 M8x80", "01.03.0120"],
        ["420 个", "五层瓦楞纸箱 600x400x400", "02.01.0008"],
        ["88 卷", "缠绕膜 500mm", "02.01.0011"],
    )
    cut, _ = split_fused(texts, confs)
    assert cut[0] == ["现存量", "在途", "商品名称", "货号"]
    assert [row[1:3] for row in cut[1:3]] == [["500", "六角螺栓 M10x50"], ["", "六角螺母 M10"]]
    # Under a stock quantity's header, as few cut cells leave the column whole.
    texts[0][1] = "现存量 商品名称"
    assert split_fused(texts, confs)[0][0] == texts[0]


def test_a_headerless_column_of_quantities_each_before_a_warehouse_code_is_cut() -> None:
    # The header line over the two columns lost to glare: the values alone say where.
    texts, confs = grid(
        ["", "Par level", "Item"],
        ["310 WH-01", "200", "SKU-10402"],
        ["95 WH-01", "200", "SKU-10403"],
        ["48WH-01", "40", "SKU-10410"],
        ["180 WH-01", "60", "SKU-10415"],
        ["1,200 WH-02", "300", "SKU-10420"],
    )
    cut, _ = split_fused(texts, confs)
    assert cut[0] == ["", "", "Par level", "Item"]
    assert [row[:2] for row in cut[1:]] == [
        ["310", "WH-01"],
        ["95", "WH-01"],
        ["", "48WH-01"],
        ["180", "WH-01"],
        ["1,200", "WH-02"],
    ]


def test_a_headerless_column_of_names_that_open_with_a_number_is_not_cut() -> None:
    texts, confs = grid(
        ["", "Item"],
        ["5 m extension cord", "SKU-1"],
        ["48 mm packing tape", "SKU-2"],
        ["20 W work light", "SKU-3"],
        ["100 pcs cable ties", "SKU-4"],
        ["6-way power strip", "SKU-5"],
    )
    assert split_fused(texts, confs)[0] == texts
