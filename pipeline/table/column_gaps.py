"""Where a table's columns meet: which columns a box stands over, boxes that took two
columns' texts cut apart at the gap between them, and where a column's missing header name
would stand (a photo's faint name is looked for there).

Text boxes are found by joining ink across word-sized gaps, so two columns set closer than a
word space (`On order` right-aligned against `Status`, in a kit's compact header) come out as
one box. `pipeline.table.layout` still finds both columns from the rows below; the box over
both is then cut where its own ink leaves a gap between them. Pure: boxes and the ink mask in.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

import numpy as np
from numpy.typing import NDArray

from pipeline.models import Box

__all__ = ["columns_under", "headless_regions", "split_merged"]


def columns_under(box: Box, columns: Sequence[tuple[int, int]]) -> set[int]:
    """The columns a header box stands over: those it overlaps by at least 30% of the narrower
    of the two (a filter chip or a caption above the table straddles columns instead)."""
    x0, x1 = box[0], box[2]
    return {
        c
        for c, (lo, hi) in enumerate(columns)
        if min(x1, hi) - max(x0, lo) >= 0.3 * max(1, min(x1 - x0, hi - lo))
    }


def split_merged(
    boxes: Sequence[Box],
    mask: NDArray[np.uint8],
    cells: Sequence[Sequence[Sequence[int]]],
    columns: Sequence[tuple[int, int]],
    text_height: float,
) -> list[Box] | None:
    """The boxes with each table box that stands over two neighbouring columns (names set so
    close that one box took both: `On order Status`) cut at the widest gap in its ink between
    the two, each piece at least a short word wide; None when no box needs it. `mask` is the
    text ink the boxes were found in; `cells` the table's rows of cells (indices into `boxes`)
    and `columns` its columns' spans, as `pipeline.table.layout.find_table` gives them."""
    least = max(2, round(text_height * 0.2))
    pieces: dict[int, list[Box]] = {}
    for i in (i for row in cells for cell in row for i in cell):
        x0, y0, x1, y1 = boxes[i]
        edges: list[int] = []
        for a, b in pairwise(sorted(columns_under(boxes[i], columns))):
            if b != a + 1:
                continue
            lo = max(x0 + 1, round(columns[a][1] - text_height / 2))
            hi = min(x1 - 1, round(columns[b][0] + text_height / 2))
            if hi - lo < least:
                continue
            gap = _widest_run(np.asarray(mask[y0:y1, lo:hi].max(axis=0) == 0))
            if gap is not None and gap[1] - gap[0] >= least:
                edges += [lo + gap[0], lo + gap[1]]
        edges = [x0, *edges, x1]
        parts = [(left, right) for left, right in zip(edges[0::2], edges[1::2], strict=True)]
        # A piece narrower than a word is a bracket or a letter the gap came before.
        if len(parts) > 1 and all(right - left >= 0.8 * text_height for left, right in parts):
            pieces[i] = [(left, y0, right, y1) for left, right in parts]
    if not pieces:
        return None
    out: list[Box] = []
    for i, box in enumerate(boxes):
        out += pieces.get(i, [box])
    return out


def headless_regions(
    boxes: Sequence[Box],
    header: Sequence[Sequence[int]],
    columns: Sequence[tuple[int, int]],
    text_height: float,
) -> list[Box]:
    """Where the header's name of each column without one would be: the header line's band
    from the neighbouring column (or its name) on the left to the one on the right (a name
    over a narrow right-aligned column reaches left of it). `header` is the table's header
    cells (indices into `boxes`)."""
    named = [boxes[i] for cell in header for i in cell]
    if not named:
        return []
    top = min(b[1] for b in named) - round(0.2 * text_height)
    bottom = max(b[3] for b in named) + round(0.2 * text_height)
    reach = round(2 * text_height)
    regions = []
    for c, (lo, hi) in enumerate(columns):
        if c < len(header) and header[c]:
            continue
        left, right = lo - reach, hi + reach
        if c > 0:
            names = [boxes[i][2] for i in (header[c - 1] if c - 1 < len(header) else [])]
            left = max([columns[c - 1][1], *names]) + 2
        if c + 1 < len(columns):
            names = [boxes[i][0] for i in (header[c + 1] if c + 1 < len(header) else [])]
            right = min([columns[c + 1][0], *names]) - 2
        if right > left:
            regions.append((max(0, left), max(0, top), right, bottom))
    return regions


def _widest_run(empty: NDArray[np.bool_]) -> tuple[int, int] | None:
    """The widest run of True values, as (start, end)."""
    best: tuple[int, int] | None = None
    start = None
    for x, value in enumerate([*empty.tolist(), False]):
        if value and start is None:
            start = x
        elif not value and start is not None:
            if best is None or x - start > best[1] - best[0]:
                best = (start, x)
            start = None
    return best
