"""A reading's grid put together: its header line found or found missing, its doubts said."""

from dataclasses import replace

from PIL import Image

from pipeline.imaging.normalise import normalise
from pipeline.imaging.rectify import Quad
from pipeline.ingest.assembly import finish
from pipeline.tiers import Rung

NORM = normalise(Image.new("RGB", (400, 300), "white"))
REGION = (0, 0, 400, 300)


def read(texts: list[list[str]]) -> tuple[list[str], list[str], tuple[str, ...]]:
    attempt = finish(
        Rung("table_ocr", "detect"),
        texts,
        [[0.95] * len(row) for row in texts],
        [],
        (0, 0, 400, 300),
        NORM,
        [],
        (),
    )
    assert attempt.table is not None
    return attempt.table.header, attempt.table.cells[0], attempt.doubts


def test_a_first_row_of_values_taken_for_the_header_is_doubted() -> None:
    # The header line was not read: the first row of values stands in its place.
    header, _, doubts = read(
        [
            ["SKU-10231", "96 boxes", "150", "Hex bolt M8x40"],
            ["SKU-10232", "205 boxes", "120", "Hex nut M8"],
            ["SKU-10310", "130 bags", "100", "Cable tie 200 mm"],
        ]
    )
    assert header[0] == "SKU-10231"
    assert any("header reads as values" in d for d in doubts)


def test_a_header_with_a_blank_name_keeps_its_place_over_a_first_row_of_values() -> None:
    # One header name lost to glare: the row under the header names fields only by its
    # values (`WH-01`, a code), and is no header for that.
    header, first, doubts = read(
        [
            ["", "", "Par level", "Item", "Description"],
            ["310", "WH-01", "200", "SKU-10402", "Safety gloves size L (pair)"],
            ["95", "WH-01", "200", "SKU-10403", "Safety gloves size M (pair)"],
            ["48", "WH-01", "40", "SKU-10410", "Dust mask FFP2 (box of 20)"],
        ]
    )
    assert header == ["", "", "Par level", "Item", "Description"]
    assert first[3] == "SKU-10402"
    assert not any("header reads as values" in d for d in doubts)


def test_a_header_of_names_raises_no_doubt() -> None:
    _, _, doubts = read(
        [
            ["SKU", "On hand", "Min", "Name"],
            ["SKU-10231", "96", "150", "Hex bolt M8x40"],
            ["SKU-10232", "205", "120", "Hex nut M8"],
        ]
    )
    assert doubts == ()


def test_a_photos_cells_take_the_common_word_a_blurred_word_is_one_glyph_off() -> None:
    texts = [
        ["SKU", "Name", "On hand"],
        ["SKU-10310", "Cable tle 200 mm", "130"],
        ["SKU-10611", "Wago connector 221", "12"],
    ]
    confidences = [[0.97] * 3 for _ in texts]
    photo = replace(NORM, refused=Quad(((0, 0), (400, 0), (400, 300), (0, 300)), "screen"))
    on_photo = finish(Rung("table_ocr", "lines"), texts, confidences, [], REGION, photo, [], ())
    assert on_photo.table is not None
    assert on_photo.table.cells[0][1] == "Cable tie 200 mm"
    # A render keeps what it reads: there a word no dictionary knows is a brand (`Wago` is one
    # glyph off `wage`).
    on_render = finish(Rung("table_ocr", "lines"), texts, confidences, [], REGION, NORM, [], ())
    assert on_render.table is not None
    assert on_render.table.cells[1][1] == "Wago connector 221"
