"""Which one of a row of like words a page marks as chosen: a tab bar or a segmented control
(`WH-01 | WH-02 | WH-03`) shows its selected item underlined, filled or in heavier type."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pipeline.models import Box
from pipeline.pixels import Gray
from pipeline.table.layout import surround_level

__all__ = ["emphasised"]

_INK = 60
"""Grey levels from the background that make a pixel ink."""
_BAR = 40
"""Grey levels from the background that make a pixel part of an underline or a fill."""


def _level(gray: Gray, box: Box) -> float:
    """What `box` is drawn on: the commonest grey level around it, grown by its height."""
    return surround_level(gray, box, box[3] - box[1])


def _underline(gray: Gray, box: Box, level: float) -> float:
    """The largest share of the box's width that one pixel row just below it covers with a
    bar (an underline or a tab's indicator)."""
    x0, y0, x1, y1 = box
    strip = gray[y1 : y1 + max(2, y1 - y0), x0:x1].astype(np.int16)
    if strip.size == 0:
        return 0.0
    return float((np.abs(strip - level) > _BAR).mean(axis=1).max())


def _strokes(gray: Gray, box: Box, level: float) -> float:
    x0, y0, x1, y1 = box
    region = gray[y0:y1, x0:x1].astype(np.int16)
    return float((np.abs(region - level) > _INK).mean()) if region.size else 0.0


def _one(values: Sequence[float], *, over: float, ratio: float = 1.0) -> int | None:
    """The index of the only value above `over` (and `ratio` times the next), else None."""
    order = sorted(range(len(values)), key=lambda i: -values[i])
    top, second = values[order[0]], values[order[1]]
    return order[0] if top > over and top >= ratio * second and second <= over else None


def emphasised(gray: Gray, boxes: Sequence[Box]) -> int | None:
    """The index of the one box among `boxes` (words of one row, in working pixels) drawn
    as chosen: the only one underlined, else the only one on a fill of its own, else the
    only one in clearly heavier strokes; None when no one stands out."""
    if len(boxes) < 2:
        return None
    levels = [_level(gray, b) for b in boxes]
    page = float(np.median(levels))
    underlined = _one(
        [_underline(gray, b, lv) for b, lv in zip(boxes, levels, strict=True)], over=0.6
    )
    if underlined is not None:
        return underlined
    filled = _one([abs(lv - page) for lv in levels], over=_BAR)
    if filled is not None:
        return filled
    strokes = [_strokes(gray, b, lv) for b, lv in zip(boxes, levels, strict=True)]
    order = sorted(strokes, reverse=True)
    return strokes.index(order[0]) if order[0] >= 1.2 * order[1] > 0 else None
