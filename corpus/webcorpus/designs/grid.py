"""A dense data grid (MUI / AG Grid style): selection checkboxes, a sorted column, compact rows,
a row action button per row and a pagination footer."""

from __future__ import annotations

from html import escape

from ..data import TableData
from ..markup import Cell, TableMarkup, render_table
from ..model import Spec
from .common import Page, header_cells, icon, plain_cell, status_of, stock_markup, styled_page

TABS = ("Stock", "Movements", "Transfers", "Cycle counts")
SORTED = "on_hand"

CSS = """
body{background:#f5f6f8;color:rgba(0,0,0,.87);font-size:13px}
.app{height:52px;background:#1565c0;color:#fff;display:flex;align-items:center;gap:18px;
  padding:0 18px;font-size:17px;font-weight:500}
.app .tabs{display:flex;gap:4px;margin-left:24px;font-size:13px;font-weight:500}
.app .tabs span{padding:16px 14px;opacity:.75;letter-spacing:.4px}
.app .tabs span.on{opacity:1;border-bottom:2px solid #fff}
.app .right{margin-left:auto;display:flex;gap:16px;align-items:center}
.wrap{padding:14px 18px}
.paper{background:#fff;border-radius:4px;border:1px solid #e0e0e0}
.toolbar{display:flex;align-items:center;gap:6px;padding:8px 10px;border-bottom:1px solid #e0e0e0}
.tb{display:inline-flex;align-items:center;gap:5px;color:#1565c0;font-weight:500;font-size:12px;
  padding:4px 8px;letter-spacing:.3px}
.find{margin-left:auto;display:flex;align-items:center;gap:6px;border-bottom:1px solid #9e9e9e;
  width:240px;padding:3px 2px;color:#757575}
.selected{background:#e3f2fd;color:#0d47a1;padding:6px 14px;font-size:12px;
  border-bottom:1px solid #e0e0e0}
table.dg{width:100%}
.dg th{font-weight:500;text-align:left;padding:0 10px;height:36px;border-bottom:1px solid #e0e0e0;
  white-space:nowrap;border-right:1px solid #eeeeee;color:rgba(0,0,0,.87)}
.dg td{padding:0 10px;height:30px;border-bottom:1px solid #eeeeee;white-space:nowrap}
.dg .num{text-align:right;font-variant-numeric:tabular-nums}
.dg th.sorted{color:#1565c0}
.dg th .si{color:#1565c0;margin-left:2px}
.dg tr.picked td{background:#e8f1fb}
.dg .box{width:38px;text-align:center;padding:0}
.dg input{width:15px;height:15px;margin:0;vertical-align:middle;accent-color:#1565c0}
.dg .pill{display:inline-block;border-radius:10px;padding:0 8px;line-height:18px;font-size:11px;
  font-weight:500}
.pill-bad{background:#fdecea;color:#b71c1c}
.pill-good{background:#e8f5e9;color:#1b5e20}
.act{display:inline-flex;align-items:center;gap:6px}
.act .b{border:1px solid rgba(21,101,192,.5);color:#1565c0;border-radius:4px;padding:0 8px;
  line-height:20px;font-size:11px;font-weight:500;letter-spacing:.3px}
.act .k{color:#757575}
.foot{display:flex;align-items:center;gap:22px;padding:8px 14px;color:rgba(0,0,0,.7);
  font-size:12px}
.foot .l{margin-right:auto}
.foot .sel{display:inline-flex;align-items:center;gap:4px}
"""


def _cell(table: TableData, r: int, c: int) -> Cell:
    text = table.cells[r][c]
    field = table.fields[c]
    if status_of(table, c):
        kind = "bad" if table.is_low(r) else "good"
        return Cell(
            text, html=f'<span class="pill pill-{kind}">{escape(text)}</span>', at=(r + 1, c)
        )
    if field == "action":
        html = f'<span class="act"><span class="b">{escape(text)}</span>'
        html += f'<span class="k">{icon("more", 14)}</span></span>'
        return Cell(text, html=html, at=(r + 1, c))
    return plain_cell(table, r, c)


def _picked(r: int) -> bool:
    return r in (1, 4)


def _checkbox(checked: bool) -> str:
    return f'<input type="checkbox"{" checked" if checked else ""} tabindex="-1">'


def _markup(table: TableData) -> TableMarkup:
    sorted_col = table.fields.index(SORTED) if SORTED in table.fields else -1
    head = tuple(
        Cell(
            h.text,
            tag="th",
            classes=" ".join(x for x in (h.classes, "sorted" if i == sorted_col else "") if x),
            html=escape(h.text)
            + (f'<span class="si">{icon("sort", 12)}</span>' if i == sorted_col else ""),
            at=h.at,
        )
        for i, h in enumerate(header_cells(table))
    )
    return stock_markup(
        table,
        _cell,
        head=head,
        head_lead=(Cell("", tag="th", classes="box", html=_checkbox(False), boxed=False),),
        lead=lambda r: (Cell("", classes="box", html=_checkbox(_picked(r)), boxed=False),),
        row_class=lambda r: "picked" if _picked(r) else "",
        classes="dg",
    )


def page(spec: Spec, table: TableData) -> Page:
    fonts = (spec.font or "roboto",)
    markup = _markup(table)
    shown = len(table.cells)
    total = 143
    picked = sum(_picked(r) for r in range(shown))
    tabs = "".join(f'<span class="{"on" if t == "Stock" else ""}">{t.upper()}</span>' for t in TABS)
    tools = "".join(
        f'<span class="tb">{icon(name, 14)}{label}</span>'
        for name, label in (
            ("grid", "COLUMNS"),
            ("filter", "FILTERS (1)"),
            ("list", "DENSITY"),
            ("download", "EXPORT"),
        )
    )
    body = (
        f'<div class="app">{icon("menu", 20)}{escape(spec.title)}<div class="tabs">{tabs}</div>'
        f'<div class="right">{icon("search", 18)}{icon("bell", 18)}{icon("user", 18)}</div>'
        '</div><div class="wrap"><div class="paper">'
        f'<div class="toolbar">{tools}<span class="find">{icon("search", 14)}Search…</span></div>'
        f'<div class="selected">{picked} rows selected</div>'
        f"{render_table(markup)}"
        f'<div class="foot"><span class="l">{picked} rows selected</span>'
        f'<span class="sel">Rows per page: {shown}{icon("chevron-down", 12)}</span>'
        f"<span>1–{shown} of {total}</span>{icon('chevron-left', 16)}"
        f"{icon('chevron-right', 16)}</div></div></div>"
    )
    return styled_page(spec, "en", fonts, CSS, body, markup)
