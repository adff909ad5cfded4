"""Records in cards, tiles and lists, read from a page's text lines (as OCR gives them)."""

from collections.abc import Sequence

from pipeline.models import TextLine
from pipeline.table.cards import Cards, cards_table, read_cards


def line(text: str, x: int, y: int, width: int = 200, height: int = 16) -> TextLine:
    return TextLine(text=text, box=(x, y, x + width, y + height), confidence=0.98)


def cards_in(lines: Sequence[TextLine]) -> Cards:
    """What `read_cards` finds in `lines`, which must be a page of cards."""
    found = read_cards(lines)
    assert found is not None
    return found


def tile(x: int, y: int, name: str, code: str, values: list[str], badge: str) -> list[TextLine]:
    lines = [line(name, x, y), line(badge, x + 230, y + 10, 50), line(code, x, y + 22, 90)]
    at = x
    for value in values:
        lines.append(line(value, at - 40, y + 50, 110))
        at += 130
    return lines


TILES = [
    *tile(300, 150, "Kraft mailer box 310x220", "BX-310-K", ["On hand 12 pcs", "Min 40", "WH-02"], "Low"),
    *tile(660, 150, "Kraft mailer box 250x180", "BX-250-K", ["On hand 148 pcs", "Min 60", "WH-02"], "Healthy"),
    *tile(300, 300, "Padded envelope C5", "EN-C5-P", ["On hand 64 packs", "Min 20", "WH-02"], "Healthy"),
    *tile(660, 300, "Fragile tape 50 mm", "TP-50-F", ["On hand 22 rolls", "Min 24", "WH-02"], "Low"),
    line("Packaging", 300, 60, 120, 24),
    line("Dashboard", 20, 160, 100),
    line("Transfers", 20, 200, 100),
]  # fmt: skip


def test_tiles_are_read_row_by_row_with_their_labelled_values_and_no_badges() -> None:
    found = cards_in(TILES)
    assert found.layout == "cards"
    assert [(r.sku, r.name, r.on_hand, r.reorder_point, r.warehouse_id) for r in found.records] == [
        ("BX-310-K", "Kraft mailer box 310x220", "12 pcs", "40", "WH-02"),
        ("BX-250-K", "Kraft mailer box 250x180", "148 pcs", "60", "WH-02"),
        ("EN-C5-P", "Padded envelope C5", "64 packs", "20", "WH-02"),
        ("TP-50-F", "Fragile tape 50 mm", "22 rolls", "24", "WH-02"),
    ]
    assert "Packaging" in found.context and "Dashboard" in found.context


def test_a_tile_icon_read_as_a_character_beside_its_code_does_not_hide_the_code() -> None:
    # A photo's tile icon the engine read as `8`, unsure, level with the code and close to it.
    icon = TextLine(text="8", box=(260, 164, 290, 190), confidence=0.52)
    found = cards_in([*TILES, icon])
    assert [r.sku for r in found.records] == ["BX-310-K", "BX-250-K", "EN-C5-P", "TP-50-F"]


def test_an_icon_read_as_a_sure_digit_before_the_code_does_not_hide_the_code() -> None:
    # The engine is sure of the `8` it reads for the cube icon, as wide as it is tall, a
    # word's gap left of the code: the code still heads its tile.
    icon = TextLine(text="8", box=(620, 317, 648, 343), confidence=0.73)
    found = cards_in([*TILES, icon])
    assert [r.sku for r in found.records] == ["BX-310-K", "BX-250-K", "EN-C5-P", "TP-50-F"]
    assert found.records[3].on_hand == "22 rolls"


def test_a_value_after_its_label_is_no_icon_however_wide_its_box() -> None:
    lines = [*TILES[:-3], line("SKU-20001", 1000, 150, 90), line("On hand 5", 1000, 180, 90)]
    lines += [line("Reorder at", 1000, 205, 90), line("8", 1094, 203, 20, 20)]
    found = cards_in(lines)
    assert [r.reorder_point for r in found.records if r.sku == "SKU-20001"] == ["8"]


def test_a_badge_misspelt_on_a_photo_is_still_left_out_of_the_name() -> None:
    # The badge sits level with the name's second line; each tile's reading of it lost a
    # different letter, so no two tiles repeat it word for word.
    lines = [
        *tile(300, 150, "Kraft mailer box", "BX-310-K", ["On hand 12 pcs", "Min 40", "WH-02"], "Heathy"),
        *tile(660, 150, "Double-wall carton", "BX-600-D", ["On hand 1,450 pcs", "Min 400", "WH-02"], "Heaithy"),
        *tile(300, 300, "Padded envelope C5", "EN-C5-P", ["On hand 64 packs", "Min 20", "WH-02"], "Healthy"),
    ]  # fmt: skip
    found = cards_in(lines)
    assert [r.name for r in found.records] == [
        "Kraft mailer box",
        "Double-wall carton",
        "Padded envelope C5",
    ]


def test_a_phone_list_with_labelled_values_on_one_line_and_a_filter_chip() -> None:
    lines = [line("仓库: WH-03", 20, 100, 120)]
    for k, (name, code, values) in enumerate(
        [
            ("膨胀螺栓 M8x80", "01.03.0120", "库存 75 · 安全 120"),
            ("五层瓦楞纸箱", "02.01.0008", "库存 420 · 安全 300"),
            ("气泡膜 1.2m x 50m", "02.01.0011", "库存 14·安全 10"),
        ]
    ):
        y = 200 + 140 * k
        lines += [line(name, 40, y), line(code, 40, y + 30, 120), line(values, 40, y + 60, 220)]
    found = cards_in(lines)
    assert found.layout == "list"
    assert [(r.sku, r.on_hand, r.reorder_point) for r in found.records] == [
        ("01.03.0120", "75", "120"),
        ("02.01.0008", "420", "300"),
        ("02.01.0011", "14", "10"),
    ]
    assert found.records[0].labels == {"on_hand": "库存", "reorder_point": "安全"}
    table, _, roles = cards_table(found)
    assert table.header == ["SKU", "Name", "库存", "安全"]
    assert [r.maps_to for r in roles] == ["sku", "name", "on_hand", "reorder_point"]


def test_several_labelled_values_read_as_one_line_are_cut_at_each_label() -> None:
    lines = []
    for k, code in enumerate(["BX-310-K", "BX-250-K", "BX-420-K"]):
        lines += [
            line(f"Mailer {k}", 40, 100 + 80 * k),
            line(code, 40, 120 + 80 * k, 90),
            line(f"On hand {10 + k} pcs Min 40 WH-02", 40, 140 + 80 * k, 260),
        ]
    found = cards_in(lines)
    assert [(r.on_hand, r.reorder_point, r.warehouse_id) for r in found.records] == [
        ("10 pcs", "40", "WH-02"),
        ("11 pcs", "40", "WH-02"),
        ("12 pcs", "40", "WH-02"),
    ]


def test_a_table_of_codes_with_a_summary_line_is_no_page_of_cards() -> None:
    lines = [line(f"SKU-1023{k}", 40, 100 + 30 * k, 90) for k in range(8)]
    lines += [line("Below minimum 4", 400, 90, 140), line("Below minimum 2", 400, 330, 140)]
    assert read_cards(lines) is None


def stacked_tile(
    x: int, y: int, name: str, code: str, pairs: list[tuple[str, str]]
) -> list[TextLine]:
    """A narrow tile whose labels sit above their values (or wrap onto the value's line)."""
    lines = [line(name, x, y), line(code, x, y + 22, 90)]
    for k, (label, value) in enumerate(pairs):
        lines += [line(label, x + 110 * k, y + 50, 90), line(value, x + 110 * k, y + 68, 90)]
    return lines


def test_labels_written_above_their_values_or_wrapped_onto_them_are_read_with_them() -> None:
    lines = [
        *stacked_tile(300, 150, "Kraft mailer box", "BX-310-K",
                      [("Units in stock", "12 pcs"), ("Reorder", "level 40"), ("Depot WH-", "02")]),
        *stacked_tile(660, 150, "White mailer box", "BX-310-W",
                      [("Units in stock", "0 pcs"), ("Reorder", "level 25"), ("Depot", "WH-02")]),
        *stacked_tile(300, 300, "Padded envelope", "EN-C5-P",
                      [("Units in stock", "64 packs"), ("Reorder", "level 20"), ("Depot", "WH-03")]),
    ]  # fmt: skip
    found = cards_in(lines)
    assert [(r.sku, r.on_hand, r.reorder_point, r.warehouse_id) for r in found.records] == [
        ("BX-310-K", "12 pcs", "40", "WH-02"),
        ("BX-310-W", "0 pcs", "25", "WH-02"),
        ("EN-C5-P", "64 packs", "20", "WH-03"),
    ]
    assert found.records[0].labels["reorder_point"] == "Reorder level"


def test_a_tile_whose_on_hand_is_unreadable_stays_a_record_and_a_single_digit_is_a_value() -> None:
    lines = [
        *tile(300, 150, "Kraft mailer box 310x220", "BX-310-K", ["On hand 12 pcs", "Min 40", "WH-02"], "Low"),
        *tile(660, 150, "Bubble wrap 100 cm", "FL-100-B", ["On hand 9 rolls", "Min", "WH-02"], "Healthy"),
        line("6", 750, 216, 10),
        *tile(300, 300, "Thermal labels", "LB-100-T", ["On hand ~~", "Min 300", "WH-02"], "Healthy"),
        *tile(660, 300, "Void fill paper 50 m", "DV-050-P", ["On hand 27 rolls", "Min 10", "WH-02"], "Healthy"),
    ]  # fmt: skip
    found = cards_in(lines)
    assert [(r.sku, r.on_hand, r.reorder_point) for r in found.records] == [
        ("BX-310-K", "12 pcs", "40"),
        ("FL-100-B", "9 rolls", "6"),
        ("LB-100-T", "", "300"),
        ("DV-050-P", "27 rolls", "10"),
    ]


def test_variants_sharing_a_product_name_each_keep_it_and_their_code_as_written() -> None:
    entries = [("Red Shirt", "shirt-variant-1-7"), ("Black Shirt", "shirt-variant-4-7"),
               ("White Shirt", "shirt-variant-5-7"), ("Red Shirt", "shirt-variant-1-8")]  # fmt: skip
    lines: list[TextLine] = []
    for k, (name, code) in enumerate(entries):
        y = 150 + 112 * k
        lines += [
            line(name, 405, y, 90),
            line(f"SKU - {code}", 405, y + 22, 140),
            line("Color: Red, Size: M", 405, y + 44, 130),
            line("100 Qty", 820, y + 22, 55),
        ]
    found = cards_in(lines)
    assert [(r.sku, r.name, r.on_hand) for r in found.records] == [
        (code, name, "100") for name, code in entries
    ]
