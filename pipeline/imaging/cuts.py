"""Whether an outline found in a photo cuts through the content it should hold.

A screen's edge has bezel and wall beyond it, and the content corners found by the screen's
own lines have a margin. A table whose rows or columns go on past an outline means the
outline is something inside the screen (a dark panel taken for the frame, a card for the
page, content corners that missed a column); warping to it would throw the rest of the
table away. Content corners hold every row of text they were found from: one row that
crosses them loses its first or last characters to the warp. Pure: a grey photo and a quad
in.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from pipeline.imaging.rectify import Quad
from pipeline.imaging.textrows import WorkingRows, working_rows
from pipeline.pixels import Floats, Gray

__all__ = ["cuts_text"]


_CUT_ROWS = 8
_CUT_SHARE = 0.08
_SLIVER = 0.15
"""How far past content corners (a share of a glyph's height) a row of text may reach."""


def cuts_text(gray: Gray, quad: Quad, *, rows: WorkingRows | None = None) -> bool:
    """Whether `quad` (photo pixels) cuts through the content it should hold: rows of text
    beyond its sides that go on its own rows (level with a row inside, beyond the left or
    right side) or its own columns (an end in line with a column's, beyond the top or the
    bottom), or that cross its outline; at least `_CUT_ROWS` of them and `_CUT_SHARE` of
    all. A screen's edge has bezel and wall beyond it, and content corners a margin; what
    lies past them is not the table's (a sidebar on another panel, a laptop's keys). A
    table that goes on past the outline means the outline is something inside the screen
    (a dark panel taken for the frame, a card for the page, content corners that missed a
    column), and warping to it would throw the rest of the table away. Content corners
    (kind `lines`) are found around the text itself: a single row of text that goes on past
    them by more than a sliver of a glyph (a paragraph's ragged edge taken for a slanted
    column, its lines' first letters sheared off) cuts it. `rows`: the photo's rows of text,
    found already."""
    looked = rows if rows is not None else working_rows(gray)
    text, factor = looked.text, looked.factor
    words, typical = text.ends, text.height
    if len(words) == 0:
        return False
    width, height = (side * factor for side in quad.size())
    matrix = cv2.getPerspectiveTransform(
        (np.array(quad.points, dtype=np.float64) * factor).astype(np.float32),
        np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float32),
    )
    warped = cv2.perspectiveTransform(words.reshape(-1, 1, 2), matrix).reshape(-1, 2, 2)
    ends = np.asarray(warped, dtype=np.float64)
    x, y = ends[:, :, 0], ends[:, :, 1]
    inside = (x >= 0) & (x <= 1) & (y >= 0) & (y <= 1)
    held, within = inside.all(axis=1), inside.any(axis=1)
    crossing = within & ~held
    if quad.kind == "lines" and _sheared(x, y, within & ~text.solid, typical, (width, height)):
        return True
    if not held.any():
        return bool(crossing.sum() >= max(_CUT_ROWS, _CUT_SHARE * len(words)))
    middle = y.mean(axis=1)
    levels = _shared(middle[held], 0.5 * typical / height, 2)
    lefts = _shared(x[held, 0], 0.5 * typical / width, 3)
    rights = _shared(x[held, 1], 0.5 * typical / width, 3)
    on_row = _near(middle, levels, 0.5 * typical / height)
    in_column = _near(x[:, 0], lefts, 0.5 * typical / width) | _near(
        x[:, 1], rights, 0.5 * typical / width
    )
    level = ~within & (middle >= 0) & (middle <= 1) & on_row
    plumb = ~within & (x >= 0).all(axis=1) & (x <= 1).all(axis=1) & in_column
    cut = int((crossing | level | plumb).sum())
    return cut >= max(_CUT_ROWS, _CUT_SHARE * len(words))


def _sheared(
    x: Floats, y: Floats, rows: NDArray[np.bool_], typical: float, size: tuple[float, float]
) -> bool:
    """Whether one of `rows` (each with an end inside the outline) has its other end past it
    by more than a sliver of a glyph: its first or last characters would be cut off (ends in
    the outline's unit square, `size` its sides in working pixels)."""
    slack_x, slack_y = _SLIVER * typical / size[0], _SLIVER * typical / size[1]
    loose = (x >= -slack_x) & (x <= 1 + slack_x) & (y >= -slack_y) & (y <= 1 + slack_y)
    return bool((rows & ~loose.all(axis=1)).any())


def _shared(values: Floats, tolerance: float, least: int) -> Floats:
    """The values at least `least` of them agree with (within `tolerance`, themselves
    included): a table's rows (two cells level) and its columns' edges (three ends in line),
    not a lone word's."""
    if len(values) == 0:
        return values
    close = np.abs(values[:, None] - values[None, :]) <= tolerance
    return np.asarray(values[close.sum(axis=1) >= least], dtype=np.float64)


def _near(values: Floats, targets: Floats, tolerance: float) -> NDArray[np.bool_]:
    if len(targets) == 0:
        return np.zeros(len(values), dtype=np.bool_)
    return np.asarray(np.abs(values[:, None] - targets[None, :]).min(axis=1) <= tolerance)
