from difflib import SequenceMatcher
from itertools import product

import pytest

from pipeline.table.headers import SYNONYMS, header_evidence, is_data_row, likeness

READ = [
    "0n hand",
    "on hnad",
    "reorder pont",
    "reorder pt",
    "qty avail",
    "safty stock",
    "warehose",
    "当航库存",
    "赞戒值",
    "商品編码",
    "heaithy",
    "in stock",
    "x",
    "",
]
"""Headers as a blurred screen gives them: a letter lost, added or changed, a character of
a Chinese name misread, and some that are nothing like a name."""

NAMES = sorted({name for names in SYNONYMS.values() for name in names})


@pytest.mark.parametrize("least", [0.5, 0.8, 0.95])
def test_likeness_is_difflibs_ratio_wherever_it_reaches_the_bar_and_nothing_below_it(
    least: float,
) -> None:
    for a, b in product(READ, NAMES):
        ratio = SequenceMatcher(None, a, b).ratio() if a and b else 0.0
        assert likeness(a, b, least) == (ratio if ratio >= least else 0.0), (a, b)


@pytest.mark.parametrize(
    ("header", "field"),
    [
        ("0n hand", "on_hand"),
        ("Reorder pont", "reorder_point"),
        ("Warehose", "warehouse_id"),
        ("当航库存", "on_hand"),
    ],
)
def test_a_header_misread_by_a_letter_still_names_its_field(header: str, field: str) -> None:
    score, why = header_evidence(header, field)
    assert score >= 0.8
    assert repr(header) in why


def test_a_name_of_another_field_written_close_to_this_one_is_not_taken_for_a_misreading() -> None:
    assert header_evidence("In stock", "reorder_point")[0] == 0.0
    assert header_evidence("In stock", "on_hand")[0] >= 0.9


@pytest.mark.parametrize(
    ("header", "field"),
    [
        ("Amount", "on_hand"),
        ("Menge", "on_hand"),
        ("Auf Lager", "on_hand"),
        ("Mindestlagerbestand", "reorder_point"),
        ("Artikelnummer", "sku"),
        ("Barcode", "sku"),
        ("存放地点", "warehouse_id"),
    ],
)
def test_headers_of_real_products_name_their_fields(header: str, field: str) -> None:
    best = max(SYNONYMS, key=lambda f: header_evidence(header, f)[0])
    assert best == field and header_evidence(header, field)[0] >= 0.5


def test_a_first_line_of_values_shaped_like_its_columns_is_a_row_not_the_header() -> None:
    below = [["R3", "Breitreifen 25", "0,00", "12,00"], ["FG3", "Fahrgestell", "0,00", "20,00"]]
    assert is_data_row(["R1", "Breitreifen 17", "8,00", "10,00"], below)


def test_a_line_that_names_the_columns_is_the_header_whatever_sits_under_it() -> None:
    below = [["R3", "Breitreifen 25", "0,00", "12,00"], ["FG3", "Fahrgestell", "0,00", "20,00"]]
    assert not is_data_row(["Artikelnummer", "Beschreibung", "Auf Lager", "Mindestbestand"], below)


def test_a_first_line_whose_numbers_sit_over_words_is_not_taken_for_a_row() -> None:
    below = [["Bolt", "Fasteners"], ["Nut", "Fasteners"]]
    assert not is_data_row(["2024", "12"], below)


@pytest.mark.parametrize(
    "header", ["Reorder Quantity", "Reorder qty", "Bestellmenge", "补货数量", "订货量"]
)
def test_a_header_naming_how_much_to_order_is_neither_the_reorder_point_nor_on_hand(
    header: str,
) -> None:
    assert header_evidence(header, "reorder_point")[0] == 0.0
    assert header_evidence(header, "on_hand")[0] == 0.0


@pytest.mark.parametrize("header", ["Reorder point", "Reorder level", "Min qty", "补货点"])
def test_a_header_naming_the_level_that_triggers_an_order_stays_the_reorder_point(
    header: str,
) -> None:
    assert header_evidence(header, "reorder_point")[0] >= 0.9
