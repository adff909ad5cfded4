"""Find text on a clean render with plain image processing, so OCR only has to recognise it.

Text strokes are where the grey level changes sharply. Long straight runs of change are ruling
lines, borders and zebra stripes; they are removed. What remains is dilated sideways just enough
to join letters and words into phrases but not neighbouring table columns.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from pipeline.models import Box

__all__ = ["TextBoxes", "find_text_boxes", "ink_bounds"]

Gray = NDArray[np.uint8]
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


def find_text_boxes(gray: Gray, *, photo: bool = False) -> TextBoxes:
    """Phrase boxes on the page, in reading order (top to bottom, left to right). A photo's
    text is found by its contrast with the surroundings instead of sharp edges."""
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
    for x, y, w, h, area in stats[1:count]:
        if h < 4 or h > max_height or area < 12:
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


def ink_bounds(mask: NDArray[np.uint8], box: Box) -> Box | None:
    """The tight box of text pixels inside `box`, or None when it holds none."""
    x0, y0, x1, y1 = box
    region = mask[y0:y1, x0:x1]
    ys, xs = np.nonzero(region)
    if xs.size == 0:
        return None
    return (x0 + int(xs.min()), y0 + int(ys.min()), x0 + int(xs.max()) + 1, y0 + int(ys.max()) + 1)
