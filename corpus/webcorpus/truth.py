"""The truth record of a render or photo, and the checks that the DOM shows what it says."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from screengen.geometry import Pixels

from .browser import DomCell
from .data import TableData


def image_box(box: Sequence[float], scale: float, size: tuple[int, int]) -> Pixels:
    """A CSS-pixel box in image pixels: outward to whole pixels, inside the image."""
    x0, y0, x1, y1 = box
    w, h = size
    return (
        max(0, math.floor(x0 * scale + 1e-6)),
        max(0, math.floor(y0 * scale + 1e-6)),
        min(w, math.ceil(x1 * scale - 1e-6)),
        min(h, math.ceil(y1 * scale - 1e-6)),
    )


def dom_mismatches(table: TableData, cells: Sequence[DomCell]) -> list[str]:
    """Where the rendered DOM's text differs from the truth grid (empty when it does not)."""
    grid = [table.header, *table.cells]
    seen: dict[tuple[int, int], str] = {}
    problems = []
    for cell in cells:
        for r in range(cell.row, cell.row + cell.rows):
            if (r, cell.col) in seen:
                problems.append(f"cell {(r, cell.col)} is drawn twice")
            seen[(r, cell.col)] = cell.text
    for r, row in enumerate(grid):
        for c, text in enumerate(row):
            shown = seen.pop((r, c), None)
            if shown != text:
                problems.append(f"cell {(r, c)}: truth {text!r}, page shows {shown!r}")
    problems += [f"cell {at} is not in the truth" for at in seen]
    return problems


def truth_record(
    *,
    file: str,
    kind: str,
    size: tuple[int, int],
    captured_at: str | None,
    captured_at_source: str,
    box: Pixels,
    table: TableData,
    page_warehouse: str | None,
    notes: str,
    table_html: str | None = None,
) -> dict[str, Any]:
    """The truth JSON of a render, in the samples' format; `table_html` only when given."""
    record: dict[str, Any] = {
        "file": file,
        "kind": kind,
        "size": list(size),
        "captured_at": captured_at,
        "captured_at_source": captured_at_source,
        "table_box": list(box),
        "header": list(table.header),
        "header_fields": list(table.schema_fields),
        "cells": [list(row) for row in table.cells],
        "rows": list(table.rows),
        "page_warehouse": page_warehouse,
        "screen_differs_from_live": list(table.differs),
        "notes": notes,
    }
    if table_html is not None:
        record["table_html"] = table_html
    return record
