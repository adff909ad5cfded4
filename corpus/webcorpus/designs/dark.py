"""A dark operations dashboard: icon rail, stat cards, a table with status dots."""

from __future__ import annotations

from html import escape

from screengen.seed import format_int

from ..data import TableData
from ..markup import Cell, render_table
from ..model import Spec
from .common import Page, icon, plain_cell, status_of, stock_markup, styled_page

RAIL = ("home", "box", "truck", "chart", "list", "gear")

CSS = """
body{background:#0d1117;color:#e6edf3;font-size:14px}
.rail{position:fixed;left:0;top:0;bottom:0;width:60px;background:#010409;
  border-right:1px solid #21262d;display:flex;flex-direction:column;align-items:center;
  padding-top:14px;gap:22px;color:#7d8590}
.rail .mark{width:30px;height:30px;border-radius:8px;
  background:linear-gradient(135deg,#2f81f7,#a371f7)}
.rail .on{color:#e6edf3;background:#21262d;border-radius:8px;padding:6px}
.main{margin-left:60px;padding:0 28px}
.top{height:60px;display:flex;align-items:center;gap:16px;border-bottom:1px solid #21262d}
.top .crumb{color:#7d8590}
.top .crumb b{color:#e6edf3;font-weight:600}
.search{margin-left:auto;width:300px;height:32px;border:1px solid #30363d;border-radius:6px;
  background:#0d1117;color:#7d8590;display:flex;align-items:center;gap:8px;padding:0 10px}
.env{border:1px solid #3fb950;color:#3fb950;border-radius:12px;padding:2px 10px;font-size:12px}
.avatar{width:30px;height:30px;border-radius:50%;background:#6e40c9;display:flex;
  align-items:center;justify-content:center;font-size:12px;font-weight:700}
h1{font-size:24px;font-weight:600;margin:22px 0 4px}
.sub{color:#7d8590;margin-bottom:18px}
.stats{display:grid;grid-template-columns:repeat(4,1fr);gap:16px;margin-bottom:18px}
.stat{background:#161b22;border:1px solid #30363d;border-radius:10px;padding:14px 18px}
.stat .k{color:#7d8590;font-size:13px}
.stat .v{font-size:26px;font-weight:600;margin-top:4px}
.stat .v.bad{color:#f85149}
.panel{background:#161b22;border:1px solid #30363d;border-radius:10px;overflow:hidden}
.panel-head{display:flex;align-items:center;padding:12px 18px;border-bottom:1px solid #30363d}
.panel-head h2{font-size:16px;font-weight:600;margin:0}
.panel-head .tools{margin-left:auto;display:flex;gap:8px;color:#7d8590}
.chip{border:1px solid #30363d;border-radius:6px;padding:4px 10px;display:flex;gap:6px;
  align-items:center;color:#c9d1d9}
table.ops{width:100%}
.ops th{color:#7d8590;font-size:12px;font-weight:600;letter-spacing:.6px;text-align:left;
  padding:10px 18px;border-bottom:1px solid #30363d;background:#0d1117;white-space:nowrap}
.ops td{padding:10px 18px;border-bottom:1px solid #21262d;white-space:nowrap}
.ops tbody tr:last-child td{border-bottom:0}
.ops .num{text-align:right;font-variant-numeric:tabular-nums}
.ops .sku{color:#58a6ff}
.ops .low{color:#f85149;font-weight:600}
.dot{display:inline-flex;align-items:center;gap:7px}
.dot::before{content:"";width:8px;height:8px;border-radius:50%}
.dot-bad{color:#ffa198}.dot-bad::before{background:#f85149}
.dot-good{color:#7ee787}.dot-good::before{background:#3fb950}
"""


def _cell(table: TableData, r: int, c: int) -> Cell:
    text = table.cells[r][c]
    field = table.fields[c]
    if status_of(table, c):
        kind = "bad" if table.is_low(r) else "good"
        return Cell(text, html=f'<span class="dot dot-{kind}">{escape(text)}</span>', at=(r + 1, c))
    if field == "sku":
        return Cell(text, classes="sku", at=(r + 1, c))
    if field == "on_hand" and table.is_low(r):
        return Cell(text, classes="num low", at=(r + 1, c))
    return plain_cell(table, r, c)


def _stats(spec: Spec, table: TableData) -> str:
    low = sum(table.is_low(r) for r in range(len(table.cells)))
    units = sum(table.shown_on_hand)
    on_order = sum(item.on_order for item in table.items)
    values = (
        ("Items on this page", str(len(table.cells)), ""),
        ("Below reorder point", str(low), "bad"),
        ("Units on hand", format_int(units, spec.formats.thousands), ""),
        ("Units on order", format_int(on_order, spec.formats.thousands), ""),
    )
    return "".join(
        f'<div class="stat"><div class="k">{k}</div><div class="v {cls}">{v}</div></div>'
        for k, v, cls in values
    )


def page(spec: Spec, table: TableData) -> Page:
    fonts = (spec.font or "open-sans",)
    markup = stock_markup(table, _cell, classes="ops")
    rail = "".join(
        f'<span class="{"on" if name == "box" else ""}">{icon(name, 20)}</span>' for name in RAIL
    )
    where = spec.page_warehouse or "All sites"
    body = (
        f'<nav class="rail"><span class="mark"></span>{rail}</nav><div class="main">'
        f'<div class="top"><span class="crumb">Operations / Inventory / <b>{escape(where)}</b>'
        f'</span><span class="search">{icon("search", 14)}Search items, SKUs, suppliers</span>'
        f'<span class="env">Production</span>{icon("bell", 18)}'
        '<span class="avatar">JK</span></div>'
        f'<h1>{escape(spec.title)}</h1><div class="sub">Stock on hand against reorder points.'
        "</div>"
        f'<div class="stats">{_stats(spec, table)}</div>'
        '<div class="panel"><div class="panel-head"><h2>Stock levels</h2><div class="tools">'
        f'<span class="chip">{icon("filter", 13)}Status: any</span>'
        f'<span class="chip">{icon("download", 13)}CSV</span></div></div>'
        f"{render_table(markup)}</div></div>"
    )
    return styled_page(spec, "en", fonts, CSS, body, markup)
