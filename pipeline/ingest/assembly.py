"""Texts read per cell turned into an attempt: sheet chrome, icon and menu columns dropped, a
filter line taken for the header put back in the context, rows typed; and the crops the
recogniser reads."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

import cv2
import numpy as np

from pipeline.imaging import Normalised
from pipeline.ingest.attempts import Attempt
from pipeline.models import (
    Box,
    Table,
    TextLine,
)
from pipeline.ocr.base import OcrEngine, Recognised
from pipeline.pixels import Rgb
from pipeline.table import (
    TableLayout,
    clean_text,
    is_code,
    is_data_row,
    known_cells,
    map_columns,
    page_warehouse,
    quantity_and_unit,
    sheet_chrome,
    split_fused,
    strip_icons,
    to_rows,
)
from pipeline.tiers import Rung


def recognize_unique(
    engine: OcrEngine,
    crops: Sequence[Rgb],
    memo: dict[bytes, Recognised],
    *,
    photo: bool = False,
) -> list[Recognised]:
    """Recognise each distinct crop once: a clean render draws a repeated value (a warehouse
    column, a status badge) with the very same pixels, and a later rung reads the same boxes
    as an earlier one (`memo` keeps what one analysis has read). A photo's crop read unsure
    is read a second time, sharpened (`second_look`)."""
    keys = [
        hashlib.blake2b(c.tobytes() + bytes(str(c.shape), "ascii"), digest_size=16).digest()
        for c in crops
    ]
    unique: dict[bytes, int] = {}
    for k, key in enumerate(keys):
        if key not in memo:
            unique.setdefault(key, k)
    firsts = [crops[k] for k in unique.values()]
    read = engine.recognize(firsts)
    if photo:
        read = second_look(engine, firsts, read)
    memo.update(zip(unique, read, strict=True))
    return [memo[key] for key in keys]


SURE_READING = 0.9
"""A photo's crop read with less confidence than this is read a second time, sharpened; the
second reading stands where it reaches this confidence."""


def second_look(
    engine: OcrEngine, crops: Sequence[Rgb], readings: Sequence[Recognised]
) -> list[Recognised]:
    """The readings of a photo's crops, those read unsure read again sharpened (`surer`). A
    camera's focus and the warp that set the screen upright soften the glyphs; an unsharp mask
    takes some of that back, and where it does the recogniser says so in its confidence."""
    unsure = [k for k, (_, conf) in enumerate(readings) if conf < SURE_READING]
    kept = list(readings)
    if not unsure:
        return kept
    again = engine.recognize([sharpened(crops[k]) for k in unsure])
    for k, second in zip(unsure, again, strict=True):
        kept[k] = surer(kept[k], second)
    return kept


def surer(first: Recognised, second: Recognised) -> Recognised:
    """The sharpened reading where it is sure and reads other glyphs than the first, else the
    first. A second reading that is itself unsure is not taken: sharpened noise reads as stray
    glyphs (`1`, `一`) with a confidence that rises from nothing. Nor is one that reads the same
    letters and digits: the mask thins dots and closes spaces (`01.02.0036` as `01020036`,
    `110mm x 300m` as `110mmx300m`), and what it mends is glyphs."""
    if second[1] >= SURE_READING and _glyphs(second[0]) != _glyphs(first[0]):
        return second
    return first


def _glyphs(text: str) -> str:
    return "".join(ch for ch in text if ch.isalnum())


def sharpened(crop: Rgb) -> Rgb:
    """The crop through an unsharp mask: its blur at 1.2 px taken away at 0.8 of its weight."""
    blurred = cv2.GaussianBlur(crop, (0, 0), 1.2)
    return np.asarray(cv2.addWeighted(crop, 1.8, blurred, -0.8, 0), dtype=np.uint8)


def finish(
    rung: Rung,
    texts: list[list[str]],
    confs: list[list[float]],
    context: list[str],
    region: Box,
    norm: Normalised,
    annotations: list[TextLine],
    strays: Sequence[str],
    html: str | None = None,
) -> Attempt:
    letters, numbers = sheet_chrome(texts)
    if letters:
        texts, confs = texts[1:], confs[1:]
    keep = [
        c
        for c in range(len(texts[0]))
        if c not in numbers and _holds_text([row[c] for row in texts])
    ]
    keep = [
        c
        for n, c in enumerate(keep)
        if not (n in (0, len(keep) - 1) and _navigation([row[c] for row in texts]))
    ]
    texts = [[row[c] for c in keep] for row in texts]
    confs = [[row[c] for c in keep] for row in confs]
    if _names_columns_better(texts):
        # A filter or caption line above the real header, taken for it.
        context = [*context, *(t for t in texts[0] if t)]
        texts, confs = texts[1:], confs[1:]
    texts, confs = split_fused(texts, confs)
    # A first line of values is a row: no header was read (lost, or a list that has none).
    headless = is_data_row(texts[0], texts[1:])
    if headless:
        texts = [["" for _ in texts[0]], *texts]
        confs = [[1.0 for _ in confs[0]], *confs]
    header = [strip_icons(h) for h in texts[0]]
    body = known_cells(texts[1:]) if norm.photographed else texts[1:]
    table = Table(header=header, cells=body, html=html)
    body_confs = confs[1:]
    mapped = to_rows(table, body_confs, default_warehouse=page_warehouse(context))
    table = table.model_copy(update={"columns": mapped.columns()})
    doubts = [
        *strays,
        *([HEADLESS] if headless else [*_blank_headers(table), *_values_for_header(table)]),
    ]
    return Attempt(
        rung,
        table=table,
        confidences=body_confs,
        mapped=mapped,
        context=context,
        crop=to_original(region, norm),
        annotations=annotations,
        doubts=tuple(doubts),
        region=region,
    )


HEADLESS = "the first line reads as values: no header was read, the columns typed by their values"


def deepest_header(rows: list[list[str]]) -> list[list[str]]:
    """The rows from the header on: a model may miss that a header block spans two rows; the
    row below that names more schema fields (a group header's sub-headers) is the header."""
    best, best_count = 0, -1
    for k in range(min(3, len(rows) - 1)):
        body = rows[k + 1 :]
        columns = [[r[c] if c < len(r) else "" for r in body] for c in range(len(rows[k]))]
        count = len(map_columns(rows[k], columns, headers_only=True))
        if count > best_count:
            best, best_count = k, count
    return rows[best:]


def _names_columns_better(texts: list[list[str]]) -> bool:
    """Whether the second row names the table's columns better than the first: more schema
    fields recognised from its texts, while the first leaves columns blank."""
    if len(texts) < 3 or all(t.strip() for t in texts[0]) or _reads_as_values(texts[1]):
        return False
    body = texts[2:]
    columns = [[row[c] if c < len(row) else "" for row in body] for c in range(len(texts[0]))]
    first = len(map_columns(texts[0], columns, headers_only=True))
    second = len(map_columns(texts[1], columns, headers_only=True))
    return second > first


def strays(layout: TableLayout) -> tuple[str, ...]:
    if not layout.strays:
        return ()
    return (f"{len(layout.strays)} text boxes beside the table's columns (merged cells?)",)


def _blank_headers(table: Table) -> list[str]:
    """A column whose body is filled under a blank header: its header sits on another line
    (one spanning two header rows)."""
    rows = len(table.cells)
    blank = [
        c
        for c, head in enumerate(table.header)
        if not head.strip()
        and rows
        and sum(bool(row[c].strip()) for row in table.cells if c < len(row)) >= 0.5 * rows
    ]
    return [f"{len(blank)} filled columns without a header (a multi-row header?)"] if blank else []


def _values_for_header(table: Table) -> list[str]:
    """A header that reads as a row of values, a code beside a number: the reading lost the
    table's header line (faint small capitals on a photo) and took its first row for it."""
    if _reads_as_values(table.header):
        return ["the header reads as values (a code and a number): its line was not read"]
    return []


def _reads_as_values(texts: Sequence[str]) -> bool:
    """A line of a table that holds a code beside a number is a row of values, no header."""
    cells = [t.strip() for t in texts if t.strip()]
    return any(is_code(t) for t in cells) and any(
        quantity_and_unit(t)[0] is not None for t in cells
    )


def _navigation(column: Sequence[str]) -> bool:
    """A sidebar's menu read into the table's edge column: no header, a few short words (no
    number, no code) on some rows only, the menu's pitch not being the table's."""
    header, cells = column[0], column[1:]
    filled = [t for t in cells if t.strip()]
    if header.strip() or not filled or len(filled) > 0.75 * len(cells):
        return False
    return all(
        len(t.split()) <= 3 and not any(ch.isdigit() for ch in t) and not is_code(t) for t in filled
    )


def _holds_text(column: Sequence[str]) -> bool:
    """A column of text, not of icons: some letter or digit, and some cell longer than one
    character (a checkbox, status dot or sort arrow reads as one stray glyph per row)."""
    return any(any(ch.isalnum() for ch in t) for t in column) and any(
        len(t.strip()) > 1 for t in column
    )


FEW_LINES = 3
"""Fewer text lines than this in a table's region is no table."""


def context_texts(boxes: Sequence[Box], texts: Sequence[str]) -> list[str]:
    ordered = sorted(zip(boxes, texts, strict=True), key=lambda bt: (bt[0][1], bt[0][0]))
    return [clean_text(t) for _, t in ordered if sum(ch.isalnum() for ch in t) >= 2]


def line_crop(rgb: Rgb, tight: Box, text_height: float) -> Rgb:
    """A text line as the recogniser reads it best and cheapest: a little margin at the sides
    and generous margin above and below, made of the background at the crop's own edge so no
    neighbouring row leaks in. (Its cost grows with width/height once scaled to 48 px high.)"""
    x0, y0, x1, y1 = tight
    height, width = rgb.shape[:2]
    side = max(1, round(text_height * 0.2))
    region = rgb[max(0, y0 - 1) : min(height, y1 + 1), max(0, x0 - side) : min(width, x1 + side)]
    vertical = max(2, round(text_height * 0.45))
    bordered = cv2.copyMakeBorder(region, vertical, vertical, 0, 0, cv2.BORDER_REPLICATE)
    return np.asarray(bordered, dtype=np.uint8)


def box_crop(rgb: Rgb, box: Box) -> Rgb:
    x0, y0, x1, y1 = box
    return rgb[max(0, y0) : max(0, y1), max(0, x0) : max(0, x1)]


def pad(box: Box, pad: int) -> Box:
    return (box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad)


def said(lines: Sequence[TextLine]) -> float:
    """How much text the lines read, weighed by the engine's confidence in each."""
    return sum(len(line.text.strip()) * line.confidence for line in lines)


def to_original(box: Box, norm: Normalised) -> Box:
    return norm.to_original(box)


def in_original(lines: Iterable[TextLine], norm: Normalised) -> list[TextLine]:
    """The lines with their boxes in the original image's pixels (the result's annotations)."""
    return [
        TextLine(text=line.text, box=to_original(line.box, norm), confidence=line.confidence)
        for line in lines
    ]
