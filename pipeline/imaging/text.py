"""Find text on a clean render with plain image processing, so OCR only has to recognise it.

Text strokes are where the grey level changes sharply. Long straight runs of change are ruling
lines, borders and zebra stripes; they are removed. What remains is dilated sideways just enough
to join letters and words into phrases but not neighbouring table columns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from pipeline.models import Box
from pipeline.pixels import Gray

__all__ = [
    "TextBoxes",
    "faint_extent",
    "faint_text",
    "find_text_boxes",
    "ink_bounds",
    "restore_spaces",
]

_EDGE_THRESHOLD = 48
_INK_CONTRAST = 28


@dataclass(frozen=True)
class TextBoxes:
    boxes: list[Box]
    text_height: float
    mask: NDArray[np.uint8]


def _edges(gray: Gray) -> NDArray[np.uint8]:
    kernel = np.ones((2, 2), np.uint8)
    gradient = cv2.morphologyEx(gray, cv2.MORPH_GRADIENT, kernel)
    _, mask = cv2.threshold(gradient, _EDGE_THRESHOLD, 255, cv2.THRESH_BINARY)
    return np.asarray(mask, dtype=np.uint8)


def _remove_long_lines(
    mask: NDArray[np.uint8], min_length: int, min_height: int | None = None
) -> NDArray[np.uint8]:
    """Remove horizontal runs of `min_length` and vertical runs of `min_height` pixels: no
    glyph stroke is much taller than the text, so a shorter vertical run is already a border
    (a row header's edge broken at every row line)."""
    horizontal = cv2.morphologyEx(
        mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (min_length, 1))
    )
    vertical = cv2.morphologyEx(
        mask,
        cv2.MORPH_OPEN,
        cv2.getStructuringElement(cv2.MORPH_RECT, (1, min_height or min_length)),
    )
    lines = cv2.dilate(cv2.bitwise_or(horizontal, vertical), np.ones((3, 3), np.uint8))
    return np.asarray(cv2.bitwise_and(mask, cv2.bitwise_not(lines)), dtype=np.uint8)


def _glyph_height(mask: NDArray[np.uint8]) -> float:
    """Median height of glyph-sized blobs: the page's typical text height."""
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    heights = stats[1:count, cv2.CC_STAT_HEIGHT]
    widths = stats[1:count, cv2.CC_STAT_WIDTH]
    plausible = heights[(heights >= 5) & (heights <= 60) & (widths <= heights * 3)]
    return float(np.median(plausible)) if plausible.size else 12.0


def _ink(gray: Gray) -> NDArray[np.uint8]:
    """Text in a photo (blurred, noisy, unevenly lit): pixels that differ from their
    neighbourhood's level, either way, by more than the noise does."""
    smooth = cv2.GaussianBlur(gray, (0, 0), 0.8).astype(np.int16)
    around = cv2.blur(gray, (31, 31)).astype(np.int16)
    mask = (np.abs(smooth - around) > _INK_CONTRAST).astype(np.uint8) * 255
    return np.asarray(mask, dtype=np.uint8)


def _without_halos(gray: Gray, mask: NDArray[np.uint8], region: Box) -> NDArray[np.uint8]:
    """`mask` with the ink in `region` kept only where it differs from the background's own
    level (a median) too: beside a dark shape the mean drops, and the page around the shape
    passes for ink."""
    x0, y0, x1, y1 = region
    cleaned = mask.copy()
    off = _off_background(gray, region, _INK_CONTRAST)
    cleaned[y0:y1, x0:x1] = np.where(off, mask[y0:y1, x0:x1], 0)
    return cleaned


def _split_rows(
    mask: NDArray[np.uint8], x: int, y: int, w: int, h: int, text_height: float
) -> list[tuple[int, int, int, int, int]]:
    """A tall blob cut into bands at the rows with (almost) no ink of its own (before the
    joining dilation), each band with its own extent."""
    region = mask[y : y + h, x : x + w] > 0
    profile = region.sum(axis=1)
    floor = max(1, int(profile.max() * 0.08))
    bands: list[tuple[int, int]] = []
    start = None
    for row, ink in enumerate(profile):
        if ink > floor and start is None:
            start = row
        elif ink <= floor and start is not None:
            bands.append((start, row))
            start = None
    if start is not None:
        bands.append((start, h))
    if len(bands) < 2:
        return []
    pieces = []
    for top, bottom in bands:
        cols = np.nonzero(region[top:bottom].any(axis=0))[0]
        if cols.size == 0 or bottom - top < 0.4 * text_height:
            continue
        left, right = int(cols.min()), int(cols.max()) + 1
        area = int(region[top:bottom, left:right].sum())
        pieces.append((x + left, y + top, right - left, bottom - top, area))
    return pieces


def _dash(width: int, height: int, text_height: float) -> bool:
    """A hyphen or dash on its own: a short, flat stroke, as wide as a narrow letter."""
    return 0.25 * text_height <= width <= 1.2 * text_height and 1 <= height <= 0.4 * text_height


def _brightest_channel(rgb: NDArray[np.uint8]) -> Gray:
    """Each pixel's brightest channel, plane by plane (numpy's reduction over a last axis of
    three is about twenty times slower)."""
    return np.asarray(np.maximum(np.maximum(rgb[..., 0], rgb[..., 1]), rgb[..., 2]), dtype=np.uint8)


def find_text_boxes(
    gray: Gray, *, photo: bool = False, light_on_dark: NDArray[np.uint8] | None = None
) -> TextBoxes:
    """Phrase boxes on the page, in reading order (top to bottom, left to right). A photo's
    text is found by its contrast with the surroundings instead of sharp edges. On a dark
    page, `light_on_dark` (the colour image of the same pixels) gives each pixel its brightest
    channel first: coloured text (a blue link) is far brighter there than in grey."""
    source = gray
    if photo and light_on_dark is not None:
        source = _brightest_channel(light_on_dark)
        raw = _ink(source)
    elif light_on_dark is not None:
        # A render's coloured text on a dark page (a blue filter chip on navy) can have less
        # edge in grey than a glyph needs; its brightest channel has plenty.
        brightest = _brightest_channel(light_on_dark)
        raw = np.asarray(cv2.bitwise_or(_edges(gray), _edges(brightest)), dtype=np.uint8)
    else:
        raw = _ink(gray) if photo else _edges(gray)
    text_height = _glyph_height(raw)
    mask = _remove_long_lines(raw, max(40, int(text_height * 6)), max(24, round(text_height * 2.5)))
    # A photo's thin strokes (a hyphen) can fade out: join a little wider there.
    join = max(3, round(text_height * (0.85 if photo else 0.6)))
    joined = cv2.dilate(
        mask, cv2.getStructuringElement(cv2.MORPH_RECT, (join, max(1, round(text_height * 0.25))))
    )
    count, _, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    boxes: list[Box] = []
    pad = join // 2
    max_height = text_height * 4
    found: list[tuple[int, int, int, int, int]] = []
    for x, y, w, h, area in stats[1:count]:
        if h > max_height:
            # Lines of a dense column touching through descenders: cut at the empty rows.
            pieces = _split_rows(mask, int(x), int(y), int(w), int(h), text_height)
            if photo and all(p[3] > max_height for p in pieces):
                # Nothing of it a line's height: a column of dark status chips whose halos
                # joined them; without the halos it is cut again.
                region = (int(x), int(y), int(x + w), int(y + h))
                mask = _without_halos(source, mask, region)
                pieces = _split_rows(mask, int(x), int(y), int(w), int(h), text_height)
            found += pieces
        else:
            found.append((int(x), int(y), int(w), int(h), int(area)))
    for x, y, w, h, area in found:
        if h > max_height:
            continue
        # Too small for a word, but a lone dash (a table's "none") is a cell's text.
        if (h < 4 or area < 12) and (photo or not _dash(int(w) - 2 * pad, int(h), text_height)):
            continue
        inner = (int(x) + pad, int(y), int(x + w) - pad, int(y + h))
        if inner[2] - inner[0] < 2:
            continue
        flat = inner[3] - inner[1] < 0.6 * text_height and inner[2] - inner[0] > 2 * text_height
        if photo and flat:
            # What is left of a ruling line or a border in a photo, not a word.
            continue
        boxes.append(inner)
    boxes.sort(key=lambda b: (b[1], b[0]))
    return TextBoxes(boxes=boxes, text_height=text_height, mask=mask)


_FAINT_CONTRAST = 12
_CONTEXT = 16
"""Pixels around a region that its neighbourhood's level is taken over."""


def faint_text(gray: Gray, region: Box, text_height: float) -> Box | None:
    """The text in `region` of a photo found at a lower contrast than the page's ink (a header
    set in light grey, which the photo's blur fades below it): the tight box of its glyph-
    sized ink, or None when there is none as wide as a short word."""
    height, width = gray.shape
    x0, y0 = max(0, region[0]), max(0, region[1])
    x1, y1 = min(width, region[2]), min(height, region[3])
    if x1 - x0 < 4 or y1 - y0 < 4:
        return None
    ink = _faint_ink(gray, (x0, y0, x1, y1)).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    glyphs = [
        (int(x), int(y), int(x + w), int(y + h))
        for x, y, w, h, area in stats[1:count]
        if 0.4 * text_height <= h <= 2 * text_height and area >= 6
    ]
    if not glyphs:
        return None
    left, top = min(g[0] for g in glyphs), min(g[1] for g in glyphs)
    right, bottom = max(g[2] for g in glyphs), max(g[3] for g in glyphs)
    if right - left < 0.8 * text_height:
        return None
    return (x0 + left, y0 + top, x0 + right, y0 + bottom)


def _faint_ink(gray: Gray, region: Box) -> NDArray[np.bool_]:
    """Pixels of `region` that differ from their background by more than a faint glyph's
    contrast."""
    return _off_background(gray, region, _FAINT_CONTRAST)


def _off_background(gray: Gray, region: Box, contrast: int) -> NDArray[np.bool_]:
    """Pixels of `region` that differ from their background by more than `contrast` (the
    background taken over `_CONTEXT` pixels around the region too)."""
    height, width = gray.shape
    x0, y0 = max(0, region[0]), max(0, region[1])
    x1, y1 = min(width, region[2]), min(height, region[3])
    cx0, cy0 = max(0, x0 - _CONTEXT), max(0, y0 - _CONTEXT)
    cx1, cy1 = min(width, x1 + _CONTEXT), min(height, y1 + _CONTEXT)
    crop = np.ascontiguousarray(gray[cy0:cy1, cx0:cx1])
    smooth = cv2.GaussianBlur(crop, (0, 0), 0.8).astype(np.int16)
    # The background's own level (a median), not the mean: beside a dark word the mean
    # drops, and the white around the word would pass for faint ink.
    around = cv2.medianBlur(crop, 31).astype(np.int16)
    ink = np.abs(smooth - around) > contrast
    return np.asarray(ink[y0 - cy0 : y1 - cy0, x0 - cx0 : x1 - cx0], dtype=np.bool_)


def faint_extent(gray: Gray, box: Box, reach: tuple[int, int], text_height: float) -> Box:
    """`box` (a photo's cell text) grown sideways over the faint ink that goes on from it
    within a word's gap, no further than `reach` (left, right): the last glyphs of a name in
    a blurred or washed-out photo fall below the page's ink level and were cut off."""
    x0, y0, x1, y1 = box
    left, right = max(0, min(reach[0], x0)), min(gray.shape[1], max(reach[1], x1))
    band = (y0 + (y1 - y0) // 4, y1 - (y1 - y0) // 4)
    if band[1] <= band[0] or right - left < 2:
        return box
    ink = _faint_ink(gray, (left, band[0], right, band[1]))
    columns = [bool(v) for v in np.asarray(ink.any(axis=0), dtype=np.bool_)]
    gap = max(2, round(text_height * 0.85))
    end = x1
    x = x1
    while x < right and x - end <= gap:
        if columns[x - left]:
            end = x + 1
        x += 1
    start = x0
    x = x0 - 1
    while x >= left and start - x <= gap:
        if columns[x - left]:
            start = x
        x -= 1
    return (start, y0, end, y1)


def ink_bounds(mask: NDArray[np.uint8], box: Box) -> Box | None:
    """The tight box of text pixels inside `box`, or None when it holds none."""
    x0, y0, x1, y1 = box
    region = mask[y0:y1, x0:x1]
    ys, xs = np.nonzero(region)
    if xs.size == 0:
        return None
    return (x0 + int(xs.min()), y0 + int(ys.min()), x0 + int(xs.max()) + 1, y0 + int(ys.max()) + 1)


_GAP = 0.3
_PHOTO_GAP = 0.2
"""A word's gap, as a share of the crop's ink height, on a render and on a photo."""
_CJK_THEN_LATIN = re.compile(r"(?<=[\u3400-\u9fff])(?=[A-Za-z0-9])")


_INK_ROW = 0.2
"""A row holds the text's ink when it holds this share of the inkiest row's."""


def restore_spaces(text: str, crop: NDArray[np.uint8], *, photo: bool = False) -> str:
    """Put back the spaces a recogniser drops where the crop shows word-wide gaps. Between
    Chinese and following Latin text (`尼龙扎带150mm` for `尼龙扎带 150mm`): as many as the
    gaps outnumber the spaces already read, at those places, in order. Elsewhere (`Cabletie`,
    `1.2m×50m`), on a photo and in a line of several words, a gap no space read stands for
    is placed in the text by the widths of the characters before it, and a space put where it
    falls between two characters, never inside a number. A photo's blur spreads the ink into
    the gap and above and below the glyphs, so a word's gap there is a smaller share of the
    ink's height."""
    places = [m.start() for m in _CJK_THEN_LATIN.finditer(text)]
    if crop.size == 0 or not (places or (photo and " " in text.strip())):
        return text
    found = _word_gaps(crop, photo)
    if found is None:
        return text
    gaps, (first, last) = found
    missing = len(gaps) - text.count(" ")
    if missing <= 0:
        return text
    for at in reversed(places[:missing]):
        text = text[:at] + " " + text[at:]
    if not photo or " " not in text.strip():
        return text  # a code, a number or a date is one word, and a render's spaces are read
    return _spaces_by_place(text, gaps, first, last)


def _word_gaps(
    crop: NDArray[np.uint8], photo: bool
) -> tuple[list[tuple[float, int]], tuple[int, int]] | None:
    """The word-wide gaps in a text line's ink, each its middle and width (crop pixels), and
    the ink's first and last columns; None without ink."""
    gray = crop if crop.ndim == 2 else cv2.cvtColor(crop, cv2.COLOR_RGB2GRAY)
    _, ink = cv2.threshold(gray, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if ink.mean() > 0.5:
        ink = 1 - ink
    # The ink's height from the rows that hold a share of it: a crop's margins, replicated
    # from its edge rows, hold a stroke's few pixels in every row and are no taller text.
    per_row = ink.sum(axis=1)
    rows = np.nonzero(per_row >= _INK_ROW * per_row.max())[0] if per_row.max() else per_row[:0]
    cols = np.asarray(ink.any(axis=0), dtype=bool)
    filled = np.nonzero(cols)[0]
    if rows.size == 0 or filled.size == 0:
        return None
    height = int(rows.max() - rows.min() + 1)
    first, last = int(filled.min()), int(filled.max())
    wide = (_PHOTO_GAP if photo else _GAP) * height
    inked = np.nonzero(cols[first : last + 1])[0]
    runs = np.diff(inked) - 1
    kept = runs >= wide
    gaps = [
        (first + float(end) - float(run) / 2, int(run))
        for end, run in zip(inked[1:][kept], runs[kept], strict=True)
    ]
    return gaps, (first, last)


_NARROW = frozenset("iIl1.,:;'|!()[]{}jftr-/")
_WIDE = frozenset("mwMW@%")


def _advance(ch: str) -> float:
    """A character's width in a proportional font, as a share of its height (roughly)."""
    if ch == " ":
        return 0.3
    if "\u3400" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef":
        return 1.0
    if ch in _NARROW:
        return 0.33
    if ch in _WIDE:
        return 0.85
    return 0.65 if ch.isupper() else 0.55


def _may_part(left: str, right: str) -> bool:
    """Whether a space may stand between two characters: not beside one already, a hyphen
    or slash (`Heat-shrink`), nor inside brackets (`(pair)`), and not inside a number (`1.2`,
    `1,450`: a blurred point stands apart from its digits)."""
    if {left, right} & {" ", "-", "/"} or left in "([{" or right in ")]}":
        return False
    digits = left.isdigit() or left in ".,", right.isdigit() or right in ".,"
    return not all(digits)


_AS_WIDE = 0.8
"""A gap no space was read for is a word's when at least this share of the widest gap a space
was read for."""
_NEAR = 0.6
"""How far (in a character's average width) a gap may lie from a space to stand for it, or
from a place between two characters to be put there."""


def _spaces_by_place(text: str, gaps: list[tuple[float, int]], first: int, last: int) -> str:
    """`text` with a space where each gap that no space stands for falls between two
    characters, the text laid over the ink from its first column to its last. Such a gap
    must be about as wide as the widest one a space read stands for: a blurred pair of
    letters (`c l`) leaves a narrower one."""
    widths = [_advance(ch) for ch in text]
    total = sum(widths)
    if total <= 0 or last <= first:
        return text
    scale = (last - first) / total
    near = _NEAR * (last - first) / len(text)
    edges = [first + scale * w for w in np.cumsum([0.0, *widths]).tolist()]
    spaces = [(edges[i] + edges[i + 1]) / 2 for i, ch in enumerate(text) if ch == " "]
    read = [w for g, w in gaps if any(abs(g - s) <= near for s in spaces)]
    if not read:
        return text
    least = _AS_WIDE * max(read)
    free = [g for g, w in gaps if w >= least and all(abs(g - s) > near for s in spaces)]
    between = [k for k in range(1, len(text)) if _may_part(text[k - 1], text[k])]
    inserts: set[int] = set()
    for gap in free[: len(gaps) - len(spaces)]:
        if not between:
            break
        k = min(between, key=lambda k: abs(edges[k] - gap))
        if abs(edges[k] - gap) <= near:
            inserts.add(k)
    for k in sorted(inserts, reverse=True):
        text = text[:k] + " " + text[k:]
    return text
