"""Text a photo's blur faded below the page's ink level (a header set in light grey) is found
at a lower contrast where a name is missing; a blank region has none. Coloured text on a dark
page (a blue link or chip) is found by its colour."""

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from pipeline.imaging.text import faint_extent, faint_text, find_text_boxes, restore_spaces


def photo_with(
    text: str, *, grey: int = 0, page: int = 255, colour: tuple[int, int, int] | None = None
) -> np.ndarray:
    """A page of grey `page` with `text` in grey `grey` (or in `colour`, as an RGB photo) at
    (300, 100), blurred and noisy like a photo."""
    mode, ground, ink = ("L", page, grey) if colour is None else ("RGB", (page,) * 3, colour)
    image = Image.new(mode, (700, 240), ground)
    ImageDraw.Draw(image).text((300, 100), text, fill=ink, font=ImageFont.load_default(size=16))
    blurred = cv2.GaussianBlur(np.asarray(image, dtype=np.uint8), (0, 0), 1.2)
    pixels = np.asarray(blurred, dtype=np.int16)
    noise = np.random.default_rng(4).normal(0, 2.0, pixels.shape).astype(np.int16)
    return np.asarray(np.clip(pixels + noise, 0, 255), dtype=np.uint8)


def test_a_light_grey_header_name_in_a_blurred_photo_is_found_at_a_lower_contrast() -> None:
    gray = photo_with("ON ORDER", grey=205)
    assert find_text_boxes(gray, photo=True).boxes == []
    found = faint_text(gray, (250, 85, 450, 130), text_height=11.0)
    assert found is not None
    x0, y0, x1, y1 = found
    assert 295 <= x0 <= 305 and 370 <= x1 <= 395 and 98 <= y0 <= 106 and 108 <= y1 <= 120


def test_a_blank_region_of_a_photo_has_no_faint_text() -> None:
    gray = photo_with("", grey=205)
    assert faint_text(gray, (250, 85, 450, 130), text_height=11.0) is None


def blocks(*spans: tuple[int, int]) -> np.ndarray:
    """A white crop 20 px high with dark glyph blocks 14 px high at the given x spans."""
    crop = np.full((20, 200), 255, dtype=np.uint8)
    for x0, x1 in spans:
        crop[3:17, x0:x1] = 40
    return crop


CJK_THEN_DIGITS = [(10, 24), (25, 39), (40, 54), (55, 69), (72, 80), (81, 89), (90, 110)]
"""Four glyphs touching, a 3 px gap (a space the blur narrowed), then `48mm`."""


def test_a_space_the_blur_narrowed_between_chinese_and_digits_is_put_back_on_a_photo() -> None:
    crop = blocks(*CJK_THEN_DIGITS)
    assert restore_spaces("工业胶带48mm", crop, photo=True) == "工业胶带 48mm"


def test_a_crop_whose_margins_repeat_its_edge_rows_measures_the_glyphs_not_the_crop() -> None:
    crop = blocks(*CJK_THEN_DIGITS)
    crop[3, :] = crop[16, :] = 255
    crop[3, 10:12] = crop[16, 60:62] = 40  # a stroke's few pixels in the tight box's edge rows
    margined = np.asarray(
        cv2.copyMakeBorder(crop[3:17], 8, 8, 0, 0, cv2.BORDER_REPLICATE), dtype=np.uint8
    )
    assert restore_spaces("工业胶带48mm", margined, photo=True) == "工业胶带 48mm"


def test_on_a_render_a_gap_that_narrow_is_no_space() -> None:
    crop = blocks(*CJK_THEN_DIGITS)
    assert restore_spaces("工业胶带48mm", crop) == "工业胶带48mm"


def drawn(text: str) -> np.ndarray:
    """One line of `text` drawn dark on a light crop, as a cell's crop, its words set apart
    by gaps of one width."""
    image = Image.new("L", (16 + 10 * len(text), 28), 250)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=16)
    x = 6.0
    for word in text.split(" "):
        draw.text((x, 5), word, fill=40, font=font)
        x = draw.textbbox((x, 5), word, font=font)[2] + 6
    return np.asarray(image, dtype=np.uint8)


@pytest.mark.parametrize(
    ("shown", "read"),
    [
        ("AAA batteries (pack of 24)", "AAAbatteries (pack of 24)"),
        ("Packing tape 48 mm x 66 m", "Packing tape 48 mm x 66m"),
        ("Cable tie 200 mm", "Cabletie 200 mm"),
        ("Safety gloves size L (pair)", "Safety gloves size L(pair)"),
    ],
)
def test_a_space_dropped_between_latin_words_on_a_photo_is_put_back_at_its_gap(
    shown: str, read: str
) -> None:
    assert restore_spaces(read, drawn(shown), photo=True) == shown


def test_a_line_read_with_every_space_is_left_as_it_is() -> None:
    assert restore_spaces("Hex bolt M8x40 (box", drawn("Hex bolt M8x40 (box"), photo=True) == (
        "Hex bolt M8x40 (box"
    )


def test_on_a_render_spaces_between_latin_words_are_left_as_read() -> None:
    crop = drawn("AAA batteries (pack of 24)")
    assert restore_spaces("AAAbatteries (pack of 24)", crop) == "AAAbatteries (pack of 24)"


def test_a_blurred_point_standing_apart_from_its_digits_parts_no_number() -> None:
    # `Tape 1.2m`: a word's gap after `Tape`, and the point set apart on both sides.
    crop = blocks((10, 19), (20, 29), (30, 39), (40, 49), (56, 62), (65, 67), (70, 78), (79, 90))
    assert restore_spaces("Tape 1.2m", crop, photo=True) == "Tape 1.2m"


def test_a_code_on_a_photo_stays_one_word() -> None:
    crop = blocks((10, 19), (20, 29), (30, 39), (40, 46), (52, 61), (62, 71), (72, 81))
    assert restore_spaces("SKU-102", crop, photo=True) == "SKU-102"


def test_a_names_faint_last_glyphs_are_taken_into_its_box() -> None:
    gray = photo_with("", grey=205)
    gray[100:112, 300:360] = 60  # the name's dark part
    gray[100:112, 366:380] = 215  # its last glyphs, faded by the photo's blur
    grown = faint_extent(gray, (300, 100, 360, 112), (250, 500), text_height=12.0)
    # Grown over the faded glyphs, and by no more than the blur's pixel on the other side.
    assert grown[2] >= 378 and grown[0] >= 298


def test_a_faint_mark_beyond_a_words_gap_or_the_columns_reach_is_left_out() -> None:
    gray = photo_with("", grey=205)
    gray[100:112, 300:360] = 60
    gray[100:112, 400:414] = 215  # 40 px on: another column's value
    assert faint_extent(gray, (300, 100, 360, 112), (250, 500), text_height=12.0)[2] <= 362
    gray[100:112, 366:380] = 215
    assert faint_extent(gray, (300, 100, 360, 112), (250, 364), text_height=12.0)[2] <= 364


def test_a_blue_link_on_a_dark_photo_is_found_by_its_colour_though_it_is_faint_in_grey() -> None:
    rgb = photo_with("01.02.0035", page=29, colour=(40, 60, 150))
    gray = np.asarray(cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY), dtype=np.uint8)
    assert find_text_boxes(gray, photo=True).boxes == []
    boxes = find_text_boxes(gray, photo=True, light_on_dark=rgb).boxes
    assert len(boxes) == 1
    x0, y0, x1, y1 = boxes[0]
    assert 295 <= x0 <= 305 and 375 <= x1 <= 400 and 98 <= y0 <= 106 and 108 <= y1 <= 120


def test_white_text_on_a_dark_photo_is_found_the_same_in_grey_and_by_colour() -> None:
    rgb = photo_with("01.02.0035", page=29, colour=(230, 230, 230))
    gray = np.asarray(cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY), dtype=np.uint8)
    assert find_text_boxes(gray, photo=True, light_on_dark=rgb).boxes == (
        find_text_boxes(gray, photo=True).boxes
    )


def test_a_blue_chip_on_a_dark_render_is_found_by_its_colour_though_it_has_little_edge_in_grey() -> (
    None
):
    image = Image.new("RGB", (700, 240), (28, 47, 70))
    draw = ImageDraw.Draw(image)
    draw.text(
        (300, 100), "Warehouse: WH-02", fill=(20, 98, 209), font=ImageFont.load_default(size=16)
    )
    draw.text(
        (300, 160), "Show 20 entries", fill=(200, 200, 200), font=ImageFont.load_default(size=16)
    )
    rgb = np.asarray(image, dtype=np.uint8)
    gray = np.asarray(cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY), dtype=np.uint8)
    grey_only = find_text_boxes(gray).boxes
    assert [b for b in grey_only if b[1] < 130] == []
    boxes = find_text_boxes(gray, light_on_dark=rgb).boxes
    assert [b for b in boxes if b[1] >= 130] == [b for b in grey_only if b[1] >= 130]
    chip = [b for b in boxes if b[1] < 130]
    assert len(chip) == 1 and chip[0][0] <= 302 and chip[0][2] >= 420


def test_a_column_of_dark_status_chips_in_a_photo_gives_one_box_a_row() -> None:
    # `100 [OK]` on every row of a light page: a number and a dark chip with white text, rows
    # 48 px apart, blurred and noisy like a photo. The halos round the chips join them all.
    image = Image.new("L", (700, 660), 235)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=18)
    rows = range(40, 616, 48)
    for y in rows:
        draw.text((200, y), "100", fill=40, font=font)
        draw.rounded_rectangle((236, y - 5, 282, y + 23), radius=8, fill=80)
        draw.text((242, y), "OK", fill=250, font=font)
    blurred = cv2.GaussianBlur(np.asarray(image, dtype=np.uint8), (0, 0), 1.2)
    noise = np.random.default_rng(4).normal(0, 2.0, blurred.shape)
    gray = np.asarray(np.clip(blurred + noise, 0, 255), dtype=np.uint8)
    boxes = find_text_boxes(gray, photo=True).boxes
    assert len(boxes) == len(rows)
    assert all(b[0] <= 210 and b[2] >= 275 and b[3] - b[1] < 40 for b in boxes)
