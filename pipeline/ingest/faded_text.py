"""A photo's faint text: what its blur or glare faded below the page's ink level, found at a
lower contrast. A header name over a column of values (`faint_names`); the values a glare
faded out of a named column's cells (`faint_cells`); a column of light grey codes whose glyphs
came out as two runs of fragments, taken for two columns (`faint_fragments_joined`); how far a
cell's faint ink may reach (`between`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pipeline.imaging import TextBoxes, faint_extent, faint_text
from pipeline.models import Box
from pipeline.pixels import Gray
from pipeline.table import TableLayout, find_table, headless_regions, union_box

__all__ = ["between", "faint_cells", "faint_fragments_joined", "faint_names"]


_LEAST_ROWS = 3
_BOTH_SHARE = 0.7
"""The share of a pair's filled rows where both columns hold a box."""
_BRIDGED_SHARE = 0.8
"""The share of those rows where faint ink runs on from the left box to the right one."""


def between(columns: Sequence[tuple[int, int]], c: int, text_height: float) -> tuple[int, int]:
    """How far column `c`'s text may reach sideways: to half a text height short of its
    neighbours' columns."""
    margin = round(text_height / 2)
    left = columns[c - 1][1] + margin if c > 0 else 0
    right = columns[c + 1][0] - margin if c + 1 < len(columns) else 1 << 30
    return left, right


def faint_names(found: TextBoxes, layout: TableLayout, gray: Gray) -> tuple[TextBoxes, TableLayout]:
    """The boxes and table with the header names a photo's blur faded below the page's ink
    level (light grey names over columns that have values) found at a lower contrast, when
    the table found again gives those columns their names."""
    regions = headless_regions(found.boxes, layout.header, layout.columns, found.text_height)
    faint = [b for r in regions if (b := faint_text(gray, r, found.text_height)) is not None]
    if not faint:
        return found, layout
    boxes = [*found.boxes, *faint]
    again = find_table(boxes, found.text_height, gray)
    if again is None or len(again.columns) != len(layout.columns):
        return found, layout
    if sum(1 for cell in again.header if cell) <= sum(1 for cell in layout.header if cell):
        return found, layout
    mask = found.mask.copy()
    for x0, y0, x1, y1 in faint:
        mask[y0:y1, x0:x1] = 255
    return replace(found, boxes=boxes, mask=mask), again


_FILLED_SHARE = 0.5
"""A column holds values when at least this share of the rows has one."""
_BAND = 0.8
"""Half the height (in text heights) of the band a row's faint value is looked for in."""


def faint_cells(found: TextBoxes, layout: TableLayout, gray: Gray) -> tuple[TextBoxes, TableLayout]:
    """The boxes and table with the values a photo's glare faded below the page's ink level
    (a light grey number under a bright reflection) found at a lower contrast in the empty
    cells of a named column that holds values on most rows: each is looked for on its row's
    line, within the column's span."""
    th = found.text_height
    boxes = list(found.boxes)
    rows = [list(row) for row in layout.rows]
    margin = round(th / 2)
    for c, (lo, hi) in enumerate(layout.columns):
        if c >= len(layout.header) or not layout.header[c]:
            continue
        filled = sum(1 for row in rows if row[c])
        if filled == len(rows) or filled < max(_LEAST_ROWS, _FILLED_SHARE * len(rows)):
            continue
        left, right = between(layout.columns, c, th)
        x0, x1 = max(lo - margin, left), min(hi + margin, right)
        for row in rows:
            if row[c]:
                continue
            centres = sorted((boxes[i][1] + boxes[i][3]) / 2 for cell in row for i in cell)
            if not centres:
                continue
            middle = centres[len(centres) // 2]
            band = (x0, round(middle - _BAND * th), x1, round(middle + _BAND * th))
            if (box := faint_text(gray, band, th)) is not None:
                row[c] = [len(boxes)]
                boxes.append(box)
    if len(boxes) == len(found.boxes):
        return found, layout
    mask = found.mask.copy()
    for x0, y0, x1, y1 in boxes[len(found.boxes) :]:
        mask[y0:y1, x0:x1] = 255
    return replace(found, boxes=boxes, mask=mask), replace(layout, rows=rows)


def faint_fragments_joined(found: TextBoxes, layout: TableLayout, gray: Gray) -> TableLayout:
    """The table with two neighbouring columns joined into one where they are the two runs of
    one faint column: a light grey code (`SKU-10231`) blurred on a photo leaves two runs of
    darker glyphs (`S`, `1023`) at the same places on every row, which line up as two columns.
    They are joined when, on most rows holding both, faint ink fills the gap between the two
    boxes, and the headers agree: the right column has no header name, and the two boxes stand
    further apart than a word's gap (two columns set close are not a faded run); or the right
    column's header stands over both runs while the left column's header stands over neither
    (it is a neighbour's name, taken for want of one), where a narrower gap is the code's own.
    Joined, each cell is read whole under the header over it."""
    th = found.text_height
    boxes = found.boxes
    columns = list(layout.columns)
    header = list(layout.header)
    rows = [list(row) for row in layout.rows]
    c = 0
    while c + 1 < len(columns):
        named = _spans_both(boxes, header, columns, c)
        if (header[c + 1] and not named) or not _bridged(boxes, rows, c, gray, th, named):
            c += 1
            continue
        columns[c : c + 2] = [(columns[c][0], columns[c + 1][1])]
        header[c : c + 2] = [header[c + 1] if named else header[c]]
        for row in rows:
            row[c : c + 2] = [[*row[c], *row[c + 1]]]
    if len(columns) == len(layout.columns):
        return layout
    return replace(layout, columns=columns, header=header, rows=rows)


def _over(boxes: Sequence[Box], cell: Sequence[int], column: tuple[int, int]) -> bool:
    """Whether the header `cell` stands over `column` (they overlap sideways)."""
    if not cell:
        return False
    x0, _, x1, _ = union_box([boxes[i] for i in cell])
    return x0 < column[1] and x1 > column[0]


def _spans_both(
    boxes: Sequence[Box],
    header: Sequence[Sequence[int]],
    columns: Sequence[tuple[int, int]],
    c: int,
) -> bool:
    """Whether column `c + 1`'s header stands over columns `c` and `c + 1` while column `c`'s
    own header stands over neither."""
    right = header[c + 1]
    return (
        _over(boxes, right, columns[c])
        and _over(boxes, right, columns[c + 1])
        and not _over(boxes, header[c], columns[c])
        and not _over(boxes, header[c], columns[c + 1])
    )


def _bridged(
    boxes: Sequence[Box],
    rows: Sequence[Sequence[Sequence[int]]],
    c: int,
    gray: Gray,
    text_height: float,
    named: bool,
) -> bool:
    filled = [row for row in rows if row[c] or row[c + 1]]
    both = [row for row in filled if row[c] and row[c + 1]]
    if len(both) < max(_LEAST_ROWS, _BOTH_SHARE * len(filled)):
        return False
    bridged = 0
    for row in both:
        left = union_box([boxes[i] for i in row[c]])
        right = union_box([boxes[i] for i in row[c + 1]])
        if right[0] - left[2] <= text_height:
            bridged += named  # a word's gap: the code's own under one name, else two columns
            continue
        grown = faint_extent(gray, left, (left[0], right[0]), text_height)
        bridged += grown[2] >= right[0] - max(1, round(text_height * 0.3))
    return bridged >= _BRIDGED_SHARE * len(both)
