"""A classic ERP stock report: a two-row header with grouped columns (colspan) and single
headers spanning both rows (rowspan), and the first column merged over each run of equal values.

The truth's `header` holds the bottom-level header of every column and `cells` repeat a merged
value in every row it spans; `table_html` keeps the merged structure.
"""

from __future__ import annotations

from html import escape

from ..data import TableData
from ..markup import Cell, Row, TableMarkup, render_table
from ..model import Spec
from .common import Page, icon, status_of, styled_page

CSS = """
body{background:#e9edf2;color:#1d2630;font-size:13px}
.bar{height:40px;background:#2b3b4e;color:#dbe3ec;display:flex;align-items:center;gap:18px;
  padding:0 16px}
.bar b{color:#fff;font-size:14px}
.bar .right{margin-left:auto;display:flex;gap:16px;align-items:center}
.menu{height:32px;background:#f7f9fb;border-bottom:1px solid #c5ced8;display:flex;
  align-items:center;gap:22px;padding:0 16px;color:#33485e}
.sheet{margin:16px 20px;background:#fff;border:1px solid #c5ced8;padding:16px 20px 20px}
h1{font-size:19px;margin:0 0 10px;font-weight:700}
.params{display:grid;grid-template-columns:repeat(4,auto);justify-content:start;gap:4px 28px;
  margin-bottom:14px;color:#33485e}
.params span b{color:#1d2630}
.actions{display:flex;gap:8px;margin-bottom:12px}
.btn{border:1px solid #9fb0c2;background:linear-gradient(#fdfdfd,#e8edf2);border-radius:3px;
  padding:3px 12px;display:inline-flex;align-items:center;gap:6px}
table.rep{border:1px solid #8a9aab}
.rep th,.rep td{border:1px solid #a9b6c3;padding:5px 10px;white-space:nowrap}
.rep th{background:#dfe6ee;font-weight:700;text-align:center}
.rep thead tr:first-child th{background:#cfd9e4}
.rep td.num{text-align:right}
.rep td.group{background:#f3f6f9;font-weight:700;vertical-align:middle;text-align:center}
.rep tbody tr:nth-child(even) td:not(.group){background:#fafbfc}
.rep td.bad{color:#b3261e;font-weight:700}
.foot{margin-top:10px;color:#5b6b7c}
"""


def _runs(values: list[str]) -> list[int]:
    """For each row, how many rows its merged cell spans (0 for a row under a merged cell)."""
    spans = [0] * len(values)
    start = 0
    for r in range(1, len(values) + 1):
        if r == len(values) or values[r] != values[start]:
            spans[start] = r - start
            start = r
    return spans


def _header(spec: Spec, table: TableData) -> tuple[Row, ...]:
    if sum(n for _, n in spec.header_groups) != len(table.header):
        raise ValueError(f"{spec.file}: header groups do not cover the columns")
    top: list[Cell] = []
    bottom: list[Cell] = []
    c = 0
    for text, n in spec.header_groups:
        if text is None:
            top += [Cell(table.header[c + k], tag="th", rowspan=2, at=(0, c + k)) for k in range(n)]
        else:
            top.append(Cell(text, tag="th", colspan=n))
            bottom += [Cell(table.header[c + k], tag="th", at=(0, c + k)) for k in range(n)]
        c += n
    return Row(tuple(top)), Row(tuple(bottom))


def _body_cell(table: TableData, r: int, c: int) -> Cell:
    text = table.cells[r][c]
    classes = "num" if table.numeric(c) else ""
    if status_of(table, c) and table.is_low(r):
        classes = "bad"
    return Cell(text, classes=classes, at=(r + 1, c))


def _markup(spec: Spec, table: TableData) -> TableMarkup:
    spans = _runs([row[0] for row in table.cells])
    body = []
    for r in range(len(table.cells)):
        merged = (
            (Cell(table.cells[r][0], classes="group", rowspan=spans[r], at=(r + 1, 0)),)
            if spans[r]
            else ()
        )
        rest = tuple(_body_cell(table, r, c) for c in range(1, len(table.header)))
        body.append(Row((*merged, *rest)))
    return TableMarkup(head=_header(spec, table), body=tuple(body), classes="rep")


def page(spec: Spec, table: TableData) -> Page:
    fonts = (spec.font or "dejavu-sans",)
    markup = _markup(spec, table)
    where = spec.page_warehouse or ", ".join(sorted({i.warehouse_id for i in table.items}))
    params = (
        ("Report", "INV-042 Stock status"),
        ("Warehouses", where),
        ("Company", "StockShot Trading Co."),
        ("Unit", "each"),
    )
    body = (
        f'<div class="bar">{icon("menu", 16)}<b>StockShot Enterprise</b>Logistics'
        f'<div class="right">{icon("search", 15)}{icon("user", 15)}R. Okafor</div></div>'
        '<div class="menu"><span>Materials</span><span>Purchasing</span><span>Warehouse</span>'
        "<span>Reports</span><span>Administration</span></div>"
        f'<div class="sheet"><h1>{escape(spec.title)}</h1><div class="params">'
        + "".join(f"<span>{k}: <b>{escape(v)}</b></span>" for k, v in params)
        + '</div><div class="actions">'
        f'<span class="btn">{icon("refresh", 13)}Refresh</span>'
        f'<span class="btn">{icon("download", 13)}Export to Excel</span>'
        f'<span class="btn">{icon("doc", 13)}Print</span></div>'
        f"{render_table(markup)}"
        f'<div class="foot">{len(table.cells)} items · quantities in stock-keeping units</div>'
        "</div>"
    )
    return styled_page(spec, "en", fonts, CSS, body, markup)
