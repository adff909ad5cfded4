"""A table's columns as spans across the page: the boxes that reach into another column's
core (captions, toolbars, merged cells: they must not widen a column), overlapping spans
merged, each box given to the column its centre falls in, and a header name standing over a
gap beside its column, while another name stands over the values, given a column of its own
(values a photo lost, such as a status column's chips)."""

from __future__ import annotations

from collections.abc import Sequence
from statistics import median

from pipeline.models import Box

__all__ = ["APART", "Cell", "assign", "merge_overlapping", "names_apart", "spanning_boxes"]

Cell = list[int]
"""Indices of the boxes that make up one cell (empty when the cell is blank)."""


def spanning_boxes(boxes: Sequence[Box], stacks: list[list[int]]) -> set[int]:
    """Boxes that reach into the core of another column stack (the span between its median
    left and right edges): captions, toolbars and merged cells, which must not widen a column."""
    cores = [
        (median(boxes[i][0] for i in stack), median(boxes[i][2] for i in stack)) for stack in stacks
    ]
    found: set[int] = set()
    for a, stack in enumerate(stacks):
        for i in stack:
            x0, x1 = boxes[i][0], boxes[i][2]
            if any(b != a and x0 < hi and lo < x1 for b, (lo, hi) in enumerate(cores)):
                found.add(i)
    # A box shared by most of its stack is the stack's shape, not an outlier.
    return {
        i
        for stack in stacks
        for i in stack
        if i in found and sum(j in found for j in stack) <= max(1, len(stack) // 4)
    }


def merge_overlapping(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for x0, x1 in sorted(spans):
        if merged and x0 < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], x1))
        else:
            merged.append((x0, x1))
    return merged


def assign(boxes: Sequence[Box], members: list[int], columns: list[tuple[int, int]]) -> list[Cell]:
    """Each box goes to the column its centre falls in (columns reach halfway to neighbours)."""
    bounds = [
        (
            (columns[c - 1][1] + x0) / 2 if c else float("-inf"),
            (x1 + columns[c + 1][0]) / 2 if c + 1 < len(columns) else float("inf"),
        )
        for c, (x0, x1) in enumerate(columns)
    ]
    found: list[Cell] = [[] for _ in columns]
    for i in members:
        centre = (boxes[i][0] + boxes[i][2]) / 2
        for c, (lo, hi) in enumerate(bounds):
            if lo <= centre < hi:
                found[c].append(i)
                break
    return found


APART = 2.0
"""Text heights between a header name and its column's values for the name to stand over a
column of its own."""


def names_apart(
    boxes: Sequence[Box], grid: list[list[Cell]], columns: list[tuple[int, int]], text_height: float
) -> tuple[list[list[Cell]], list[tuple[int, int]]]:
    """A header name over a gap beside a column, away from its values, while another name
    stands over them, heads a column of its own whose values were not read (a status column
    of coloured chips a photo loses): `STATUS` and `CURRENT STOCK` are two columns, not one
    header over the stock. Values that were read beyond the column, under the new name, are
    the new column's (chips the grid gave to the codes beside them)."""
    header = grid[0]
    added: list[tuple[int, list[int], tuple[int, int], int]] = []
    kept: list[Cell] = []
    for c, cell in enumerate(header):
        x0, x1 = columns[c]
        over = [i for i in cell if boxes[i][2] > x0 and boxes[i][0] < x1]
        left = [i for i in cell if boxes[i][2] <= x0 - APART * text_height]
        right = [i for i in cell if boxes[i][0] >= x1 + APART * text_height]
        if not over or not (left or right) or len(over) + len(left) + len(right) != len(cell):
            kept.append(cell)
            continue
        for side, at in ((left, c), (right, c + 1)):
            if side:
                span = (min(boxes[i][0] for i in side), max(boxes[i][2] for i in side))
                added.append((at, side, span, c))
        kept.append(over)
    if not added:
        return grid, columns
    new_columns = list(columns)
    new_header = list(kept)
    rows = [[list(cell) for cell in row] for row in grid[1:]]
    # Values that were read under the new name (chips the grid gave its neighbour) move to it.
    moved: dict[tuple[int, int, tuple[int, int]], Cell] = {}
    for at, _side, (lo, hi), c in added:
        x0, x1 = columns[c]
        for r, row in enumerate(rows):
            under = [
                i
                for i in row[c]
                if lo - text_height <= (boxes[i][0] + boxes[i][2]) / 2 <= hi + text_height
                and (boxes[i][0] >= x1 if at > c else boxes[i][2] <= x0)
            ]
            row[c] = [i for i in row[c] if i not in under]
            moved[(r, at, (lo, hi))] = under
    for at, side, span, _c in sorted(added, key=lambda a: (a[0], a[2]), reverse=True):
        new_columns.insert(at, span)
        new_header.insert(at, side)
        for r, row in enumerate(rows):
            row.insert(at, moved.get((r, at, span), []))
    return [new_header, *rows], new_columns
