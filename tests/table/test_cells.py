import pytest

from pipeline.table.cells import (
    clean_text,
    column_decimals,
    parse_quantity,
    quantity_and_unit,
    repair_id,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1,204", 1204),
        ("1 204", 1204),
        ("12", 12),
        ("０", 0),
        ("１，２０４", 1204),
        ("1O4", 104),
        ("l2", 12),
        ("", None),
        ("n/a", None),
        ("12.5", None),
        ("Low", None),
        ("1, 204", 1204),
        ("1,450.", 1450),
        # A unit read as a digit after the number (`96 卷` as `96 6`) makes no 966.
        ("96 6", None),
        ("210 6", None),
    ],
)
def test_quantities_parse_separators_full_width_and_digit_lookalikes(
    text: str, expected: int | None
) -> None:
    assert parse_quantity(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("WH-O1", "WH-01"),
        ("sku—10231", "sku-10231"),
        ("ＳＫＵ－１０２３１", "SKU-10231"),
        ("SKU-1O231", "SKU-10231"),
        ("SKU-10231", "SKU-10231"),
        ("Hex bolt", "Hex bolt"),
        ("BOX-LARGE", "BOX-LARGE"),
    ],
)
def test_ids_repair_letter_digit_confusions_only_in_the_number_part(
    text: str, expected: str
) -> None:
    assert repair_id(text) == expected


def test_clean_text_normalises_full_width_and_collapses_spaces() -> None:
    assert clean_text("  ２０．０９  Hex\u3000bolt ") == "20.09 Hex bolt"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("120 pcs", (120, "pcs")),
        ("1,450 件", (1450, "件")),
        ("1,450 packs", (1450, "packs")),
        ("38", (38, None)),
        ("1O4", (104, None)),
        ("Low", (None, None)),
        ("$2.09", (None, None)),
        ("—", (None, None)),
        ("1000箱", (1000, "箱")),
        ("12 Stück", (12, "Stück")),
        ("8,00 Stk.", (8, "Stk.")),
        ("453 g / 1 kg", (453, "g")),
        ("2024/08/30", (None, None)),
        ("12/24", (None, None)),
        ("2.50元/箱", (None, None)),
    ],
)
def test_a_quantity_keeps_its_number_and_gives_its_unit_apart(
    text: str, expected: tuple[int | None, str | None]
) -> None:
    assert quantity_and_unit(text) == expected


def test_a_fonts_times_sign_between_digits_reads_as_x() -> None:
    assert clean_text("Wood screw 4×35 (box of 250)") == "Wood screw 4x35 (box of 250)"
    assert clean_text("× 3") == "× 3"


def test_a_times_sign_after_a_unit_before_digits_reads_as_x_with_its_spaces() -> None:
    assert clean_text("碳带 110mm × 300m") == "碳带 110mm x 300m"
    assert clean_text("气泡膜 1.2m×50m") == "气泡膜 1.2mx50m"
    assert clean_text("Cable × tie") == "Cable × tie"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("8,00", (8, None)),
        ("100.0000", (100, None)),
        ("1.234,00", (1234, None)),
        ("1000箱", (1000, "箱")),
        ("1200.0000 USD", (1200, "USD")),
        ("12,50", (None, None)),
        ("1,450", (1450, None)),
    ],
)
def test_whole_numbers_written_with_decimals_are_those_numbers(
    text: str, expected: tuple[int | None, str | None]
) -> None:
    assert quantity_and_unit(text) == expected


def test_three_decimals_are_decided_by_the_whole_column() -> None:
    assert column_decimals(["5.000", "0.000", "12.500"]) == "."
    assert quantity_and_unit("5.000", decimals=".") == (5, None)
    # Three digits after a comma in a column of counts are thousands.
    assert column_decimals(["1,450", "2,300", "12,000"]) is None
    assert quantity_and_unit("1,450", decimals=column_decimals(["1,450", "2,300"])) == (1450, None)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("61 Available on hand 1 Reserved", 61),
        ("12 in stock", 12),
        ("7 auf Lager", 7),
        ("1,450 available to sell", 1450),
        ("120 Availableness", None),
        ("Available 61", None),
        ("12/24 in stock", None),
    ],
)
def test_a_number_the_words_after_it_call_the_stock_on_hand_is_that_quantity(
    text: str, expected: int | None
) -> None:
    assert quantity_and_unit(text)[0] == expected
