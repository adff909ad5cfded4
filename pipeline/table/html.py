"""Tables as HTML with merged cells, both ways: what a structure model predicts, and what a
TEDS comparison reads.

A merged value is repeated in every row and column it spans when the table becomes a grid; the
header is the bottom row of the header block (a column's own name, not its group's).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from html.parser import HTMLParser

from pipeline.models import Table
from pipeline.table.cells import clean_text

__all__ = ["SpanCell", "grid_html", "parse_html_table", "table_from_html"]

_MAX_HEADER_ROWS = 3


@dataclass(frozen=True)
class SpanCell:
    text: str
    row: int
    col: int
    rowspan: int = 1
    colspan: int = 1


class _Cells(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[tuple[str, int, int]]] = []
        self._text: list[str] | None = None
        self._spans = (1, 1)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            if not self.rows:
                self.rows.append([])
            found = dict(attrs)
            self._spans = (_span(found.get("rowspan")), _span(found.get("colspan")))
            self._text = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._text is not None:
            self.rows[-1].append((" ".join("".join(self._text).split()), *self._spans))
            self._text = None

    def handle_data(self, data: str) -> None:
        if self._text is not None:
            self._text.append(data)


def _span(value: str | None) -> int:
    try:
        return max(1, min(100, int(value or 1)))
    except ValueError:
        return 1


def parse_html_table(html: str) -> list[SpanCell]:
    """Every cell of the first table in `html` at its grid position (row, column)."""
    parser = _Cells()
    parser.feed(html)
    taken: set[tuple[int, int]] = set()
    cells: list[SpanCell] = []
    for r, row in enumerate(parser.rows):
        c = 0
        for text, rowspan, colspan in row:
            while (r, c) in taken:
                c += 1
            cells.append(SpanCell(clean_text(text), r, c, rowspan, colspan))
            taken |= {(r + dr, c + dc) for dr in range(rowspan) for dc in range(colspan)}
            c += colspan
    return cells


def _header_rows(cells: list[SpanCell], rows: int) -> int:
    """The header block: the first row, grown by its row spans; a first row that groups
    columns (a column span) is a group header over the column names below it."""
    first = [c for c in cells if c.row == 0]
    depth = max((c.rowspan for c in first), default=1)
    if depth == 1 and any(c.colspan > 1 for c in first):
        depth = 2
    return max(1, min(depth, _MAX_HEADER_ROWS, rows - 1))


def table_from_html(html: str) -> Table:
    """A grid with merged values repeated; `html` kept as the model read it."""
    cells = parse_html_table(html)
    if not cells:
        return Table()
    rows = max(c.row + c.rowspan for c in cells)
    width = max(c.col + c.colspan for c in cells)
    grid = [["" for _ in range(width)] for _ in range(rows)]
    for cell in cells:
        for r in range(cell.row, min(rows, cell.row + cell.rowspan)):
            for c in range(cell.col, cell.col + cell.colspan):
                grid[r][c] = cell.text
    depth = _header_rows(cells, rows)
    return Table(header=grid[depth - 1], cells=grid[depth:], html=grid_html_from(cells))


def grid_html_from(cells: list[SpanCell]) -> str:
    """`<table>` HTML of positioned cells, spans kept."""
    rows: dict[int, list[SpanCell]] = {}
    for cell in cells:
        rows.setdefault(cell.row, []).append(cell)
    out = ["<table>"]
    for r in range(max(rows, default=-1) + 1):
        out.append("<tr>")
        for cell in sorted(rows.get(r, []), key=lambda c: c.col):
            spans = "".join(
                f' {name}="{value}"'
                for name, value in (("rowspan", cell.rowspan), ("colspan", cell.colspan))
                if value > 1
            )
            out.append(f"<td{spans}>{escape(cell.text)}</td>")
        out.append("</tr>")
    out.append("</table>")
    return "".join(out)


def grid_html(table: Table) -> str:
    """The table as HTML: its own (with merged cells) when a structure model read it, else
    the plain grid, header first."""
    if table.html:
        return table.html
    rows = [table.header, *table.cells] if table.header or table.cells else []
    cells = [SpanCell(text, r, c) for r, row in enumerate(rows) for c, text in enumerate(row)]
    return grid_html_from(cells)
