"""A reading's grid put together: its header line found or found missing, its doubts said."""

from dataclasses import replace

import cv2
import numpy as np
from PIL import Image, ImageDraw

from pipeline.imaging.normalising import normalise
from pipeline.imaging.rectify import Quad
from pipeline.ingest.assembly import finish, line_crop, recognize_unique, surer
from pipeline.ocr.base import OcrEngine
from pipeline.tiers import Rung
from tests.conftest import CountingEngine
from tests.ocr.render import font, text_crops

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


def photographed_line(text: str) -> np.ndarray:
    """A line of 11 px text as a camera leaves it, cropped as the `lines` rung crops a cell:
    blurred, and its pixels smeared by a warp to three quarters of its size and back."""
    image = Image.new("RGB", (400, 40), "white")
    ImageDraw.Draw(image).text((10, 8), text, font=font(11), fill=(40, 40, 40))
    blurred = cv2.GaussianBlur(np.asarray(image), (0, 0), 1.6)
    smaller = cv2.resize(blurred, None, fx=0.75, fy=0.75, interpolation=cv2.INTER_AREA)
    pixels = np.asarray(
        cv2.resize(smaller, (400, 40), interpolation=cv2.INTER_LINEAR), dtype=np.uint8
    )
    ys, xs = np.nonzero(cv2.cvtColor(pixels, cv2.COLOR_RGB2GRAY) < 200)
    tight = (int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1)
    return line_crop(pixels, tight, 11)


def test_a_photos_blurred_cell_read_unsure_is_read_again_sharpened(rapidocr: OcrEngine) -> None:
    crop = photographed_line("Shipping labels 100x150")
    engine = CountingEngine(rapidocr)
    ((text, confidence),) = recognize_unique(engine, [crop], {}, photo=True)
    assert text == "Shipping labels 100x150"
    assert engine.calls == 2
    # A render's reading is the first one: read once, unsure and wrong.
    render = CountingEngine(rapidocr)
    ((first, first_confidence),) = recognize_unique(render, [crop], {})
    assert render.calls == 1
    assert first != text
    assert first_confidence < confidence


def test_a_photos_cell_read_sure_is_read_once(rapidocr: OcrEngine) -> None:
    engine = CountingEngine(rapidocr)
    ((text, _),) = recognize_unique(
        engine, text_crops(["Packing tape 48mm"], font_size=18), {}, photo=True
    )
    assert text == "Packing tape 48mm"
    assert engine.calls == 1


def test_a_sure_second_reading_that_reads_other_glyphs_replaces_the_first() -> None:
    assert surer(("SKU-1031G", 0.88), ("SKU-10310", 0.93)) == ("SKU-10310", 0.93)
    assert surer(("防静电手营M65", 0.79), ("防静电手套M码", 0.94)) == ("防静电手套M码", 0.94)


def test_an_unsure_second_reading_leaves_the_first() -> None:
    # Sharpened noise: a blank cell's stray glyph, a misread as unsure as the first.
    assert surer(("", 0.0), ("1", 0.48)) == ("", 0.0)
    assert surer(("WH-03", 0.77), ("W04-03", 0.85)) == ("WH-03", 0.77)


def test_a_second_reading_of_the_same_glyphs_leaves_the_firsts_dots_and_spaces() -> None:
    assert surer(("03.04.0021", 0.88), ("0304.0021", 0.97)) == ("03.04.0021", 0.88)
    assert surer(("碳带 110mm x 300m", 0.88), ("碳带 110mmx300m", 0.95))[0] == "碳带 110mm x 300m"
