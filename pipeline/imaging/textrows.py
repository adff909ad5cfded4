"""Rows of text in a photo found by plain image processing, for the plane and the outline
checks (`pipeline.imaging.planes`, `pipeline.imaging.cuts`): each row of glyphs as the
segment along its axis, on a working-size grey copy. Pure: grey arrays in.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from pipeline.pixels import Floats, Gray

__all__ = ["MIN_LENGTH", "TextRows", "WorkingRows", "text_rows", "working_gray", "working_rows"]


_WORK_SIDE = 1200
MIN_LENGTH = 0.025
"""Shortest segment kept, as a share of the working image's diagonal."""


def working_gray(gray: Gray) -> tuple[Gray, float]:
    """A copy whose longer side is at most `_WORK_SIDE`, and the factor from the photo's
    pixels to it."""
    height, width = gray.shape
    factor = min(1.0, _WORK_SIDE / max(height, width))
    size = (max(1, round(width * factor)), max(1, round(height * factor)))
    return np.asarray(cv2.resize(gray, size, interpolation=cv2.INTER_AREA), dtype=np.uint8), factor


@dataclass(frozen=True)
class TextRows:
    """Rows of glyphs on a working-size image."""

    ends: Floats
    """Each row's axis (x0, y0, x1, y1), left end first."""
    long: NDArray[np.bool_]
    """Long enough to join the horizontal family of segments."""
    solid: NDArray[np.bool_]
    """Closed into a solid block: a short word or number, or a small key or button."""
    height: float
    """The median height of the rows that are not solid."""

    def words(self) -> Floats:
        """The rows that are surely text (not solid), whose ends line up in columns."""
        return np.asarray(self.ends[~self.solid], dtype=np.float64)

    def lines(self) -> Floats:
        """The long rows that are surely text, to join the horizontal family."""
        return np.asarray(self.ends[self.long & ~self.solid], dtype=np.float64)


@dataclass(frozen=True)
class WorkingRows:
    """A photo's grey at working size, the factor from the photo's pixels to it, and its rows
    of text: found once for every look at one photo (its plane, each outline's cut)."""

    small: Gray
    factor: float
    text: TextRows


def working_rows(gray: Gray) -> WorkingRows:
    small, factor = working_gray(gray)
    return WorkingRows(small, factor, text_rows(small))


def text_rows(gray: Gray) -> TextRows:
    """Rows of text: ink closed along the row, each component's axis as a segment. A
    component much taller or thicker than the page's rows of glyphs (over `_TALL` times the
    median height, or thickness across its axis, of its long rows of text) is a laptop's
    key, a button or an icon block: a keyboard below the screen lies on another plane, and
    its keys must neither pull the rows' vanishing point nor widen the region the text
    covers. Both measures count: a photo held askew makes a long row as tall as a key (its
    tilt adds to its height) but not as thick, and a screen's edge closed into a band is as
    thin as a row but taller."""
    # Either polarity, each on its own: dark text on a light page, light text on a dark one
    # (the photo's own median says nothing when a dark surround or bezel fills much of it).
    found: list[_Row] = []
    # Darker than the neighbourhood's mean by 12 levels, then lighter by as much.
    for kind, offset in ((cv2.THRESH_BINARY_INV, 12), (cv2.THRESH_BINARY, -12)):
        ink = cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, kind, 25, offset)
        found += _row_segments(np.asarray(ink, dtype=np.uint8))
    glyphs = [row for row in found if not row.solid]
    lines = [row for row in glyphs if row.long]
    typical = lines if len(lines) >= _LEAST else glyphs
    height = float(np.median([float(row.height) for row in typical] or [0.0]))
    thick = float(np.median([row.thick for row in typical] or [0.0]))
    kept = [row for row in found if row.height <= _TALL * height and row.thick <= _TALL * thick]
    heights = [row.height for row in kept if not row.solid]
    return TextRows(
        ends=np.asarray([row.ends for row in kept], dtype=np.float64).reshape(-1, 4),
        long=np.array([row.long for row in kept], dtype=np.bool_),
        solid=np.array([row.solid for row in kept], dtype=np.bool_),
        height=float(np.median(heights)) if heights else 0.0,
    )


_LEAST = 8
"""Long rows of text enough to measure the typical row by; with fewer, every row of glyphs."""


@dataclass(frozen=True)
class _Row:
    ends: list[float]
    """The axis (x0, y0, x1, y1), left end first."""
    height: int
    """The height of its box on the image."""
    thick: float
    """Its thickness across the axis (the narrower side of its smallest rotated box)."""
    long: bool
    solid: bool


_TALL = 1.7


def _row_segments(ink: NDArray[np.uint8]) -> list[_Row]:
    """Each row of glyphs in `ink` as a segment along its axis, with its height and
    thickness, whether it is long enough to join the horizontal family, and whether it is a
    solid block. A component cut by the image's edge (a key half in the photo) is left out:
    its shape is not its own."""
    height, width = ink.shape
    run = max(5, width // 150)
    closed = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, np.ones((1, run), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(closed, connectivity=8)
    min_length = MIN_LENGTH * float(np.hypot(width, height))
    found: list[_Row] = []
    for k in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[k])
        if h < 4 or h > 0.05 * height or w < 1.5 * h or area < w:
            continue  # not a row of glyphs: a speck, a tall block
        if x == 0 or y == 0 or x + w == width or y + h == height:
            continue
        ys, xs = np.nonzero(labels[y : y + h, x : x + w] == k)
        points = np.column_stack([xs + x, ys + y]).astype(np.float32)
        vx, vy, x0, y0 = (float(v[0]) for v in cv2.fitLine(points, cv2.DIST_L2, 0, 0.01, 0.01))
        if abs(vy) > abs(vx):
            continue
        along = (points[:, 0] - x0) * vx + (points[:, 1] - y0) * vy
        lo, hi = float(along.min()), float(along.max())
        segment = [x0 + lo * vx, y0 + lo * vy, x0 + hi * vx, y0 + hi * vy]
        if segment[0] > segment[2]:
            segment = [segment[2], segment[3], segment[0], segment[1]]
        solid = area > 0.8 * w * h
        thick = min(cv2.minAreaRect(points)[1]) + 1.0
        found.append(_Row(segment, h, thick, w >= min_length and w >= 4 * h, solid))
    return found
