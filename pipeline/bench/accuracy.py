"""Cell exact-match, TEDS and inventory fields against the ground truth, and a grid rebuilt from
full-page OCR lines.

The grid is rebuilt the way the ingest does it for detected text (`find_table` over the line
boxes), so the full-page baseline is scored on the same cells as the pipeline.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from statistics import median

from pipeline.fields import FIELDS
from pipeline.models import Row, Table, TextLine
from pipeline.table import clean_text, find_table, grid_html, to_rows
from pipeline.truth import Truth

__all__ = ["FIELDS", "cell_matches", "field_matches", "grid_from_lines", "teds"]


def cell_matches(table: Table, truth: Truth) -> tuple[int, int]:
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
    rows = layout.grid
    texts = [
        [" ".join(clean_text(kept[i].text) for i in members) for members in row] for row in rows
    ]
    keep = [
        c for c in range(len(texts[0])) if any(any(ch.isalnum() for ch in row[c]) for row in texts)
    ]
    texts = [[row[c] for c in keep] for row in texts]
    return Table(header=texts[0], cells=texts[1:])


_TEDS: Callable[[str, str], float] | None = None
"""`table-recognition-metric`'s scorer, built on first use: TEDS of predicted HTML against true."""


def teds(table: Table, truth: Truth) -> float | None:
    """TEDS of the table against the truth's HTML (its merged cells when it has them), or None
    when `table-recognition-metric` is not installed."""
    global _TEDS
    if _TEDS is None:
        try:
            from table_recognition_metric import TEDS
        except ImportError:
            return None
        _TEDS = TEDS()
    want = truth.get("table_html") or grid_html(Table(header=truth["header"], cells=truth["cells"]))
    got = grid_html(table) if table.header or table.cells else ""
    wrap = "<html><body>{}</body></html>"
    return float(_TEDS(wrap.format(_plain(got)), wrap.format(_plain(want))))


def _plain(html: str) -> str:
    """Header cells as data cells and no row groups: TEDS then compares rows, cells, spans and
    texts, not whether a tool writes `<th>` (no tool here marks its header)."""
    html = re.sub(r"</?(thead|tbody)>", "", html)
    return re.sub(r"<(/?)th\b", r"<\1td", html)


def field_matches(table: Table, rows: Sequence[Row] | None, truth: Truth) -> tuple[int, int]:
    """Inventory fields equal to the truth's rows (a row's warehouse may come from its page).
    A truth row is compared with the row read with its SKU, else with the row in its place
    (so one row missed does not count every row after it as wrong)."""
    if rows is None:
        confs = [[1.0] * len(r) for r in table.cells]
        rows = to_rows(table, confs).rows
    wanted = {expected["sku"] for expected in truth.get("rows", [])}
    used: set[int] = set()
    hits = total = 0
    for r, expected in enumerate(truth.get("rows", [])):
        same = [k for k, row in enumerate(rows) if row.sku == expected["sku"] and k not in used]
        if same:
            # The same SKU in several warehouses: the one in its place first, else the first.
            k = r if r in same else same[0]
        elif r < len(rows) and rows[r].sku not in wanted and r not in used:
            k = r  # its SKU misread: compared in place
        else:
            k = -1
        got = rows[k] if k >= 0 else None
        if k >= 0:
            used.add(k)
        fields: dict[str, object] = dict(expected)
        for name in FIELDS:
            want = fields[name]
            if name == "warehouse_id" and want is None:
                want = truth.get("page_warehouse")
            total += 1
            hits += got is not None and getattr(got, name) == want
    return hits, total
