"""Synthetic admin screenshots with known text, drawn with Pillow, for the OCR engine tests."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from pipeline.pixels import Rgb
from tests.system import font_file

FONTS = {
    False: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    True: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
}
HEADER = ("SKU", "Name", "On hand", "Reorder point", "Warehouse", "Updated")
_NAMES = (
    "Hex bolt M8 x 40",
    "Cable tie 200 mm black",
    "Hinge 35 mm soft close",
    "Wood screw 4 x 30",
    "Drawer slide 450 mm",
    "Wall plug 8 mm",
    "Washer M10 zinc",
    "Shelf bracket 200 mm",
)

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Cell:
    text: str
    box: Box
    """The ink box of the text, `(x0, y0, x1, y1)`."""


@dataclass(frozen=True)
class Screenshot:
    image: Rgb
    header: list[Cell]
    cells: list[Cell]
    text_height: int


def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(font_file(FONTS[bold]), size)


def table_rows(count: int) -> list[tuple[str, ...]]:
    """Deterministic inventory rows whose first one is `SKU-10231 … 1,204 … WH-01`."""
    rows: list[tuple[str, ...]] = []
    for i in range(count):
        on_hand = 1204 if i == 0 else (i * 7919) % 2600
        rows.append(
            (
                f"SKU-{10231 + i * 37}",
                _NAMES[i % len(_NAMES)],
                f"{on_hand:,}",
                str(50 + (i * 131) % 400),
                f"WH-0{1 + i % 5}",
                f"2026-11-{1 + i % 28:02d} {8 + i % 10:02d}:{(i * 17) % 60:02d}",
            )
        )
    return rows


def render_table(
    rows: Sequence[Sequence[str]],
    *,
    size: tuple[int, int] = (1920, 1080),
    font_size: int = 15,
    chrome: bool = True,
) -> Screenshot:
    """An admin page: optional top bar and side menu, then a striped table of `rows`."""
    width, height = size
    image = Image.new("RGB", size, (255, 255, 255))
    draw = ImageDraw.Draw(image)
    regular, bold = font(font_size), font(font_size, bold=True)
    left, top = 24, 24
    if chrome:
        draw.rectangle((0, 0, width, 56), fill=(33, 37, 41))
        draw.text((24, 18), "Stock admin", font=font(18, bold=True), fill=(255, 255, 255))
        draw.rectangle((0, 56, 220, height), fill=(243, 244, 246))
        for k, item in enumerate(("Dashboard", "Inventory", "Orders", "Suppliers")):
            draw.text((24, 90 + 36 * k), item, font=regular, fill=(55, 65, 81))
        left, top = 250, 90
    columns = [160, 260, 110, 140, 120, 170]
    row_height = round(font_size * 2.4)
    xs = [left + sum(columns[:k]) for k in range(len(columns))]
    table_width = sum(columns)

    def put(x: int, y: int, text: str, face: ImageFont.FreeTypeFont) -> Cell:
        ascent, descent = face.getmetrics()
        ty = y + (row_height - ascent - descent) // 2
        draw.text((x + 12, ty), text, font=face, fill=(17, 24, 39))
        x0, y0, x1, y1 = draw.textbbox((x + 12, ty), text, font=face)
        return Cell(text, (int(x0), int(y0), int(x1), int(y1)))

    draw.rectangle((left, top, left + table_width, top + row_height), fill=(229, 231, 235))
    header = [put(x, top, title, bold) for x, title in zip(xs, HEADER, strict=False)]
    cells: list[Cell] = []
    for r, row in enumerate(rows):
        y = top + row_height * (r + 1)
        if r % 2:
            draw.rectangle((left, y, left + table_width, y + row_height), fill=(249, 250, 251))
        draw.line((left, y, left + table_width, y), fill=(209, 213, 219))
        cells.extend(put(x, y, value, regular) for x, value in zip(xs, row, strict=False))
    _, top_h, _, bottom_h = regular.getbbox("H")
    text_height = int(bottom_h - top_h)
    return Screenshot(np.asarray(image, dtype=np.uint8), header, cells, text_height)


def line_crop(image: Rgb, box: Box, text_height: int) -> Rgb:
    """A cell cropped the way the table layer does: ink box plus a small side and a generous
    vertical margin."""
    x0, y0, x1, y1 = box
    side = max(1, round(text_height * 0.15))
    vertical = max(2, round(text_height * 0.55))
    crop = image[max(0, y0 - vertical) : y1 + vertical, max(0, x0 - side) : x1 + side]
    return np.ascontiguousarray(crop)


def text_crops(texts: Sequence[str], *, font_size: int = 15) -> list[Rgb]:
    """One tight single-line crop per text, dark on white."""
    face = font(font_size)
    crops = []
    for text in texts:
        x0, y0, x1, y1 = (int(v) for v in face.getbbox(text))
        pad_x, pad_y = 3, max(2, round(font_size * 0.5))
        image = Image.new("RGB", (x1 - x0 + 2 * pad_x, y1 - y0 + 2 * pad_y), (255, 255, 255))
        ImageDraw.Draw(image).text((pad_x - x0, pad_y - y0), text, font=face, fill=(20, 20, 20))
        crops.append(np.asarray(image, dtype=np.uint8))
    return crops
