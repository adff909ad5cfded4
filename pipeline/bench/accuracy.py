"""Cell exact-match against the ground truth, and a grid rebuilt from full-page OCR lines.

The grid is rebuilt the way the ingest does it for detected text (`find_table` over the line
boxes), so the full-page baseline is scored on the same cells as the pipeline.
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import median
from typing import Any

from pipeline.models import Table, TextLine
from pipeline.table.cells import clean_text
from pipeline.table.layout import find_table

__all__ = ["cell_matches", "grid_from_lines"]


def cell_matches(table: Table, truth: dict[str, Any]) -> tuple[int, int]:
    """(cells equal to the truth, cells in the truth), header row included."""
    want: list[list[str]] = [truth["header"], *truth["cells"]]
    got = [table.header, *table.cells]
    total = sum(len(row) for row in want)
    hits = sum(
        1
        for r, row in enumerate(want)
        for c, text in enumerate(row)
        if r < len(got) and c < len(got[r]) and got[r][c] == text
    )
    return hits, total


def grid_from_lines(lines: Sequence[TextLine]) -> Table:
    """The page's table from whole-page OCR lines; empty when no table is found."""
    kept = [line for line in lines if line.text.strip()]
    if not kept:
        return Table()
    boxes = [line.box for line in kept]
    layout = find_table(boxes, median(b[3] - b[1] for b in boxes) * 0.6)
    if layout is None:
        return Table()
    rows = [layout.header, *layout.rows]
    texts = [
        [" ".join(clean_text(kept[i].text) for i in members) for members in row] for row in rows
    ]
    keep = [
        c for c in range(len(texts[0])) if any(any(ch.isalnum() for ch in row[c]) for row in texts)
    ]
    texts = [[row[c] for c in keep] for row in texts]
    return Table(header=texts[0], cells=texts[1:])
