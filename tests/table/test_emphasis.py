"""The one tab of a row a page draws as chosen: underlined, filled, or in heavier type."""

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from pipeline.models import Box
from pipeline.table.emphasis import emphasised
from tests.system import font_file

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def tabs(chosen: int | None, mark: str) -> tuple[np.ndarray, list[Box]]:
    """Three tab labels on a light page; the `chosen` one marked as `mark` says."""
    image = Image.new("L", (600, 120), 250)
    draw = ImageDraw.Draw(image)
    boxes: list[Box] = []
    for k, label in enumerate(("WH-01", "WH-02", "WH-03")):
        x = 40 + k * 180
        box: Box = (x - 6, 36, x + 96, 66)
        heavy = k == chosen and mark == "bold"
        if k == chosen and mark == "fill":
            draw.rectangle((x - 14, 30, x + 104, 72), fill=60)
        font = ImageFont.truetype(font_file(BOLD if heavy else FONT), 22)
        draw.text((x, 38), label, fill=250 if k == chosen and mark == "fill" else 30, font=font)
        if k == chosen and mark == "underline":
            draw.rectangle((x - 6, 70, x + 96, 73), fill=20)
        boxes.append(box)
    return np.asarray(image, dtype=np.uint8), boxes


def test_the_underlined_tab_is_the_chosen_one() -> None:
    gray, boxes = tabs(1, "underline")
    assert emphasised(gray, boxes) == 1


def test_the_tab_on_a_fill_of_its_own_is_the_chosen_one() -> None:
    gray, boxes = tabs(2, "fill")
    assert emphasised(gray, boxes) == 2


def test_the_tab_in_heavier_type_is_the_chosen_one() -> None:
    gray, boxes = tabs(0, "bold")
    assert emphasised(gray, boxes) == 0


def test_tabs_drawn_alike_name_no_chosen_one() -> None:
    gray, boxes = tabs(None, "underline")
    assert emphasised(gray, boxes) is None
