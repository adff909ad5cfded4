"""Text boxes grouped into the lines of a page, and a page's lines in reading order.

A line is the boxes whose vertical centres agree (within a tolerance the caller gives, from
the text height), neighbouring lines that are one row drifting across a photographed page
joined again. `pipeline.table.layout` builds rows on these lines; the reading order a page's
text is shown in follows the same rule. Pure: boxes or text lines in.
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import median

from pipeline.models import Box, TextLine

__all__ = ["box_lines", "cell_lines", "reading_order", "union_box", "visual_lines"]


def union_box(boxes: Sequence[Box]) -> Box:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def box_lines(boxes: Sequence[Box], tolerance: float) -> list[list[int]]:
    """Indices of boxes grouped into text lines by vertical centre."""
    order = sorted(range(len(boxes)), key=lambda i: (boxes[i][1] + boxes[i][3]) / 2)
    lines: list[list[int]] = []
    centre = total = -1e9
    for i in order:
        y = (boxes[i][1] + boxes[i][3]) / 2
        if lines and abs(y - centre) <= tolerance:
            lines[-1].append(i)
            total += y  # exact: every centre is a whole or half pixel
            centre = total / len(lines[-1])
        else:
            lines.append([i])
            centre = total = y
    lines = _rejoin_drifted(boxes, lines)
    for line in lines:
        line.sort(key=lambda i: boxes[i][0])
    return lines


def cell_lines(boxes: Sequence[Box], members: Sequence[int], text_height: float) -> list[list[int]]:
    """A cell's boxes as the lines it is written on, top to bottom (one line for most cells;
    a header wrapped over two or three lines has more), each left to right; none for an
    empty cell. `text_height` is the layout's (0.6 of a line's height)."""
    if not members:
        return []
    chosen = [boxes[i] for i in members]
    return [[members[k] for k in line] for line in box_lines(chosen, max(2.0, text_height * 0.45))]


def _rejoin_drifted(boxes: Sequence[Box], lines: list[list[int]]) -> list[list[int]]:
    """Neighbouring lines that are one row drifting across the page (a photo whose plane was
    found a little off: the row's right end sits a few pixels higher than its left) joined:
    side by side without overlapping, and mostly at the same height."""
    joined: list[list[int]] = []
    for line in lines:
        if joined:
            last = joined[-1]
            top = max(median(boxes[i][1] for i in last), median(boxes[i][1] for i in line))
            bottom = min(median(boxes[i][3] for i in last), median(boxes[i][3] for i in line))
            height = min(
                median(boxes[i][3] - boxes[i][1] for i in last),
                median(boxes[i][3] - boxes[i][1] for i in line),
            )
            level = height > 0 and bottom - top >= 0.5 * height
            if level and all(
                boxes[i][2] <= boxes[j][0] or boxes[j][2] <= boxes[i][0] for i in last for j in line
            ):  # mostly at one height (most neighbouring lines are not), and side by side
                last.extend(line)
                continue
        joined.append(list(line))
    return joined


def visual_lines(lines: Sequence[TextLine]) -> list[list[TextLine]]:
    """A page's non-blank lines grouped into visual lines (pieces side by side at one height,
    by the table's own rule), top to bottom, each left to right."""
    kept = [line for line in lines if line.text.strip()]
    if not kept:
        return []
    boxes = [line.box for line in kept]
    height = median(b[3] - b[1] for b in boxes)
    return [[kept[i] for i in row] for row in box_lines(boxes, max(2.0, height * 0.45))]


def reading_order(lines: Sequence[TextLine]) -> list[str]:
    """Texts of a page's lines top to bottom, left to right, the pieces of one visual line
    joined with wide gaps shown as ` · `."""
    return ["  ".join(line.text.strip() for line in row) for row in visual_lines(lines)]
