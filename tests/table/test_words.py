"""A column's names read together: a word misread by one look-alike letter in one row takes
the form other rows of the column read it in; a neighbour's dash is no part of a name; a
dimension sign is spaced alike on both sides."""

from pipeline.models import Table
from pipeline.table.rows import to_rows
from pipeline.table.words import known_words


def _names_read_from(names: list[str]) -> list[str | None]:
    """The names rows come out with, from a column of names read as `names`."""
    table = Table(
        header=["SKU", "Name", "On hand"],
        cells=[[f"SKU-{10231 + k}", name, "12"] for k, name in enumerate(names)],
    )
    return [row.name for row in to_rows(table, [[1.0] * 3 for _ in names]).rows]


def test_a_word_misread_by_a_look_alike_letter_takes_the_form_other_rows_read() -> None:
    read = [
        "Hex bolt M8x40 (box of 100)",
        "Flat washer M8 (bok of 500)",
        "Wood screw 4x35 (box of 250)",
        "Safety gloves size L (pair)",
        "Safety gioves size M (pair)",
        "Safety gloves size S (pair)",
    ]
    assert _names_read_from(read) == [
        "Hex bolt M8x40 (box of 100)",
        "Flat washer M8 (box of 500)",
        "Wood screw 4x35 (box of 250)",
        "Safety gloves size L (pair)",
        "Safety gloves size M (pair)",
        "Safety gloves size S (pair)",
    ]


def test_a_word_one_doubled_letter_short_takes_the_form_other_rows_read() -> None:
    read = ["Wal plug 8 mm", "Wall plug 10 mm", "Wall plug 12 mm"]
    assert _names_read_from(read) == ["Wall plug 8 mm", "Wall plug 10 mm", "Wall plug 12 mm"]


def test_words_that_differ_otherwise_or_that_no_two_rows_share_are_kept() -> None:
    # `Cabie` against one `Cable`: either may be the misreading. `bag` and `box` differ by
    # more than a letter, `fine` and `line` by letters told apart; `M8` and `M6`, `L` and
    # `M` are no words of three letters.
    read = [
        "Cabie tie 200 mm",
        "Cable tie 300 mm",
        "Hex nut M8 (bag of 200)",
        "Hex bolt M8 (box of 100)",
        "Hex bolt M6 (box of 100)",
        "Safety gloves size L",
        "Safety gloves size M",
        "Fishing line 0.3 mm",
        "Fishing line 0.5 mm",
        "Sand paper fine",
    ]
    assert _names_read_from(read) == read


def test_an_empty_cells_dash_read_into_the_name_beside_it_is_left_out() -> None:
    read = ["不锈钢螺丝 M4", "一 弹簧垫圈 M6", "尼龙扎带 150mm", "— Heat-shrink tube kit",
            "一次性手套 L码", "防尘口罩 KN95"]  # fmt: skip
    assert _names_read_from(read) == [
        "不锈钢螺丝 M4", "弹簧垫圈 M6", "尼龙扎带 150mm", "Heat-shrink tube kit",
        "一次性手套 L码", "防尘口罩 KN95",
    ]  # fmt: skip
    # Where most names start with a dash, it is how this screen writes them: kept.
    read = ["- Hex bolt M8x40", "- Hex nut M8", "- Wall plug 8 mm", "Cable tie 200 mm"]
    assert _names_read_from(read) == read


def test_a_dimension_sign_spaced_on_one_side_is_spaced_as_the_names_other_signs_are() -> None:
    read = [
        "Bubble wrap 100 cm x50 m",
        "气泡膜 1.2mx 50m",
        "Carton 40x 30x30",
        "Barcode labels 100x150 (roll)",
        "Packing tape 48 mm x 66 m",
        "Pack of 100 box 5",
    ]
    assert _names_read_from(read) == [
        "Bubble wrap 100 cm x 50 m",
        "气泡膜 1.2m x 50m",
        "Carton 40x30x30",
        "Barcode labels 100x150 (roll)",
        "Packing tape 48 mm x 66 m",
        "Pack of 100 box 5",
    ]


def test_a_photos_word_no_dictionary_knows_takes_the_common_word_one_glyph_off() -> None:
    read = [
        "Cable tle 200 mm (bag of 100)",
        "Thermal labeis 100x150",
        "Thermal printer ribon",
        "Power strp 6-way",
        "AAA batterles (pack of 24)",
        "Wali plug 8 mm",
    ]
    assert [known_words(t) for t in read] == [
        "Cable tie 200 mm (bag of 100)",
        "Thermal labels 100x150",
        "Thermal printer ribbon",
        "Power strip 6-way",
        "AAA batteries (pack of 24)",
        "Wall plug 8 mm",
    ]


def test_known_words_capitals_units_and_words_two_glyphs_off_are_kept() -> None:
    # `par` and `whee` are words; `LED` and `AAA` are capitals; `fiam` is two glyphs off.
    kept = ["Golf par kit", "Whee toy", "LED lamp", "AAA cell", "Stretch fiam", "SKU-10231"]
    # Units after a number, and a cell of one word, are abbreviations of their own.
    kept += ["31 pcs", "1,180 pcs", "pcs", "12 ctn"]
    # Part of a word with letters beyond ASCII is no word of its own (`rcher` in `Kärcher`).
    kept += ["Würth café set", "Kärcher hose"]
    assert [known_words(t) for t in kept] == kept
