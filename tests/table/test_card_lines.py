from pipeline.models import TextLine
from pipeline.table.card_lines import Part, key_code, labelled, line_parts, stacked, warehouse


def test_a_labelled_quantity_gives_its_field_label_and_value_with_the_unit() -> None:
    assert labelled("On hand 12 pcs") == ("on_hand", "On hand", "12 pcs")
    assert labelled("安全 120") == ("reorder_point", "安全", "120")
    assert labelled("12 on hand") == ("on_hand", "on hand", "12")
    assert labelled("Price 12.50") is None


def test_a_warehouse_code_counts_with_a_warehouse_label_or_none() -> None:
    assert warehouse("Depot: wh-02") == "WH-02"
    assert warehouse("WH-03") == "WH-03"
    assert warehouse("Bin WH-03") is None


def test_a_line_of_several_values_is_cut_into_its_parts() -> None:
    line = TextLine(text="On hand 12 · Min 40 · WH-02", box=(0, 0, 270, 20), confidence=0.9)
    assert [p.text for p in line_parts([line])] == ["On hand 12", "Min 40", "WH-02"]


def test_a_dot_misread_as_a_dash_still_cuts_a_code_from_the_value_after_it() -> None:
    def parts(text: str) -> list[str]:
        return [
            p.text for p in line_parts([TextLine(text=text, box=(0, 0, 300, 20), confidence=0.9)])
        ]

    assert parts("BX-420-K- On hand 36 pcs· Reorder at 30") == [
        "BX-420-K",
        "On hand 36 pcs",
        "Reorder at 30",
    ]
    assert parts("EN-C5-P - On hand 64 packs - WH-02") == ["EN-C5-P", "On hand 64 packs", "WH-02"]
    # A dash before words that are no labelled value is the text's own.
    assert parts("Hex bolt - large · On hand 4") == ["Hex bolt - large", "On hand 4"]


def test_a_label_over_its_value_is_read_as_one_part_and_an_unrelated_line_is_not() -> None:
    anchor = Part("BX-310-K", (0, 0, 80, 20), 0.99, 0)
    label = Part("Units in stock", (0, 30, 120, 50), 0.95, 1)
    value = Part("12 pcs", (2, 55, 60, 75), 0.9, 2)
    name = Part("Kraft mailer", (0, 130, 110, 150), 0.9, 3)
    joined = stacked(anchor, [label, value, name])
    assert [p.text for p in joined] == ["Units in stock 12 pcs", "Kraft mailer"]
    assert joined[0].box == (0, 30, 120, 75) and joined[0].confidence == 0.9


def test_a_records_code_is_read_without_the_label_that_names_it_and_in_its_own_case() -> None:
    assert key_code("SKU - shirt-variant-1-7") == "shirt-variant-1-7"
    assert key_code("Barcode: 4006381333931") == "4006381333931"
    # A dash inside a code, or after words that name no identifier, is no label.
    assert key_code("BX-310-K") == "BX-310-K"
    assert key_code("Hex bolt - M8") == "Hex bolt - M8"
